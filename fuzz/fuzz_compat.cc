// fuzz/fuzz_compat.cc: the BoringSSL-compatible EVP_AEAD calls against the
// native API.
//
// Every compat call is checked against what gcm_seal / gcm_open (with a
// native key made from the same key bytes) give for the same message:
// return value, output bytes, reported lengths, and on failure that every
// output the call was handed is zero. The TLS 1.2 / 1.3 AEADs are checked
// against a model of their documented nonce rules, plus the rule itself:
// a seal only succeeds with a sequence number larger than every one sealed
// before on that context.
//
// Input:
//   u8  AEAD: value % 7 -> aes-128/192/256-gcm, aes-128/256-gcm-tls12,
//       aes-128/256-gcm-tls13
//   u8  tag length at init: value % 17 (0: EVP_AEAD_DEFAULT_TAG_LENGTH)
//   key bytes (the AEAD's key length)
//   u8  operation: value % 4 -> 0 seal/open, 1 seal_scatter/open_gather,
//       2 sealv/openv/openv_detached, 3 TLS nonce sequence
//   u8  flags: bit 0 in place, bit 1 corrupt the sealed message before
//       opening, bit 2 (seal/open) an output buffer one byte too small
//   u8  nonce length: (value + 12) % 129, so 0 gives 12 (0..128 bytes)
//   nonce bytes
//   u16 AAD length, AAD bytes
//   chunk list for the AAD pieces, chunk list for the data pieces (the
//       first data chunk is the in/extra_in split for seal_scatter)
//   u16 corruption position, u8 corruption xor
//   operation 3 only: u8 record count (% 17), then per record a step:
//       u8 s; s < 0x80: previous + (s % 8) - 2; s < 0xc0: previous + u16;
//       s < 0xf0: a u64; else 2^64 - 1 - (s & 15)
//   rest: the plaintext
#include <openssl/aead.h>

#include "fuzz_util.h"

using namespace gcmfuzz;

namespace {

enum Rule { kAny, kTls12, kTls13 };

struct AeadChoice {
  const EVP_AEAD *(*get)(void);
  Rule rule = kAny;
  const char *name;
};

const AeadChoice kAeads[7] = {
    {EVP_aead_aes_128_gcm, kAny, "aes-128-gcm"},
    {EVP_aead_aes_192_gcm, kAny, "aes-192-gcm"},
    {EVP_aead_aes_256_gcm, kAny, "aes-256-gcm"},
    {EVP_aead_aes_128_gcm_tls12, kTls12, "aes-128-gcm-tls12"},
    {EVP_aead_aes_256_gcm_tls12, kTls12, "aes-256-gcm-tls12"},
    {EVP_aead_aes_128_gcm_tls13, kTls13, "aes-128-gcm-tls13"},
    {EVP_aead_aes_256_gcm_tls13, kTls13, "aes-256-gcm-tls13"},
};

uint64_t LoadBE64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
  return v;
}

void StoreBE64(uint8_t *p, uint64_t v) {
  for (int i = 7; i >= 0; i--) {
    p[i] = static_cast<uint8_t>(v);
    v >>= 8;
  }
}

// The nonce rules as aead.h documents them: the outcome a seal's nonce
// check must have, and the state it leaves.
struct NonceModel {
  Rule rule = kAny;
  bool started = false;
  uint64_t mask = 0, next = 0;
  // Sequence numbers (TLS 1.3) or counters (TLS 1.2) sealed so far.
  std::vector<uint64_t> accepted;

  gcm_error Check(const Bytes &nonce) {
    if (rule == kAny) return GCM_OK;
    if (nonce.size() != 12) return GCM_ERR_NONCE_LENGTH;
    uint64_t v = LoadBE64(nonce.data() + 4);
    if (rule == kTls13) {
      if (!started) {
        started = true;
        mask = v;
        next = 1;
        accepted.push_back(0);
        return GCM_OK;
      }
      v ^= mask;
    }
    if (v == UINT64_MAX || v < next) return GCM_ERR_NONCE_ORDER;
    next = v + 1;
    accepted.push_back(v);
    return GCM_OK;
  }
};

// One piece of a vectored call, each in its own heap blocks.
struct Piece {
  Bytes in, out;
  bool in_place;
  uint8_t *out_ptr() { return in_place ? in.data() : out.data(); }
  const Bytes &result() const { return in_place ? in : out; }
};

