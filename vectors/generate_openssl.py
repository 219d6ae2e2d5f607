#!/usr/bin/env python3
"""Generates libgcm's own AES-GCM vectors (vectors/openssl_generated.txt)
with the system OpenSSL libcrypto, called through ctypes. Python 3 standard
library only; deterministic (a fixed seed), so rerunning it reproduces the
committed file byte for byte as long as OpenSSL computes AES-GCM correctly.

What it covers (each case's ID says which group it belongs to):
  ptlen=N      every plaintext length 0..257 (AAD short and random)
  aadlen=N     every AAD length 0..257 (plaintext short and random)
  noncelen=N   every nonce length 1..64, for each key size
  taglen=N     every tag length 1..16, for each key size
  long         longer messages (up to 4 KiB) for multi-block bulk paths
  wrap         nonces whose J0 ends in ffffffff, fffffffe, ...: the 32-bit
               counter wraps to 00000000 inside the message, and must not
               carry into the upper 96 bits. The nonces are found by solving
               GHASH for the first nonce block (see solve_nonce); each case
               is cross-checked against an ECB computation of the counter
               blocks, so the file does not merely trust OpenSSL here.
  flip-*       invalid: one bit flipped in the tag, ciphertext, AAD or nonce
               of a valid case (including truncated tags)
  bad-*        invalid: an empty nonce or an empty tag (argument errors)
Key sizes cycle through 128, 192 and 256 bits in every group.

Usage: generate_openssl.py [OUTPUT]   (default: openssl_generated.txt next
to this script). `generate_openssl.py --check FILE...` instead re-checks
existing project-format files against OpenSSL.
"""

import ctypes
import ctypes.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gcmvec  # noqa: E402

SEED = 0x6c696267636d  # "libgcm"

# EVP_CIPHER_CTX_ctrl commands (openssl/evp.h).
EVP_CTRL_GCM_SET_IVLEN = 0x9
EVP_CTRL_GCM_GET_TAG = 0x10
EVP_CTRL_GCM_SET_TAG = 0x11


# ---------------------------------------------------------------------------
# OpenSSL through ctypes
# ---------------------------------------------------------------------------

def _load_libcrypto():
    names = ["libcrypto.so.3", ctypes.util.find_library("crypto"),
             "libcrypto.3.dylib", "libcrypto-3-x64.dll"]
    for n in names:
        if not n:
            continue
        try:
            return ctypes.CDLL(n)
        except OSError:
            pass
    raise SystemExit("error: cannot load OpenSSL libcrypto (libcrypto.so.3)")


