// fuzz/fuzz_open.cc: gcm_open and the streaming open path on
// attacker-controlled ciphertext, tag and AAD.
//
// The key and nonce are fixed (four configurations, see kConfigs; the
// fourth makes the 32-bit counter wrap at the first data block). The
// attacker controls everything else. What must hold:
//   - no crash and no access outside the buffers (AddressSanitizer);
//   - gcm_open returns 1 exactly when the tag is the one a fresh seal
//     computes. The oracle needs no second implementation: CTR mode is its
//     own inverse, so sealing the ciphertext yields the plaintext P' that
//     open would release, and sealing P' yields the ciphertext back with
//     the right tag T. Open must succeed iff T's first tag_len bytes equal
//     the given tag, and then output P';
//   - on failure the output is all zero (in place too);
//   - tag lengths 0 and 17 are refused with GCM_ERR_TAG_LENGTH, output
//     zeroed;
//   - the streaming decryptor, fed in fuzzer-chosen chunks, releases P' and
//     gcm_stream_finish_open gives the same verdict as gcm_open.
//
// Input:
//   u8  config: bits 0-1 key/nonce configuration, bit 2 "seal first"
//       mode, bit 3 in place
//   u8  backend pair (index modulo the number of usable pairs)
//   u8  tag length: value % 18 (0 and 17 are invalid on purpose)
//   u16 AAD length, AAD bytes
//   chunk list (fuzz_util.h) for the streaming open: AAD then data
//   tag bytes (tag length of them; 16 for length 17, the 17th is 0)
//   u8  number of flips (% 8), then per flip: u8 target (0 ciphertext,
//       1 AAD, 2 tag), u16 position, u8 xor value
//   rest: the ciphertext; in "seal first" mode the plaintext, which is
//       sealed under the fixed key first, the tag bytes above being xored
//       into the real tag, so an all-zero mask with no flips is a
//       forgery-free message that must open.
#include "fuzz_util.h"

using namespace gcmfuzz;

