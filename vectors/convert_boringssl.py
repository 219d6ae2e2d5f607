#!/usr/bin/env python3
"""Converts a BoringSSL AEAD test file for AES-GCM or AES-GCM-SIV (FileTest
format, e.g. crypto/cipher/test/aes_128_gcm_tests.txt or
aes_128_gcm_siv_tests.txt) into the libgcm test-vector format. The two
modes' files have the same fields; the output file's name says which mode
its cases are for.

A case is a block of KEY, NONCE, IN (plaintext), AD, CT (without the tag)
and TAG lines, in any order, ended by a blank line. A value is hex, a
double-quoted string (its bytes, with \\", \\\\ and \\xNN escapes) or
nothing. `#` starts a comment line. Cases marked FAILS become invalid; cases
marked NO_SEAL are kept as valid (the test still seals them: for AES-GCM a
correct case always seals to itself). Any other attribute is refused so a
new BoringSSL feature cannot be silently misread.

Each case's ID is `<file>:<line>`, the case's first line.

Usage: convert_boringssl.py aes_128_gcm_tests.txt [OUTPUT.txt] [--missing-ok]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gcmvec  # noqa: E402

_NAMES = {"KEY": "key", "NONCE": "nonce", "IN": "pt", "AD": "aad",
          "CT": "ct", "TAG": "tag"}
_FLAGS = ("FAILS", "NO_SEAL")


def parse_value(text, where):
    text = text.strip()
    if not text.startswith('"'):
        return bytes.fromhex(text)
    if len(text) < 2 or not text.endswith('"'):
        raise ValueError("%s: unterminated string" % where)
    body = text[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            if i + 1 >= len(body):
                raise ValueError("%s: dangling backslash" % where)
            n = body[i + 1]
            if n == "x":
                out.append(int(body[i + 2:i + 4], 16))
                i += 4
                continue
            if n not in '"\\':
                raise ValueError("%s: unknown escape \\%s" % (where, n))
            out.append(ord(n))
            i += 2
            continue
        out.append(ord(c))
        i += 1
    return bytes(out)


def convert(path):
    name = os.path.basename(path)
    cases = []
    cur = {}
    start = 0

    def finish():
        if not cur:
            return
        where = "%s:%d" % (name, start)
        for n, f in _NAMES.items():
            if f not in cur:
                raise ValueError("%s: case lacks %s" % (where, n))
        cases.append(gcmvec.Case(where, cur["key"], cur["nonce"], cur["aad"],
                                 cur["pt"], cur["ct"], cur["tag"],
                                 "FAILS" not in cur))
        cur.clear()

    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if line.startswith("#"):
                continue
            if not line:
                finish()
                continue
            if not cur:
                start = lineno
            where = "%s:%d" % (name, lineno)
            if line in _FLAGS:
                cur[line] = True
                continue
            key, sep, value = line.partition(":")
            if not sep or key.strip() not in _NAMES:
                raise ValueError("%s: unexpected line %r" % (where, line))
            field = _NAMES[key.strip()]
            if field in cur:
                raise ValueError("%s: %s given twice" % (where, key))
            cur[field] = parse_value(value, where)
    finish()
    header = ["converted from BoringSSL %s by vectors/convert_boringssl.py" % name,
              "BoringSSL test data: Apache License 2.0"]
    return cases, header


if __name__ == "__main__":
    sys.exit(gcmvec.main_convert(__doc__.splitlines()[0], convert, "boringssl.txt"))
