// fuzz/fuzz_siv.cc: AES-GCM-SIV (gcm_siv_*) on every backend pair, alone
// and with each fused kernel that has AES-GCM-SIV functions, against the
// portable pair.
//
// Input:
//   u8  flags: bit 0 the key size (0: 16 bytes, 1: 32), bit 7 in place
//       (out == in) for every seal and open
//   key bytes (16 or 32), nonce (12 bytes)
//   u16 AAD length (little-endian; cut short when the input ends), AAD
//   u16 which bit to flip for the tampering check (modulo the bits of
//       tag, ciphertext and AAD together)
//   the plaintext: the rest of the input
//
// The reference is the portable pair (AES "ct" with the GHASH backend the
// dispatcher lists first among "ct64" and "ct32"), which shares no
// assembly with the others. Every usable choice must seal the message to the
// reference's ciphertext and tag, open its own output to the plaintext,
// and refuse the output with one bit flipped (in the tag, the ciphertext
// or the AAD) with GCM_ERR_AUTH and an all-zero output.
#include "fuzz_util.h"

using namespace gcmfuzz;

namespace {

struct SivMessage {
  bool in_place = false;
  Bytes key, nonce, aad, pt;
  size_t flip = 0;
};

SivMessage ReadSivMessage(Input &in) {
  SivMessage m;
  const uint8_t flags = in.U8();
  m.in_place = (flags & 0x80) != 0;
  m.key = in.Take((flags & 1) ? 32 : 16);
  m.key.resize((flags & 1) ? 32 : 16, 0);
  m.nonce = in.Take(12);
  m.nonce.resize(12, 0);
  m.aad = in.Take(in.U16());
  m.flip = in.U16();
  m.pt = in.Rest();
  return m;
}

// The portable pair: "ct" and the first of the C GHASH backends in the
// library's order (ct64 on 64-bit machines, ct32 on 32-bit ones).
const Pair &PortablePair() {
  static const Pair portable = [] {
    for (const Pair &p : UsablePairs())
      if (p.aes == "ct" && (p.ghash == "ct64" || p.ghash == "ct32")) return p;
    std::fprintf(stderr, "fuzz_siv: the portable pair is not usable\n");
    std::abort();
  }();
  return portable;
}

// Every usable pair with no fused kernel, and with each usable fused
// kernel that an AES-GCM-SIV key on the pair takes (test/test_util.h).
const std::vector<gcmtest::Triple> &SivChoices() {
  static const std::vector<gcmtest::Triple> choices =
      gcmtest::UsableSivTriples();
  return choices;
}

void DumpSiv(const SivMessage &m) {
  DumpHex("key", m.key);
  DumpHex("nonce", m.nonce);
  DumpHex("aad", m.aad);
  DumpHex("plaintext", m.pt);
  std::fprintf(stderr, "  in place: %d, flip: %zu\n", m.in_place, m.flip);
}

int Seal(const gcm_siv_key *k, const SivMessage &m, Bytes *ct, uint8_t tag[16]) {
  *ct = m.in_place ? m.pt : Bytes(m.pt.size(), 0x33);
  const uint8_t *src = m.in_place ? ct->data() : m.pt.data();
  return gcm_siv_seal(k, ct->data(), tag, 16, m.nonce.data(), 12, src,
                      m.pt.size(), m.aad.data(), m.aad.size());
}

int Open(const gcm_siv_key *k, const SivMessage &m, const Bytes &aad,
         const Bytes &ct, const uint8_t tag[16], Bytes *out) {
  *out = m.in_place ? ct : Bytes(ct.size(), 0x44);
  const uint8_t *src = m.in_place ? out->data() : ct.data();
  return gcm_siv_open(k, out->data(), m.nonce.data(), 12, src, ct.size(), tag,
                      16, aad.data(), aad.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in(data, size);
  const SivMessage m = ReadSivMessage(in);

  // The reference.
  const Pair &ref = PortablePair();
  gcm_siv_key rk;
  FUZZ_CHECK(gcm_siv_key_init_with_fused(&rk, m.key.data(), m.key.size(),
                                         ref.aes.c_str(), ref.ghash.c_str(),
                                         "none") == 1,
             DumpSiv(m), "key init failed for the portable pair");
  Bytes ref_ct;
  uint8_t ref_tag[16];
  FUZZ_CHECK(Seal(&rk, m, &ref_ct, ref_tag) == 1, DumpSiv(m),
             "the portable pair failed to seal");
  gcm_siv_key_cleanup(&rk);

  for (const gcmtest::Triple &p : SivChoices()) {
    gcm_siv_key k;
    FUZZ_CHECK(gcm_siv_key_init_with_fused(&k, m.key.data(), m.key.size(),
                                           p.aes.c_str(), p.ghash.c_str(),
                                           p.fused.c_str()) == 1,
               DumpSiv(m), "key init failed for usable choice %s/%s/%s",
               p.aes.c_str(), p.ghash.c_str(), p.fused.c_str());
    Bytes ct;
    uint8_t tag[16];
    FUZZ_CHECK(Seal(&k, m, &ct, tag) == 1, DumpSiv(m),
               "%s/%s/%s failed to seal", p.aes.c_str(), p.ghash.c_str(),
               p.fused.c_str());
    FUZZ_CHECK(ct == ref_ct && Equal(tag, ref_tag, 16),
               (DumpSiv(m), DumpHex("ct", ct), DumpHex("ref ct", ref_ct),
                DumpHex("tag", tag, 16), DumpHex("ref tag", ref_tag, 16)),
               "%s/%s/%s and the portable pair %s/%s seal differently",
               p.aes.c_str(), p.ghash.c_str(), p.fused.c_str(),
               ref.aes.c_str(), ref.ghash.c_str());

    Bytes back;
    int ok = Open(&k, m, m.aad, ct, tag, &back);
    FUZZ_CHECK(ok == 1 && back == m.pt,
               (DumpSiv(m), DumpHex("ct", ct), DumpHex("opened", back)),
               "%s/%s/%s cannot open its own output (ok=%d)", p.aes.c_str(),
               p.ghash.c_str(), p.fused.c_str(), ok);

    // One flipped bit, in the tag, the ciphertext or the AAD.
    const size_t bits = 8 * (16 + ct.size() + m.aad.size());
    const size_t bit = m.flip % bits;
    uint8_t bad_tag[16];
    std::memcpy(bad_tag, tag, 16);
    Bytes bad_ct = ct, bad_aad = m.aad;
    if (bit < 128) {
      bad_tag[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    } else if (bit < 128 + 8 * ct.size()) {
      bad_ct[(bit - 128) / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    } else {
      const size_t b = bit - 128 - 8 * ct.size();
      bad_aad[b / 8] ^= static_cast<uint8_t>(1u << (b % 8));
    }
    ok = Open(&k, m, bad_aad, bad_ct, bad_tag, &back);
    FUZZ_CHECK(ok == 0 && gcm_last_error() == GCM_ERR_AUTH && AllZero(back),
               (DumpSiv(m), DumpHex("ct", ct), DumpHex("opened", back)),
               "%s/%s/%s: open of a message with bit %zu flipped gave ok=%d, "
               "error %s", p.aes.c_str(), p.ghash.c_str(), p.fused.c_str(),
               bit, ok,
               gcm_error_string(gcm_last_error()));
    gcm_siv_key_cleanup(&k);
  }
  return 0;
}