namespace {

struct Config {
  Bytes key, nonce;
};

Bytes Hex(const char *s) {
  Bytes b;
  for (size_t i = 0; s[i] && s[i + 1]; i += 2) {
    b.push_back(static_cast<uint8_t>(std::strtoul(std::string(s + i, 2).c_str(),
                                                  nullptr, 16)));
  }
  return b;
}

const std::vector<Config> &Configs() {
  static const std::vector<Config> configs = {
      // AES-128, 12-byte nonce: the fast path.
      {Hex("000102030405060708090a0b0c0d0e0f"), Hex("cafebabefacedbaddecaf888")},
      // AES-192, 1-byte nonce: J0 through GHASH.
      {Hex("f0e1d2c3b4a5968778695a4b3c2d1e0f0011223344556677"),
       Hex("5a")},
      // AES-256, 60-byte nonce.
      {Hex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
       Hex("9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
           "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b")},
      // AES-128 with a 16-byte nonce whose J0 ends in ffffffff, so the
      // counter wraps to 0 at the first block (vectors/openssl_generated.txt,
      // "wrap j0=...ffffffff aes128 noncelen=16 ptlen=64").
      {Hex("2278701a4bb01e06f04d3bf607d28bc9"),
       Hex("7e3ef34afbad779cce0f27f9065c6aa1")},
  };
  return configs;
}

// Keys for every configuration and every usable pair, made once.
const gcm_key &KeyFor(size_t config, size_t pair) {
  static std::vector<gcm_key> *keys = [] {
    const auto &pairs = UsablePairs();
    auto *k = new std::vector<gcm_key>(Configs().size() * pairs.size());
    for (size_t c = 0; c < Configs().size(); c++) {
      for (size_t p = 0; p < pairs.size(); p++) {
        const Config &cfg = Configs()[c];
        if (!gcm_key_init_with_backends(&(*k)[c * pairs.size() + p],
                                        cfg.key.data(), cfg.key.size(),
                                        pairs[p].aes.c_str(),
                                        pairs[p].ghash.c_str())) {
          std::fprintf(stderr, "fuzz_open: key init failed: %s\n",
                       gcm_last_error_message());
          std::abort();
        }
      }
    }
    return k;
  }();
  return (*keys)[config * UsablePairs().size() + pair];
}

// gcm_seal that must succeed; for the oracle.
void Seal(const gcm_key &key, const Config &cfg, const Bytes &in,
          const Bytes &aad, Bytes *out, uint8_t tag[16]) {
  out->assign(in.size(), 0);
  if (!gcm_seal(&key, out->data(), tag, 16, cfg.nonce.data(), cfg.nonce.size(),
                in.data(), in.size(), aad.data(), aad.size())) {
    std::fprintf(stderr, "fuzz_open: oracle seal failed: %s\n",
                 gcm_last_error_message());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in(data, size);
  const uint8_t mode = in.U8();
  const size_t config = mode & 3;
  const bool seal_first = (mode & 4) != 0;
  const bool in_place = (mode & 8) != 0;
  const size_t pair = in.U8() % UsablePairs().size();
  const size_t tag_len = in.U8() % 18;
  Bytes aad = in.Take(in.U16());
  const Chunks chunks = ReadChunks(in);
  Bytes tag = in.Take(tag_len > 16 ? 16 : tag_len);
  tag.resize(tag_len, 0);
  struct Flip {
    uint8_t target;
    uint16_t pos;
    uint8_t x;
  };
  std::vector<Flip> flips(in.U8() % 8);
  for (Flip &f : flips) {
    f.target = in.U8() % 3;
    f.pos = in.U16();
    f.x = in.U8();
  }
  Bytes ct = in.Rest();

  const Config &cfg = Configs()[config];
  const gcm_key &key = KeyFor(config, pair);
  uint8_t full[16];

  if (seal_first) {
    const Bytes pt = ct;
    Seal(key, cfg, pt, aad, &ct, full);
    for (size_t i = 0; i < tag.size() && i < 16; i++) tag[i] ^= full[i];
  }
  for (const Flip &f : flips) {
    Bytes *t = f.target == 0 ? &ct : f.target == 1 ? &aad : &tag;
    if (!t->empty()) (*t)[f.pos % t->size()] ^= f.x;
  }

  // The oracle: P' = what open would release, T = the right full tag.
  Bytes expect_pt, reseal_ct;
  uint8_t right_tag[16];
  Seal(key, cfg, ct, aad, &expect_pt, full);
  Seal(key, cfg, expect_pt, aad, &reseal_ct, right_tag);
  FUZZ_CHECK(reseal_ct == ct, (DumpHex("ct", ct), DumpHex("reseal", reseal_ct)),
             "sealing twice does not give the ciphertext back");
  const bool valid_len = tag_len >= 1 && tag_len <= 16;
  const bool should_open = valid_len && Equal(right_tag, tag.data(), tag_len);

#define DUMP_ALL                                                         \
  (std::fprintf(stderr, "  config %zu, pair %s/%s, in place %d\n", config, \
                UsablePairs()[pair].aes.c_str(),                         \
                UsablePairs()[pair].ghash.c_str(), in_place),            \
   DumpHex("aad", aad), DumpHex("ct", ct), DumpHex("tag", tag),          \
   DumpHex("right tag", right_tag, 16))

  // One-shot open. The output starts as garbage so zeroing is visible.
  Bytes out(ct.size(), 0xa5);
  int ok;
  if (in_place) {
    out = ct;
    ok = gcm_open(&key, out.data(), cfg.nonce.data(), cfg.nonce.size(),
                  out.data(), out.size(), tag.data(), tag.size(), aad.data(),
                  aad.size());
  } else {
    ok = gcm_open(&key, out.data(), cfg.nonce.data(), cfg.nonce.size(),
                  ct.data(), ct.size(), tag.data(), tag.size(), aad.data(),
                  aad.size());
  }
  FUZZ_CHECK(ok == (should_open ? 1 : 0), DUMP_ALL,
             "gcm_open returned %d, expected %d", ok, should_open ? 1 : 0);
  if (ok) {
    FUZZ_CHECK(out == expect_pt, (DUMP_ALL, DumpHex("out", out)),
               "gcm_open released the wrong plaintext");
  } else {
    FUZZ_CHECK(AllZero(out), (DUMP_ALL, DumpHex("out", out)),
               "failed gcm_open left output behind");
    gcm_error want = valid_len ? GCM_ERR_AUTH : GCM_ERR_TAG_LENGTH;
    FUZZ_CHECK(gcm_last_error() == want, DUMP_ALL,
               "gcm_open failed with error %d, expected %d",
               static_cast<int>(gcm_last_error()), static_cast<int>(want));
  }

  // Streaming open, AAD and data in pieces. It releases plaintext as it
  // goes (the caller must discard it on failure); the verdict comes last.
  gcm_stream s;
  FUZZ_CHECK(gcm_stream_init(&s, &key, GCM_DECRYPT, cfg.nonce.data(),
                             cfg.nonce.size()) == 1,
             DUMP_ALL, "gcm_stream_init failed");
  bool fed = false;
  const Bytes stream_out =
      StreamData(&s, aad, chunks, ct, chunks, in_place, &fed);
  FUZZ_CHECK(fed, DUMP_ALL, "gcm_stream_aad or gcm_stream_update failed");
  FUZZ_CHECK(stream_out == expect_pt, (DUMP_ALL, DumpHex("stream", stream_out)),
             "streaming decryption differs from P'");
  ok = gcm_stream_finish_open(&s, tag.data(), tag.size());
  FUZZ_CHECK(ok == (should_open ? 1 : 0), DUMP_ALL,
             "gcm_stream_finish_open returned %d, expected %d", ok,
             should_open ? 1 : 0);
  // The stream is over either way.
  uint8_t dummy = 0;
  FUZZ_CHECK(gcm_stream_update(&s, &dummy, &dummy, 1) == 0 &&
                 gcm_last_error() == GCM_ERR_STATE,
             DUMP_ALL, "stream still usable after finish");
  gcm_stream_cleanup(&s);
#undef DUMP_ALL
  return 0;
}