class OpenSSL:
    def __init__(self):
        lib = _load_libcrypto()
        vp, ip, cp = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
        lib.EVP_CIPHER_CTX_new.restype = vp
        lib.EVP_CIPHER_CTX_free.argtypes = [vp]
        for name in ("EVP_aes_128_gcm", "EVP_aes_192_gcm", "EVP_aes_256_gcm",
                     "EVP_aes_128_ecb", "EVP_aes_192_ecb", "EVP_aes_256_ecb"):
            getattr(lib, name).restype = vp
        for name in ("EVP_EncryptInit_ex", "EVP_DecryptInit_ex"):
            f = getattr(lib, name)
            f.argtypes = [vp, vp, vp, cp, cp]
            f.restype = ip
        for name in ("EVP_EncryptUpdate", "EVP_DecryptUpdate"):
            f = getattr(lib, name)
            f.argtypes = [vp, cp, ctypes.POINTER(ip), cp, ip]
            f.restype = ip
        for name in ("EVP_EncryptFinal_ex", "EVP_DecryptFinal_ex"):
            f = getattr(lib, name)
            f.argtypes = [vp, cp, ctypes.POINTER(ip)]
            f.restype = ip
        lib.EVP_CIPHER_CTX_ctrl.argtypes = [vp, ip, ip, vp]
        lib.EVP_CIPHER_CTX_ctrl.restype = ip
        lib.EVP_CIPHER_CTX_set_padding.argtypes = [vp, ip]
        lib.EVP_CIPHER_CTX_set_padding.restype = ip
        self.lib = lib

    def _cipher(self, mode, key):
        bits = {16: 128, 24: 192, 32: 256}[len(key)]
        return getattr(self.lib, "EVP_aes_%d_%s" % (bits, mode))()

    def _run(self, key, nonce, aad, data, encrypt, tag=None, tag_len=16):
        lib = self.lib
        ctx = lib.EVP_CIPHER_CTX_new()
        if not ctx:
            raise MemoryError
        init = lib.EVP_EncryptInit_ex if encrypt else lib.EVP_DecryptInit_ex
        update = lib.EVP_EncryptUpdate if encrypt else lib.EVP_DecryptUpdate
        final = lib.EVP_EncryptFinal_ex if encrypt else lib.EVP_DecryptFinal_ex
        try:
            n = ctypes.c_int(0)
            ok = init(ctx, self._cipher("gcm", key), None, None, None)
            ok = ok and lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, len(nonce), None)
            ok = ok and init(ctx, None, None, key, nonce)
            if not ok:
                raise RuntimeError("OpenSSL GCM init failed")
            if aad and not update(ctx, None, ctypes.byref(n), aad, len(aad)):
                raise RuntimeError("OpenSSL AAD failed")
            out = ctypes.create_string_buffer(len(data) + 16)
            if data and not update(ctx, out, ctypes.byref(n), data, len(data)):
                raise RuntimeError("OpenSSL update failed")
            if not encrypt:
                tbuf = ctypes.create_string_buffer(tag, len(tag))
                if not lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, len(tag), tbuf):
                    raise RuntimeError("OpenSSL SET_TAG failed")
            fin = ctypes.create_string_buffer(16)
            ok = final(ctx, fin, ctypes.byref(n))
            if not encrypt:
                return out.raw[:len(data)] if ok else None
            if not ok:
                raise RuntimeError("OpenSSL final failed")
            tbuf = ctypes.create_string_buffer(16)
            if not lib.EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, tag_len, tbuf):
                raise RuntimeError("OpenSSL GET_TAG failed")
            return out.raw[:len(data)], tbuf.raw[:tag_len]
        finally:
            lib.EVP_CIPHER_CTX_free(ctx)

    def seal(self, key, nonce, aad, pt, tag_len=16):
        return self._run(key, nonce, aad, pt, True, tag_len=tag_len)

    def open(self, key, nonce, aad, ct, tag):
        """The plaintext, or None when OpenSSL rejects the tag."""
        return self._run(key, nonce, aad, ct, False, tag=tag)

    def ecb(self, key, blocks):
        lib = self.lib
        ctx = lib.EVP_CIPHER_CTX_new()
        try:
            n = ctypes.c_int(0)
            if not lib.EVP_EncryptInit_ex(ctx, self._cipher("ecb", key), None, key, None):
                raise RuntimeError("OpenSSL ECB init failed")
            lib.EVP_CIPHER_CTX_set_padding(ctx, 0)
            out = ctypes.create_string_buffer(len(blocks) + 16)
            if not lib.EVP_EncryptUpdate(ctx, out, ctypes.byref(n), blocks, len(blocks)):
                raise RuntimeError("OpenSSL ECB failed")
            return out.raw[:len(blocks)]
        finally:
            lib.EVP_CIPHER_CTX_free(ctx)


# ---------------------------------------------------------------------------
# GF(2^128) as GCM defines it, to compute J0 independently of OpenSSL
# ---------------------------------------------------------------------------
# A block is an int read big-endian from its 16 bytes; the most significant
# bit of the int is the coefficient of x^0 (GCM's reflected bit order), so
# "multiply by x" is a right shift, reduced by R = 11100001 || 0^120.

_R = 0xE1 << 120


def gf_mul(x, y):
    z = 0
    v = y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ _R if v & 1 else v >> 1
    return z


def gf_pow(x, e):
    r = 1 << 127  # the field's 1 (x^0) in this bit order
    while e:
        if e & 1:
            r = gf_mul(r, x)
        x = gf_mul(x, x)
        e >>= 1
    return r


def gf_inv(x):
    return gf_pow(x, (1 << 128) - 2)


def _blocks(data):
    data = data + b"\0" * (-len(data) % 16)
    return [int.from_bytes(data[i:i + 16], "big") for i in range(0, len(data), 16)]


def ghash(h, data):
    y = 0
    for b in _blocks(data):
        y = gf_mul(y ^ b, h)
    return y


def j0_of(h, nonce):
    if len(nonce) == 12:
        return int.from_bytes(nonce + b"\0\0\0\1", "big")
    padded = nonce + b"\0" * (-len(nonce) % 16)
    return ghash(h, padded + (0).to_bytes(8, "big") + (8 * len(nonce)).to_bytes(8, "big"))


def solve_nonce(h, target, nonce_len, rest):
    """A nonce of nonce_len (>= 16) bytes whose J0 is `target`, with `rest`
    (nonce_len - 16 bytes) after the first block. GHASH is linear: with m
    padded nonce blocks and the length block L,
        J0 = X1*H^(m+1) + X2*H^m + ... + Xm*H^2 + L*H,
    so X1 = (target + the other terms) * H^-(m+1)."""
    assert nonce_len >= 16 and len(rest) == nonce_len - 16
    tail = j0_of(h, b"\0" * 16 + rest)  # every term but X1's
    m = (nonce_len + 15) // 16
    x1 = gf_mul(target ^ tail, gf_inv(gf_pow(h, m + 1)))
    nonce = x1.to_bytes(16, "big") + rest
    assert j0_of(h, nonce) == target
    return nonce


