#!/usr/bin/env python3
"""Seed corpora for the libFuzzer targets in fuzz/, made from test vectors.

    make_corpus.py --out DIR [--vector-dir DIR] [--per-file N]
                   [--stamp FILE] [--depfile FILE] VECTOR_FILE...

Reads vector files in the project's format (vectors/README.md): the ones
named on the command line (vectors/openssl_generated.txt) and every *.txt
in --vector-dir (the external suites converted at build time, when they
exist). Every case of a named file is used; of each file found in
--vector-dir at most --per-file cases, spread evenly over the file, so the
seeds stay quick to replay. Each case becomes one input per target, in that
target's input layout (the comment at the top of each fuzz/fuzz_*.cc), and
the per-case choices a target has (chunk boundaries, in place or not,
backend pair, AEAD, operation) rotate from case to case.

Inputs are written to DIR/<target>/<sha1 of the input>, as libFuzzer names
them; files from an earlier run that are no longer produced are removed.
--stamp names a file touched at the end, --depfile a Makefile-style
dependency file listing every vector file read (for CMake's DEPFILE).
Python 3 standard library only.
"""

import argparse
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "vectors"))
import gcmvec  # noqa: E402  (the vector format reader)

TARGETS = ("fuzz_differential", "fuzz_open", "fuzz_stream", "fuzz_compat",
           "fuzz_siv")

KEY_SEL = {16: 0, 24: 1, 32: 2}

# Chunk lists (fuzz_util.h: a byte b < 192 is b bytes, else
# 192 + (b - 192) * 32); rotated over the cases.
CHUNK_PATTERNS = (
    [],
    [1],
    [15],
    [16, 16],
    [17, 0, 3],
    [0],
    [5, 191, 1],
    [64, 64, 64],
    [7] * 9,
    [255],
    [31, 33],
    [0, 0, 1, 0, 2],
)


def u8(v):
    return bytes([v & 0xFF])


def u16(v):
    return struct.pack("<H", v)


def u64(v):
    return struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def chunks(i):
    pattern = CHUNK_PATTERNS[i % len(CHUNK_PATTERNS)]
    return u8(len(pattern)) + bytes(pattern)


def header(case, key_flags=0):
    """The common message header of fuzz_util.h, or None when the case does
    not fit it (nonce of 0 or more than 128 bytes, AAD over 64 KiB)."""
    if not 1 <= len(case.nonce) <= 128 or len(case.aad) > 0xFFFF:
        return None
    if not 1 <= len(case.tag) <= 16 or len(case.key) not in KEY_SEL:
        return None
    return (u8(KEY_SEL[len(case.key)] | key_flags) + case.key +
            u8(len(case.nonce) - 1) + case.nonce +
            u8(len(case.tag) - 1) + u16(len(case.aad)) + case.aad)


def seed_differential(case, i):
    h = header(case, 0x80 if i % 2 else 0)
    if h is None or case.pt is None:
        return []
    return [h + case.pt]


def seed_stream(case, i):
    h = header(case)
    if h is None or case.pt is None:
        return []
    return [h + u8(i % 16) + u8(i % 7) + chunks(i) + chunks(i + 1) +
            chunks(i + 2) + case.pt]


