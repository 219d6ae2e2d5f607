// test/known_answer_test.cc: the GCM specification's test cases 1-18
// (McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)", revised
// 2005, appendix B), embedded so they run even without any vector file.
//
// Cases 1-6 use AES-128, 7-12 AES-192 and 13-18 AES-256, each six in the
// same pattern: an all-zero key with an empty and a one-block plaintext, then
// the key feffe992... with a 64-byte plaintext and no AAD, a 60-byte
// plaintext with 20 bytes of AAD, and the same with an 8-byte nonce (cases
// 5, 11, 17) and a 60-byte nonce (cases 6, 12, 18); the last two take the
// GHASH path for J0.
//
// Every case runs with every usable (AES, GHASH) backend pair, through the
// one-shot calls (with the full tag and every truncation of it) and through
// the streaming calls fed in pieces of several sizes.
#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "byte_util.h"

namespace {

using Bytes = std::vector<uint8_t>;

// Short, so the case tables below stay readable.
Bytes H(const std::string &hex) { return gcmtest::FromHex(hex); }

// The values shared by the cases.
const char kKey[] = "feffe9928665731c6d6a8f9467308308";
const char kPlain[] =
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
    "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
const char kAad[] = "feedfacedeadbeeffeedfacedeadbeefabaddad2";
const char kNonce12[] = "cafebabefacedbaddecaf888";
const char kNonce8[] = "cafebabefacedbad";
const char kNonce60[] =
    "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728"
    "c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b";

struct KnownAnswer {
  int number;
  Bytes key, nonce, aad, pt, ct, tag;
};

// The six cases for one key size. `key` is the feffe992... key of that size;
// the results come from the specification.
void AddSix(std::vector<KnownAnswer> *out, int first, const std::string &key,
            const char *ct1, const char *tag0, const char *tag1,
            const char *ct_full, const char *tag2, const char *tag3,
            const char *ct_nonce8, const char *tag4, const char *ct_nonce60,
            const char *tag5) {
  const Bytes zero_key(key.size() / 2, 0);
  const Bytes zero_nonce(12, 0);
  const Bytes plain = H(kPlain);
  const Bytes plain60(plain.begin(), plain.begin() + 60);
  const Bytes ct_full_b = H(ct_full);
  const Bytes ct60(ct_full_b.begin(), ct_full_b.begin() + 60);
  out->push_back({first, zero_key, zero_nonce, {}, {}, {}, H(tag0)});
  out->push_back({first + 1, zero_key, zero_nonce, {}, Bytes(16, 0), H(ct1),
                  H(tag1)});
  out->push_back({first + 2, H(key), H(kNonce12), {}, plain, ct_full_b, H(tag2)});
  out->push_back({first + 3, H(key), H(kNonce12), H(kAad), plain60, ct60,
                  H(tag3)});
  out->push_back({first + 4, H(key), H(kNonce8), H(kAad), plain60,
                  H(ct_nonce8), H(tag4)});
  out->push_back({first + 5, H(key), H(kNonce60), H(kAad), plain60,
                  H(ct_nonce60), H(tag5)});
}

const std::vector<KnownAnswer> &Cases() {
  static const std::vector<KnownAnswer> cases = [] {
    std::vector<KnownAnswer> v;
    const std::string k = kKey;
    // AES-128: cases 1-6.
    AddSix(&v, 1, k, "0388dace60b6a392f328c2b971b2fe78",
           "58e2fccefa7e3061367f1d57a4e7455a",
           "ab6e47d42cec13bdf53a67b21257bddf",
           "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e"
           "21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
           "4d5c2af327cd64a62cf35abd2ba6fab4",
           "5bc94fbc3221a5db94fae95ae7121a47",
           "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c7423"
           "73806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598",
           "3612d2e79e3b0785561be14aaca2fccb",
           "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca7"
           "01e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
           "619cc5aefffe0bfa462af43c1699d050");
    // AES-192: cases 7-12.
    AddSix(&v, 7, k + k.substr(0, 16), "98e7247c07f0fe411c267e4384b0f600",
           "cd33b28ac773f74ba00ed1f312572435",
           "2ff58d80033927ab8ef4d4587514f0fb",
           "3980ca0b3c00e841eb06fac4872a2757859e1ceaa6efd984628593b40ca1e19c"
           "7d773d00c144c525ac619d18c84a3f4718e2448b2fe324d9ccda2710acade256",
           "9924a7c8587336bfb118024db8674a14",
           "2519498e80f1478f37ba55bd6d27618c",
           "0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057"
           "fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7",
           "65dcc57fcf623a24094fcca40d3533f8",
           "d27e88681ce3243c4830165a8fdcf9ff1de9a1d8e6b447ef6ef7b79828666e45"
           "81e79012af34ddd9e2f037589b292db3e67c036745fa22e7e9b7373b",
           "dcf566ff291c25bbb8568fc3d376a6d9");
    // AES-256: cases 13-18.
    AddSix(&v, 13, k + k, "cea7403d4d606b6e074ec5d3baf39d18",
           "530f8afbc74536b9a963b4f1c4cb738b",
           "d0d1c8a799996bf0265b98b5d48ab919",
           "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
           "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
           "b094dac5d93471bdec1a502270e3cc6c",
           "76fc6ece0f4e1768cddf8853bb2d551b",
           "c3762df1ca787d32ae47c13bf19844cbaf1ae14d0b976afac52ff7d79bba9de0"
           "feb582d33934a4f0954cc2363bc73f7862ac430e64abe499f47c9b1f",
           "3a337dbf46a792c45e454913fe2ea8f2",
           "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf4"
           "0fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
           "a44a8266ee1c8eb0c8b5d4cf5ae9f19a");
    return v;
  }();
  return cases;
}

struct BackendPair {
  std::string aes, ghash;
};

void PrintTo(const BackendPair &p, std::ostream *os) {
  *os << "AES " << p.aes << ", GHASH " << p.ghash;
}

std::vector<BackendPair> UsablePairs() {
  std::vector<std::string> aes, ghash;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    if (!gcm_backend_get(i, &info) || !info.usable || info.name == nullptr)
      continue;
    if (info.kind == GCM_BACKEND_AES) aes.push_back(info.name);
    if (info.kind == GCM_BACKEND_GHASH) ghash.push_back(info.name);
  }
  std::vector<BackendPair> pairs;
  for (const auto &a : aes)
    for (const auto &g : ghash) pairs.push_back({a, g});
  return pairs;
}