def ctr_blocks(j0, count):
    """inc32 applied 1..count times to j0, as SP 800-38D's GCTR does."""
    hi, lo = j0 >> 32, j0 & 0xffffffff
    return b"".join(((hi << 32) | ((lo + i) & 0xffffffff)).to_bytes(16, "big")
                    for i in range(1, count + 1))


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

class Rng:
    """A small deterministic generator (SplitMix64), so the output does not
    depend on the Python version's `random` internals."""

    def __init__(self, seed):
        self.s = seed & 0xffffffffffffffff

    def u64(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & 0xffffffffffffffff
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xffffffffffffffff
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xffffffffffffffff
        return z ^ (z >> 31)

    def below(self, n):
        return self.u64() % n  # bias is irrelevant here

    def bytes(self, n):
        out = bytearray()
        while len(out) < n:
            out += self.u64().to_bytes(8, "little")
        return bytes(out[:n])


KEY_SIZES = (16, 24, 32)


class Generator:
    def __init__(self, ossl, rng):
        self.ossl = ossl
        self.rng = rng
        self.cases = []
        self.valid_pool = []

    def add(self, id, key, nonce, aad, pt, tag_len=16, comment=None):
        ct, tag = self.ossl.seal(key, nonce, aad, pt, tag_len)
        assert self.ossl.open(key, nonce, aad, ct, tag) == pt
        c = gcmvec.Case(id, key, nonce, aad, pt, ct, tag, True, comment)
        self.cases.append(c)
        return c

    def random_case(self, id, key_len, nonce_len=12, aad_len=None, pt_len=None,
                    tag_len=16, comment=None):
        r = self.rng
        if aad_len is None:
            aad_len = r.below(21)
        if pt_len is None:
            pt_len = r.below(49)
        return self.add(id, r.bytes(key_len), r.bytes(nonce_len), r.bytes(aad_len),
                        r.bytes(pt_len), tag_len, comment)

    def lengths(self):
        for n in range(0, 258):
            self.random_case("ptlen=%d" % n, KEY_SIZES[n % 3], pt_len=n)
        for n in range(0, 258):
            self.random_case("aadlen=%d" % n, KEY_SIZES[n % 3], aad_len=n)
        for n in range(1, 65):
            for k in KEY_SIZES:
                c = self.random_case("noncelen=%d aes%d" % (n, 8 * k), k, nonce_len=n)
                if n in (1, 8, 13, 16, 17, 60, 64):
                    self.valid_pool.append(c)
        for n in range(1, 17):
            for k in KEY_SIZES:
                c = self.random_case("taglen=%d aes%d" % (n, 8 * k), k, tag_len=n)
                self.valid_pool.append(c)

    def long(self):
        r = self.rng
        plan = [(383, 0), (384, 13), (385, 16), (511, 1), (512, 128), (513, 255),
                (1023, 0), (1024, 20), (1025, 1000), (2055, 17), (4096, 0), (4097, 64)]
        for i, (pt_len, aad_len) in enumerate(plan):
            k = KEY_SIZES[i % 3]
            nonce_len = 12 if i % 4 else 16
            c = self.random_case("long ptlen=%d aadlen=%d" % (pt_len, aad_len), k,
                                 nonce_len=nonce_len, aad_len=aad_len, pt_len=pt_len)
            if pt_len < 600:
                self.valid_pool.append(c)

    def wrap(self):
        r = self.rng
        # (low 32 bits of J0, nonce length, plaintext length)
        plan = [(0xffffffff, 16, 16), (0xffffffff, 16, 64), (0xffffffff, 20, 1),
                (0xfffffffe, 16, 47), (0xfffffffe, 32, 48), (0xfffffffd, 64, 100),
                (0xfffffffc, 17, 129), (0xfffffffa, 16, 1024), (0xfffffff8, 48, 257),
                (0xfffffff0, 16, 300), (0xffffffe0, 16, 600), (0xfffffff9, 24, 4096)]
        for k in KEY_SIZES:
            for j, (low, nonce_len, pt_len) in enumerate(plan):
                key = r.bytes(k)
                h = int.from_bytes(self.ossl.ecb(key, b"\0" * 16), "big")
                # Upper 96 bits all ones for some cases: a counter that wrongly
                # carries out of the low 32 bits then changes every byte.
                if j % 4 == 0:
                    upper = (1 << 96) - 1
                else:
                    upper = int.from_bytes(r.bytes(12), "big")
                target = (upper << 32) | low
                nonce = solve_nonce(h, target, nonce_len, r.bytes(nonce_len - 16))
                aad = r.bytes(r.below(33) if j % 2 else 0)
                pt = r.bytes(pt_len)
                c = self.add("wrap j0=...%08x aes%d noncelen=%d ptlen=%d"
                             % (low, 8 * k, nonce_len, pt_len),
                             key, nonce, aad, pt)
                # Cross-check: CT = PT xor E(inc32^i(J0)) with our own J0.
                stream = self.ossl.ecb(key, ctr_blocks(target, (pt_len + 15) // 16))
                assert bytes(a ^ b for a, b in zip(pt, stream)) == c.ct, c.id
                # ... and the counter really wraps inside the message.
                assert (0xffffffff - low) < (pt_len + 15) // 16, c.id
                if j < 4:
                    self.valid_pool.append(c)

    def invalid(self):
        r = self.rng
        out = []

        def flip(data, bit):
            b = bytearray(data)
            b[bit // 8] ^= 0x80 >> (bit % 8)
            return bytes(b)

        def bad(id, c, nonce=None, aad=None, ct=None, tag=None, pt=True):
            out.append(gcmvec.Case(
                id, c.key, c.nonce if nonce is None else nonce,
                c.aad if aad is None else aad, c.pt if pt else None,
                c.ct if ct is None else ct, c.tag if tag is None else tag, False))

        for c in self.valid_pool:
            bit = r.below(8 * len(c.tag))
            bad("flip-tag bit=%d of (%s)" % (bit, c.id), c, tag=flip(c.tag, bit))
            if c.ct:
                bit = r.below(8 * len(c.ct))
                # The plaintext no longer matches: leave PT out.
                bad("flip-ct bit=%d of (%s)" % (bit, c.id), c, ct=flip(c.ct, bit), pt=False)
            if c.aad:
                bit = r.below(8 * len(c.aad))
                bad("flip-aad bit=%d of (%s)" % (bit, c.id), c, aad=flip(c.aad, bit))
            bit = r.below(8 * len(c.nonce))
            bad("flip-nonce bit=%d of (%s)" % (bit, c.id), c, nonce=flip(c.nonce, bit), pt=False)
        # Argument errors: an empty nonce (seal and open must refuse it) and
        # an empty tag (open must never accept "no tag").
        for k in KEY_SIZES:
            c = self.random_case("bad-nonce-base aes%d" % (8 * k), k)
            bad("bad-nonce empty nonce aes%d" % (8 * k), c, nonce=b"")
            bad("bad-tag empty tag aes%d" % (8 * k), c, tag=b"")
        for c in out:
            if c.nonce and c.tag:
                assert self.ossl.open(c.key, c.nonce, c.aad, c.ct, c.tag) is None, c.id
        self.cases.extend(out)


def generate(path):
    ossl = OpenSSL()
    g = Generator(ossl, Rng(SEED))
    g.lengths()
    g.long()
    g.wrap()
    g.invalid()
    header = ["generated by vectors/generate_openssl.py with OpenSSL libcrypto (seed %#x);"
              % SEED,
              "do not edit: rerun the script. Groups are explained in its docstring."]
    gcmvec.write_file(path, g.cases, header)
    print("%s: %d cases" % (os.path.basename(path), len(g.cases)))


def check(paths):
    """Re-checks project-format files against OpenSSL: valid cases must seal
    to CT/TAG and open; invalid ones must not open (cases OpenSSL cannot
    express, such as an empty or a 257-byte nonce, are counted but not run)."""
    ossl = OpenSSL()
    bad = 0
    for path in paths:
        n = skipped = 0
        for c in gcmvec.read_file(path):
            n += 1
            # OpenSSL 3 refuses empty nonces and nonces over 128 bytes.
            if not c.nonce or len(c.nonce) > 128 or not c.tag or len(c.tag) > 16:
                skipped += 1
                continue
            got = ossl.open(c.key, c.nonce, c.aad, c.ct, c.tag)
            if c.valid:
                ok = got == c.pt and ossl.seal(c.key, c.nonce, c.aad, c.pt,
                                               len(c.tag)) == (c.ct, c.tag)
            else:
                ok = got is None
            if not ok:
                bad += 1
                print("%s: MISMATCH %s" % (path, c.id))
        print("%s: %d cases checked, %d not expressible in OpenSSL"
              % (os.path.basename(path), n - skipped, skipped))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2:]))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "openssl_generated.txt")
    generate(out)