def seed_open(case, i):
    if len(case.aad) > 0xFFFF:
        return []
    mode = (i % 4) | (8 if (i // 4) % 2 else 0)
    tag_len = len(case.tag)
    if not 1 <= tag_len <= 16:
        return []
    common = u8(i % 7) + u8(tag_len) + u16(len(case.aad)) + case.aad + chunks(i)
    if case.pt is not None:
        # Seal first: the vector's plaintext and AAD under the fixed key.
        # Valid cases open; invalid ones get one tag bit flipped.
        mask = bytearray(tag_len)
        if not case.valid:
            mask[0] ^= 0x01
        return [u8(mode | 4) + common + bytes(mask) + u8(0) + case.pt]
    # No plaintext (NIST decrypt failures): ciphertext and tag as they are.
    return [u8(mode) + common + case.tag + u8(0) + case.ct]


# TLS nonce-sequence steps for fuzz_compat's operation 3 (see its header).
TLS_STEPS = (
    [0x03, 0x03, 0x03],          # +1 each time: all accepted
    [0x03, 0x02, 0x03],          # +1, +0 (reuse: refused), +1
    [0x07, 0x01, 0x04],          # +5, -1 (refused), +2
    [0xC0] + [0xF0],             # a u64, then 2^64-1 (refused)
    [0x80, 0x03, 0x00],          # +u16, +1, -2 (refused)
)


def tls_records(i):
    out = bytearray()
    steps = TLS_STEPS[i % len(TLS_STEPS)]
    out += u8(len(steps))
    for k, s in enumerate(steps):
        out += u8(s)
        if 0x80 <= s < 0xC0:
            out += u16(1000 + k)
        elif 0xC0 <= s < 0xF0:
            out += u64(0x0123456789ABCDEF * (k + 1))
    return bytes(out)


def seed_compat(case, i):
    if case.pt is None or len(case.aad) > 0xFFFF or len(case.nonce) > 128:
        return []
    if not 1 <= len(case.tag) <= 16:
        return []
    aeads = {16: (0, 3, 5), 24: (1,), 32: (2, 4, 6)}.get(len(case.key))
    if aeads is None:
        return []
    aead = aeads[i % len(aeads)]
    op = i % 4
    flags = (i // 4) % 8
    tag_sel = 0 if len(case.tag) == 16 and i % 2 else len(case.tag)
    out = (u8(aead) + u8(tag_sel) + case.key + u8(op) + u8(flags) +
           u8((len(case.nonce) - 12) % 129) + case.nonce +
           u16(len(case.aad)) + case.aad + chunks(i) + chunks(i + 3) +
           u16(i) + u8(1 << (i % 8)))
    if op == 3:
        out += tls_records(i)
    return [out + case.pt]


def seed_siv(case, i):
    """fuzz_siv's layout: any case with a 16- or 32-byte key, a 12-byte
    nonce and a plaintext (AES-GCM cases too: the target only needs a
    message)."""
    if case.pt is None or len(case.key) not in (16, 32):
        return []
    if len(case.nonce) != 12 or len(case.aad) > 0xFFFF:
        return []
    flags = (1 if len(case.key) == 32 else 0) | (0x80 if i % 2 else 0)
    return [u8(flags) + case.key + case.nonce + u16(len(case.aad)) +
            case.aad + u16((i * 37) & 0xFFFF) + case.pt]


SEEDERS = {
    "fuzz_differential": seed_differential,
    "fuzz_open": seed_open,
    "fuzz_stream": seed_stream,
    "fuzz_compat": seed_compat,
    "fuzz_siv": seed_siv,
}


def spread(cases, limit):
    """At most `limit` cases, evenly spaced over the list."""
    if limit <= 0 or len(cases) <= limit:
        return cases
    step = len(cases) / limit
    return [cases[int(k * step)] for k in range(limit)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--vector-dir")
    ap.add_argument("--per-file", type=int, default=150)
    ap.add_argument("--stamp")
    ap.add_argument("--depfile")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()

    sources = [(f, 0) for f in args.files]
    if args.vector_dir and os.path.isdir(args.vector_dir):
        for name in sorted(os.listdir(args.vector_dir)):
            if name.endswith(".txt"):
                sources.append((os.path.join(args.vector_dir, name),
                                args.per_file))

    cases = []
    for path, limit in sources:
        cases.extend(spread(gcmvec.read_file(path), limit))

    produced = {t: {} for t in TARGETS}
    for i, case in enumerate(cases):
        for t in TARGETS:
            for data in SEEDERS[t](case, i):
                produced[t][hashlib.sha1(data).hexdigest()] = data

    for t in TARGETS:
        d = os.path.join(args.out, t)
        os.makedirs(d, exist_ok=True)
        for name in os.listdir(d):
            if name not in produced[t]:
                os.remove(os.path.join(d, name))
        for name, data in produced[t].items():
            path = os.path.join(d, name)
            if not os.path.exists(path):
                with open(path, "wb") as f:
                    f.write(data)

    if args.depfile and args.stamp:
        deps = " ".join(os.path.abspath(p).replace(" ", "\\ ")
                        for p, _ in sources)
        with open(args.depfile, "w") as f:
            f.write("%s: %s\n" % (os.path.abspath(args.stamp), deps))
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write("%s\n" % " ".join("%s=%d" % (t, len(produced[t]))
                                      for t in TARGETS))
    print("fuzz seeds: " + ", ".join("%s %d" % (t, len(produced[t]))
                                     for t in TARGETS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