class KnownAnswerTest : public testing::TestWithParam<BackendPair> {
 protected:
  void Init(gcm_key *key, const KnownAnswer &c) {
    ASSERT_EQ(1, gcm_key_init_with_backends(key, c.key.data(), c.key.size(),
                                            GetParam().aes.c_str(),
                                            GetParam().ghash.c_str()))
        << gcm_last_error_message();
    ASSERT_EQ(c.key.size(), gcm_key_length(key));
  }
};

TEST_P(KnownAnswerTest, OneShot) {
  ASSERT_EQ(18u, Cases().size());
  for (const KnownAnswer &c : Cases()) {
    SCOPED_TRACE("GCM spec test case " + std::to_string(c.number));
    gcm_key key;
    ASSERT_NO_FATAL_FAILURE(Init(&key, c));
    const size_t n = c.pt.size();

    Bytes ct(n + 1, 0xee), tag(GCM_TAG_LEN, 0xee);
    ASSERT_EQ(1, gcm_seal(&key, ct.data(), tag.data(), GCM_TAG_LEN,
                          c.nonce.data(), c.nonce.size(), c.pt.data(), n,
                          c.aad.data(), c.aad.size()));
    EXPECT_EQ(c.ct, Bytes(ct.begin(), ct.begin() + n));
    EXPECT_EQ(c.tag, tag);

    Bytes pt(n + 1, 0xee);
    EXPECT_EQ(1, gcm_open(&key, pt.data(), c.nonce.data(), c.nonce.size(),
                          c.ct.data(), n, c.tag.data(), GCM_TAG_LEN,
                          c.aad.data(), c.aad.size()));
    EXPECT_EQ(c.pt, Bytes(pt.begin(), pt.begin() + n));

    // Every truncation: the tag is the prefix of the full tag, and a wrong
    // last byte is refused with the plaintext wiped.
    for (size_t tl = 1; tl <= GCM_TAG_LEN; tl++) {
      Bytes t(tl);
      ASSERT_EQ(1, gcm_seal(&key, ct.data(), t.data(), tl, c.nonce.data(),
                            c.nonce.size(), c.pt.data(), n, c.aad.data(),
                            c.aad.size()));
      EXPECT_EQ(Bytes(c.tag.begin(), c.tag.begin() + tl), t) << "tag_len " << tl;
      EXPECT_EQ(1, gcm_open(&key, pt.data(), c.nonce.data(), c.nonce.size(),
                            c.ct.data(), n, t.data(), tl, c.aad.data(),
                            c.aad.size()));
      t[tl - 1] ^= 1;
      std::fill(pt.begin(), pt.end(), 0xee);
      EXPECT_EQ(0, gcm_open(&key, pt.data(), c.nonce.data(), c.nonce.size(),
                            c.ct.data(), n, t.data(), tl, c.aad.data(),
                            c.aad.size()));
      EXPECT_EQ(GCM_ERR_AUTH, gcm_last_error());
      EXPECT_TRUE(std::all_of(pt.begin(), pt.begin() + n,
                              [](uint8_t b) { return b == 0; }));
    }
    gcm_key_cleanup(&key);
  }
}