std::vector<Piece> MakePieces(const Bytes &data, const Chunks &chunks,
                              bool in_place, uint8_t fill) {
  std::vector<Piece> pieces;
  size_t off = 0;
  for (size_t len : Split(chunks, data.size())) {
    Piece p;
    p.in.assign(data.begin() + off, data.begin() + off + len);
    p.out.assign(in_place ? 0 : len, fill);
    p.in_place = in_place;
    pieces.push_back(std::move(p));
    off += len;
  }
  return pieces;
}

std::vector<CRYPTO_IOVEC> IoVecs(std::vector<Piece> &pieces) {
  std::vector<CRYPTO_IOVEC> v;
  for (Piece &p : pieces) v.push_back({p.out_ptr(), p.in.data(), p.in.size()});
  return v;
}

std::vector<CRYPTO_IVEC> IVecs(const std::vector<Bytes> &pieces) {
  std::vector<CRYPTO_IVEC> v;
  for (const Bytes &p : pieces) v.push_back({p.data(), p.size()});
  return v;
}

Bytes Concat(const std::vector<Piece> &pieces) {
  Bytes all;
  for (const Piece &p : pieces)
    all.insert(all.end(), p.result().begin(), p.result().end());
  return all;
}

Bytes Cat(const Bytes &a, const Bytes &b) {
  Bytes r = a;
  r.insert(r.end(), b.begin(), b.end());
  return r;
}

struct Case {
  const AeadChoice *aead;
  size_t tag_len;
  Bytes key, nonce, aad, pt;
  uint8_t op, flags;
  Chunks aad_chunks, data_chunks;
  uint16_t corrupt_pos;
  uint8_t corrupt_xor;
};

void Dump(const Case &c) {
  std::fprintf(stderr, "  %s, tag_len %zu, op %u, flags %02x\n", c.aead->name,
               c.tag_len, c.op, c.flags);
  DumpHex("key", c.key);
  DumpHex("nonce", c.nonce);
  DumpHex("aad", c.aad);
  DumpHex("plaintext", c.pt);
}

// What the native API makes of the message.
struct Native {
  bool sealed;
  Bytes ct, tag;  // the seal (ct = pt, tag = 0 when it failed)
  Bytes sealed_msg;  // ct || tag, corrupted if asked: what the opens get
  bool opens;     // gcm_open's verdict on sealed_msg
};

Native RunNative(const gcm_key &key, const Case &c) {
  Native r;
  r.ct.assign(c.pt.size(), 0);
  r.tag.assign(c.tag_len, 0);
  r.sealed = gcm_seal(&key, r.ct.data(), r.tag.data(), r.tag.size(),
                      c.nonce.data(), c.nonce.size(), c.pt.data(), c.pt.size(),
                      c.aad.data(), c.aad.size()) == 1;
  if (!r.sealed) {
    r.ct = c.pt;
    r.tag.assign(c.tag_len, 0);
  }
  r.sealed_msg = Cat(r.ct, r.tag);
  if ((c.flags & 2) && !r.sealed_msg.empty()) {
    r.sealed_msg[c.corrupt_pos % r.sealed_msg.size()] ^= c.corrupt_xor;
  }
  Bytes ct(r.sealed_msg.begin(), r.sealed_msg.begin() + c.pt.size());
  Bytes tag(r.sealed_msg.begin() + c.pt.size(), r.sealed_msg.end());
  Bytes out(c.pt.size());
  r.opens = gcm_open(&key, out.data(), c.nonce.data(), c.nonce.size(),
                     ct.data(), ct.size(), tag.data(), tag.size(),
                     c.aad.data(), c.aad.size()) == 1;
  if (r.opens && r.sealed) {
    // Opening a (possibly corrupted) message that still authenticates
    // releases whatever it decrypts to; only an untouched one gives pt.
    FUZZ_CHECK(out == c.pt || r.sealed_msg != Cat(r.ct, r.tag), Dump(c),
               "native open of the native seal lost the plaintext");
  }
  return r;
}

// The plaintext the native open releases for sealed_msg (when it opens).
Bytes NativePlain(const gcm_key &key, const Case &c, const Native &r) {
  Bytes ct(r.sealed_msg.begin(), r.sealed_msg.begin() + c.pt.size());
  Bytes tag(r.sealed_msg.begin() + c.pt.size(), r.sealed_msg.end());
  Bytes out(c.pt.size());
  gcm_open(&key, out.data(), c.nonce.data(), c.nonce.size(), ct.data(),
           ct.size(), tag.data(), tag.size(), c.aad.data(), c.aad.size());
  return out;
}

// Expected error of a seal, given the nonce model's verdict.
gcm_error SealError(gcm_error nonce_err, const Case &c, bool short_out) {
  if (nonce_err != GCM_OK) return nonce_err;
  if (short_out) return GCM_ERR_OUTPUT_TOO_SMALL;
  if (c.nonce.empty()) return GCM_ERR_NONCE_LENGTH;
  return GCM_OK;
}

void OpSealOpen(EVP_AEAD_CTX *ctx, const gcm_key &key, const Case &c,
                NonceModel &model) {
  const bool in_place = c.flags & 1, short_out = c.flags & 4;
  const size_t n = c.pt.size();
  const Native nat = RunNative(key, c);
  const gcm_error want = SealError(model.Check(c.nonce), c, short_out);

  const size_t max_out = n + c.tag_len - (short_out ? 1 : 0);
  Bytes out(max_out, 0xa5);
  size_t out_len = 12345;
  int ok;
  if (in_place) {
    std::copy(c.pt.begin(), c.pt.end(), out.begin());
    ok = EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, max_out, c.nonce.data(),
                           c.nonce.size(), out.data(), n, c.aad.data(),
                           c.aad.size());
  } else {
    ok = EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, max_out, c.nonce.data(),
                           c.nonce.size(), c.pt.data(), n, c.aad.data(),
                           c.aad.size());
  }
  FUZZ_CHECK(ok == (want == GCM_OK), Dump(c),
             "EVP_AEAD_CTX_seal returned %d, expected error %d", ok, want);
  if (ok) {
    FUZZ_CHECK(nat.sealed && out_len == n + c.tag_len &&
                   out == Cat(nat.ct, nat.tag),
               (Dump(c), DumpHex("out", out), DumpHex("native ct", nat.ct),
                DumpHex("native tag", nat.tag)),
               "EVP_AEAD_CTX_seal differs from gcm_seal");
  } else {
    FUZZ_CHECK(gcm_last_error() == want && out_len == 0 && AllZero(out),
               (Dump(c), DumpHex("out", out)),
               "failed EVP_AEAD_CTX_seal: error %d (want %d), out_len %zu",
               gcm_last_error(), want, out_len);
  }

  // Open the native seal (corrupted if asked) and compare with gcm_open.
  const Bytes &msg = nat.sealed_msg;
  Bytes plain(in_place ? msg.size() : n, 0xa5);
  out_len = 12345;
  if (in_place) {
    plain = msg;
    ok = EVP_AEAD_CTX_open(ctx, plain.data(), &out_len, plain.size(),
                           c.nonce.data(), c.nonce.size(), plain.data(),
                           msg.size(), c.aad.data(), c.aad.size());
  } else {
    ok = EVP_AEAD_CTX_open(ctx, plain.data(), &out_len, plain.size(),
                           c.nonce.data(), c.nonce.size(), msg.data(),
                           msg.size(), c.aad.data(), c.aad.size());
  }
  FUZZ_CHECK(ok == nat.opens, (Dump(c), DumpHex("sealed", msg)),
             "EVP_AEAD_CTX_open returned %d, gcm_open %d", ok, nat.opens);
  if (ok) {
    FUZZ_CHECK(out_len == n && Equal(plain.data(),
                                     NativePlain(key, c, nat).data(), n),
               (Dump(c), DumpHex("opened", plain)),
               "EVP_AEAD_CTX_open released the wrong plaintext");
  } else {
    FUZZ_CHECK(out_len == 0 && AllZero(plain),
               (Dump(c), DumpHex("opened", plain)),
               "failed EVP_AEAD_CTX_open left output behind");
  }
}