TEST_P(KnownAnswerTest, Streaming) {
  for (const KnownAnswer &c : Cases()) {
    gcm_key key;
    ASSERT_NO_FATAL_FAILURE(Init(&key, c));
    const size_t n = c.pt.size();
    for (size_t piece : {size_t{1}, size_t{5}, size_t{16}, size_t{17}, size_t{64}}) {
      SCOPED_TRACE("GCM spec test case " + std::to_string(c.number) +
                   ", pieces of " + std::to_string(piece));
      gcm_stream s;
      Bytes ct(n), tag(GCM_TAG_LEN);
      ASSERT_EQ(1, gcm_stream_init(&s, &key, GCM_ENCRYPT, c.nonce.data(),
                                   c.nonce.size()));
      for (size_t i = 0; i < c.aad.size(); i += piece)
        ASSERT_EQ(1, gcm_stream_aad(&s, c.aad.data() + i,
                                    std::min(piece, c.aad.size() - i)));
      for (size_t i = 0; i < n; i += piece)
        ASSERT_EQ(1, gcm_stream_update(&s, ct.data() + i, c.pt.data() + i,
                                       std::min(piece, n - i)));
      ASSERT_EQ(1, gcm_stream_finish_seal(&s, tag.data(), tag.size()));
      EXPECT_EQ(c.ct, ct);
      EXPECT_EQ(c.tag, tag);

      Bytes pt(n);
      ASSERT_EQ(1, gcm_stream_init(&s, &key, GCM_DECRYPT, c.nonce.data(),
                                   c.nonce.size()));
      for (size_t i = 0; i < c.aad.size(); i += piece)
        ASSERT_EQ(1, gcm_stream_aad(&s, c.aad.data() + i,
                                    std::min(piece, c.aad.size() - i)));
      for (size_t i = 0; i < n; i += piece)
        ASSERT_EQ(1, gcm_stream_update(&s, pt.data() + i, c.ct.data() + i,
                                       std::min(piece, n - i)));
      EXPECT_EQ(1, gcm_stream_finish_open(&s, c.tag.data(), c.tag.size()));
      EXPECT_EQ(c.pt, pt);
      gcm_stream_cleanup(&s);
    }
    gcm_key_cleanup(&key);
  }
}

INSTANTIATE_TEST_SUITE_P(
    SpecCases, KnownAnswerTest, testing::ValuesIn(UsablePairs()),
    [](const testing::TestParamInfo<BackendPair> &pi) {
      return pi.param.aes + "_" + pi.param.ghash;
    });

}  // namespace