void OpScatterGather(EVP_AEAD_CTX *ctx, const gcm_key &key, const Case &c,
                     NonceModel &model) {
  const bool in_place = c.flags & 1;
  const size_t n = c.pt.size();
  size_t in_len = c.data_chunks.empty() ? n : c.data_chunks[0];
  if (in_len > n) in_len = n;
  const size_t extra_len = n - in_len;
  const Native nat = RunNative(key, c);
  const gcm_error want = SealError(model.Check(c.nonce), c, false);

  size_t want_tag_len = 0;
  FUZZ_CHECK(EVP_AEAD_CTX_tag_len(ctx, &want_tag_len, in_len, extra_len) == 1 &&
                 want_tag_len == extra_len + c.tag_len,
             Dump(c), "EVP_AEAD_CTX_tag_len gave %zu", want_tag_len);

  Bytes in(c.pt.begin(), c.pt.begin() + in_len);
  Bytes extra(c.pt.begin() + in_len, c.pt.end());
  Bytes out(in_place ? 0 : in_len, 0xa5);
  Bytes out_tag(extra_len + c.tag_len, 0xa5);
  if (in_place) std::copy(extra.begin(), extra.end(), out_tag.begin());
  size_t out_tag_len = 12345;
  int ok = EVP_AEAD_CTX_seal_scatter(
      ctx, in_place ? in.data() : out.data(), out_tag.data(), &out_tag_len,
      out_tag.size(), c.nonce.data(), c.nonce.size(), in.data(), in_len,
      in_place ? out_tag.data() : extra.data(), extra_len, c.aad.data(),
      c.aad.size());
  const Bytes &got = in_place ? in : out;
  FUZZ_CHECK(ok == (want == GCM_OK), Dump(c),
             "EVP_AEAD_CTX_seal_scatter returned %d, expected error %d", ok,
             want);
  if (ok) {
    FUZZ_CHECK(nat.sealed && out_tag_len == extra_len + c.tag_len &&
                   Cat(got, out_tag) == Cat(nat.ct, nat.tag),
               (Dump(c), DumpHex("out", got), DumpHex("out_tag", out_tag),
                DumpHex("native ct", nat.ct), DumpHex("native tag", nat.tag)),
               "EVP_AEAD_CTX_seal_scatter differs from gcm_seal (in_len %zu)",
               in_len);
  } else {
    FUZZ_CHECK(gcm_last_error() == want && out_tag_len == 0 && AllZero(got) &&
                   AllZero(out_tag),
               (Dump(c), DumpHex("out", got), DumpHex("out_tag", out_tag)),
               "failed EVP_AEAD_CTX_seal_scatter left output behind");
  }

  // open_gather on the native seal, corrupted if asked.
  Bytes ct(nat.sealed_msg.begin(), nat.sealed_msg.begin() + n);
  Bytes tag(nat.sealed_msg.begin() + n, nat.sealed_msg.end());
  Bytes plain(in_place ? 0 : n, 0xa5);
  uint8_t *dst = in_place ? ct.data() : plain.data();
  ok = EVP_AEAD_CTX_open_gather(ctx, dst, c.nonce.data(), c.nonce.size(),
                                ct.data(), n, tag.data(), tag.size(),
                                c.aad.data(), c.aad.size());
  const Bytes &opened = in_place ? ct : plain;
  FUZZ_CHECK(ok == nat.opens, Dump(c),
             "EVP_AEAD_CTX_open_gather returned %d, gcm_open %d", ok,
             nat.opens);
  FUZZ_CHECK(ok ? opened == NativePlain(key, c, nat) : AllZero(opened),
             (Dump(c), DumpHex("opened", opened)),
             "EVP_AEAD_CTX_open_gather output wrong (ok=%d)", ok);
}

void OpVectored(EVP_AEAD_CTX *ctx, const gcm_key &key, const Case &c,
                NonceModel &model) {
  const bool in_place = c.flags & 1;
  const size_t n = c.pt.size();
  const Native nat = RunNative(key, c);
  const gcm_error want = SealError(model.Check(c.nonce), c, false);

  std::vector<Bytes> aad_pieces;
  size_t off = 0;
  for (size_t len : Split(c.aad_chunks, c.aad.size())) {
    aad_pieces.emplace_back(c.aad.begin() + off, c.aad.begin() + off + len);
    off += len;
  }
  const std::vector<CRYPTO_IVEC> aadv = IVecs(aad_pieces);

  // sealv
  std::vector<Piece> pieces = MakePieces(c.pt, c.data_chunks, in_place, 0xa5);
  std::vector<CRYPTO_IOVEC> iov = IoVecs(pieces);
  Bytes out_tag(c.tag_len, 0xa5);
  size_t out_tag_len = 12345;
  int ok = EVP_AEAD_CTX_sealv(ctx, iov.data(), iov.size(), out_tag.data(),
                              &out_tag_len, out_tag.size(), c.nonce.data(),
                              c.nonce.size(), aadv.data(), aadv.size());
  FUZZ_CHECK(ok == (want == GCM_OK), Dump(c),
             "EVP_AEAD_CTX_sealv returned %d, expected error %d", ok, want);
  const Bytes sealed = Concat(pieces);
  if (ok) {
    FUZZ_CHECK(nat.sealed && out_tag_len == c.tag_len && sealed == nat.ct &&
                   out_tag == nat.tag,
               (Dump(c), DumpHex("sealv ct", sealed), DumpHex("tag", out_tag),
                DumpHex("native ct", nat.ct), DumpHex("native tag", nat.tag)),
               "EVP_AEAD_CTX_sealv differs from gcm_seal (%zu pieces)",
               pieces.size());
  } else {
    FUZZ_CHECK(gcm_last_error() == want && out_tag_len == 0 &&
                   AllZero(sealed) && AllZero(out_tag),
               (Dump(c), DumpHex("sealv ct", sealed)),
               "failed EVP_AEAD_CTX_sealv left output behind");
  }

  const Bytes want_plain = nat.opens ? NativePlain(key, c, nat) : Bytes();

  // openv: ciphertext and tag together, split anywhere.
  {
    std::vector<Piece> op =
        MakePieces(nat.sealed_msg, c.data_chunks, in_place, 0xa5);
    std::vector<CRYPTO_IOVEC> v = IoVecs(op);
    size_t total = 12345;
    ok = EVP_AEAD_CTX_openv(ctx, v.data(), v.size(), &total, c.nonce.data(),
                            c.nonce.size(), aadv.data(), aadv.size());
    const Bytes got = Concat(op);
    FUZZ_CHECK(ok == nat.opens, Dump(c),
               "EVP_AEAD_CTX_openv returned %d, gcm_open %d", ok, nat.opens);
    if (ok) {
      // Plaintext where the ciphertext was; the tag's positions untouched.
      Bytes tail(got.begin() + n, got.end());
      Bytes want_tail = in_place
                            ? Bytes(nat.sealed_msg.begin() + n,
                                    nat.sealed_msg.end())
                            : Bytes(got.size() - n, 0xa5);
      FUZZ_CHECK(total == n && Equal(got.data(), want_plain.data(), n) &&
                     tail == want_tail,
                 (Dump(c), DumpHex("openv out", got)),
                 "EVP_AEAD_CTX_openv output wrong (%zu pieces)", op.size());
    } else {
      FUZZ_CHECK(total == 0 && AllZero(got), (Dump(c), DumpHex("out", got)),
                 "failed EVP_AEAD_CTX_openv left output behind");
    }
  }

  // openv_detached: ciphertext pieces, tag apart.
  {
    Bytes ct(nat.sealed_msg.begin(), nat.sealed_msg.begin() + n);
    Bytes tag(nat.sealed_msg.begin() + n, nat.sealed_msg.end());
    std::vector<Piece> op = MakePieces(ct, c.data_chunks, in_place, 0xa5);
    std::vector<CRYPTO_IOVEC> v = IoVecs(op);
    ok = EVP_AEAD_CTX_openv_detached(ctx, v.data(), v.size(), c.nonce.data(),
                                     c.nonce.size(), tag.data(), tag.size(),
                                     aadv.data(), aadv.size());
    const Bytes got = Concat(op);
    FUZZ_CHECK(ok == nat.opens, Dump(c),
               "EVP_AEAD_CTX_openv_detached returned %d, gcm_open %d", ok,
               nat.opens);
    FUZZ_CHECK(ok ? got == want_plain : AllZero(got),
               (Dump(c), DumpHex("out", got)),
               "EVP_AEAD_CTX_openv_detached output wrong (ok=%d)", ok);
  }
}

void OpTlsSequence(EVP_AEAD_CTX *ctx, const gcm_key &key, Case c,
                   NonceModel &model, Input &in) {
  Bytes base = c.nonce;
  base.resize(12, 0);
  const size_t records = in.U8() % 17;
  std::vector<uint8_t> steps;
  std::vector<uint64_t> args;
  for (size_t i = 0; i < records; i++) {
    uint8_t s = in.U8();
    steps.push_back(s);
    args.push_back(s < 0x80 ? 0 : s < 0xc0 ? in.U16() : s < 0xf0 ? in.U64() : 0);
  }
  c.pt = in.Rest();
  const size_t n = c.pt.size();

  uint64_t prev = 0;  // the previous value chosen: counter or sequence number
  for (size_t i = 0; i < records; i++) {
    const uint8_t s = steps[i];
    uint64_t v = s < 0x80   ? prev + (s % 8) - 2
                 : s < 0xc0 ? prev + args[i]
                 : s < 0xf0 ? args[i]
                            : UINT64_MAX - (s & 15);
    const bool first13 = c.aead->rule == kTls13 && !model.started;
    prev = first13 ? 0 : v;
    c.nonce = base;
    for (int j = 0; j < 4; j++) c.nonce[j] ^= static_cast<uint8_t>(i);  // salt
    StoreBE64(c.nonce.data() + 4,
              c.aead->rule == kTls13 && !first13 ? v ^ model.mask : v);

    const size_t accepted_before = model.accepted.size();
    const uint64_t last = accepted_before ? model.accepted.back() : 0;
    const gcm_error want = SealError(model.Check(c.nonce), c, false);
    Bytes out(n + c.tag_len, 0xa5);
    size_t out_len = 12345;
    int ok = EVP_AEAD_CTX_seal(ctx, out.data(), &out_len, out.size(),
                               c.nonce.data(), 12, c.pt.data(), n,
                               c.aad.data(), c.aad.size());
    FUZZ_CHECK(ok == (want == GCM_OK),
               (Dump(c), std::fprintf(stderr, "  record %zu\n", i)),
               "TLS seal returned %d, model expected error %d", ok, want);
    if (c.aead->rule != kAny && ok && accepted_before > 0) {
      // The rule itself, independent of the model's bookkeeping.
      FUZZ_CHECK(model.accepted.back() > last, Dump(c),
                 "TLS seal accepted a sequence number that did not increase");
    }
    if (!ok) {
      FUZZ_CHECK(gcm_last_error() == want && out_len == 0 && AllZero(out),
                 Dump(c), "failed TLS seal: error %d, want %d",
                 gcm_last_error(), want);
      continue;
    }
    Bytes ct(n), tag(c.tag_len);
    FUZZ_CHECK(gcm_seal(&key, ct.data(), tag.data(), tag.size(),
                        c.nonce.data(), 12, c.pt.data(), n, c.aad.data(),
                        c.aad.size()) == 1 &&
                   out == Cat(ct, tag) && out_len == out.size(),
               (Dump(c), DumpHex("out", out)),
               "TLS seal differs from gcm_seal (record %zu)", i);
    // Opening is never restricted by the nonce rules.
    Bytes plain(n, 0xa5);
    ok = EVP_AEAD_CTX_open(ctx, plain.data(), &out_len, plain.size(),
                           c.nonce.data(), 12, out.data(), out.size(),
                           c.aad.data(), c.aad.size());
    FUZZ_CHECK(ok == 1 && out_len == n && plain == c.pt, Dump(c),
               "TLS open of record %zu failed", i);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in(data, size);
  Case c;
  c.aead = &kAeads[in.U8() % 7];
  const EVP_AEAD *aead = c.aead->get();
  const size_t init_tag_len = in.U8() % 17;
  c.tag_len = init_tag_len == 0 ? 16 : init_tag_len;
  c.key = in.Take(EVP_AEAD_key_length(aead));
  c.key.resize(EVP_AEAD_key_length(aead), 0);
  c.op = in.U8() % 4;
  c.flags = in.U8();
  c.nonce = in.Take((in.U8() + 12) % 129);
  c.aad = in.Take(in.U16());
  c.aad_chunks = ReadChunks(in);
  c.data_chunks = ReadChunks(in);
  c.corrupt_pos = in.U16();
  c.corrupt_xor = in.U8();

  EVP_AEAD_CTX ctx;
  FUZZ_CHECK(EVP_AEAD_CTX_init(&ctx, aead, c.key.data(), c.key.size(),
                               init_tag_len, nullptr) == 1,
             Dump(c), "EVP_AEAD_CTX_init failed");
  gcm_key key;
  FUZZ_CHECK(gcm_key_init(&key, c.key.data(), c.key.size()) == 1, Dump(c),
             "gcm_key_init failed");
  NonceModel model;
  model.rule = c.aead->rule;

  if (c.op == 3) {
    OpTlsSequence(&ctx, key, c, model, in);
  } else {
    c.pt = in.Rest();
    if (c.op == 0) OpSealOpen(&ctx, key, c, model);
    if (c.op == 1) OpScatterGather(&ctx, key, c, model);
    if (c.op == 2) OpVectored(&ctx, key, c, model);
  }
  EVP_AEAD_CTX_cleanup(&ctx);
  gcm_key_cleanup(&key);
  return 0;
}
