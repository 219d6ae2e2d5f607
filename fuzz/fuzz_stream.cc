// fuzz/fuzz_stream.cc: gcm_stream_* with fuzzer-chosen chunk boundaries
// must give exactly what the one-shot gcm_seal / gcm_open give, in both
// directions, in place and out of place.
//
// Input: the common message header (fuzz_util.h), then
//   u8  flags: bit 0 streaming seal in place, bit 1 streaming open in
//       place, bit 2 one-shot calls in place, bit 3 also open with a
//       corrupted tag (first byte flipped), which must fail both ways
//   u8  backend pair (index modulo the number of usable pairs)
//   chunk list for the AAD
//   chunk list for the data when sealing
//   chunk list for the data when opening
//   rest: the plaintext
#include "fuzz_util.h"

using namespace gcmfuzz;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Input in(data, size);
  const Message m = ReadMessage(in);
  const uint8_t flags = in.U8();
  const size_t pair_index = in.U8() % UsablePairs().size();
  const Chunks aad_chunks = ReadChunks(in);
  const Chunks seal_chunks = ReadChunks(in);
  const Chunks open_chunks = ReadChunks(in);
  const Bytes pt = in.Rest();
  const size_t n = pt.size();
  const Pair &pair = UsablePairs()[pair_index];

#define DUMP_ALL                                                            \
  (DumpMessage(m), DumpHex("plaintext", pt),                                \
   std::fprintf(stderr, "  pair %s/%s, flags %02x\n", pair.aes.c_str(),    \
                pair.ghash.c_str(), flags))

  gcm_key key;
  FUZZ_CHECK(gcm_key_init_with_backends(&key, m.key.data(), m.key.size(),
                                        pair.aes.c_str(),
                                        pair.ghash.c_str()) == 1,
             DUMP_ALL, "key init failed");

  // One-shot reference.
  Bytes ct(n), tag(m.tag_len);
  int ok;
  if (flags & 4) {
    ct = pt;
    ok = gcm_seal(&key, ct.data(), tag.data(), tag.size(), m.nonce.data(),
                  m.nonce.size(), ct.data(), n, m.aad.data(), m.aad.size());
  } else {
    ok = gcm_seal(&key, ct.data(), tag.data(), tag.size(), m.nonce.data(),
                  m.nonce.size(), pt.data(), n, m.aad.data(), m.aad.size());
  }
  FUZZ_CHECK(ok == 1, DUMP_ALL, "gcm_seal failed");

  // Streaming seal.
  gcm_stream s;
  FUZZ_CHECK(gcm_stream_init(&s, &key, GCM_ENCRYPT, m.nonce.data(),
                             m.nonce.size()) == 1,
             DUMP_ALL, "gcm_stream_init(GCM_ENCRYPT) failed");
  bool stream_ok;
  Bytes sct = StreamData(&s, m.aad, aad_chunks, pt, seal_chunks,
                         (flags & 1) != 0, &stream_ok);
  Bytes stag(m.tag_len);
  FUZZ_CHECK(stream_ok && gcm_stream_finish_seal(&s, stag.data(),
                                                 stag.size()) == 1,
             DUMP_ALL, "streaming seal failed");
  FUZZ_CHECK(sct == ct && stag == tag,
             (DUMP_ALL, DumpHex("one-shot ct", ct), DumpHex("stream ct", sct),
              DumpHex("one-shot tag", tag), DumpHex("stream tag", stag)),
             "streaming seal differs from gcm_seal");
  gcm_stream_cleanup(&s);

  // One-shot and streaming open, with the right tag and, if asked, a wrong
  // one.
  for (int corrupt = 0; corrupt <= ((flags & 8) ? 1 : 0); corrupt++) {
    Bytes t = tag;
    if (corrupt) t[0] ^= 1;
    Bytes back(n, 0xa5);
    if (flags & 4) {
      back = ct;
      ok = gcm_open(&key, back.data(), m.nonce.data(), m.nonce.size(),
                    back.data(), n, t.data(), t.size(), m.aad.data(),
                    m.aad.size());
    } else {
      ok = gcm_open(&key, back.data(), m.nonce.data(), m.nonce.size(),
                    ct.data(), n, t.data(), t.size(), m.aad.data(),
                    m.aad.size());
    }
    FUZZ_CHECK(ok == !corrupt, (DUMP_ALL, DumpHex("tag", t)),
               "gcm_open returned %d with %s tag", ok,
               corrupt ? "a wrong" : "the right");
    FUZZ_CHECK(corrupt ? AllZero(back) : back == pt,
               (DUMP_ALL, DumpHex("opened", back)),
               "gcm_open output wrong (corrupt=%d)", corrupt);

    FUZZ_CHECK(gcm_stream_init(&s, &key, GCM_DECRYPT, m.nonce.data(),
                               m.nonce.size()) == 1,
               DUMP_ALL, "gcm_stream_init(GCM_DECRYPT) failed");
    Bytes spt = StreamData(&s, m.aad, aad_chunks, ct, open_chunks,
                           (flags & 2) != 0, &stream_ok);
    FUZZ_CHECK(stream_ok, DUMP_ALL, "streaming open update failed");
    // Released before the verdict, so the same either way.
    FUZZ_CHECK(spt == pt, (DUMP_ALL, DumpHex("stream plaintext", spt)),
               "streaming decryption differs from the plaintext");
    ok = gcm_stream_finish_open(&s, t.data(), t.size());
    FUZZ_CHECK(ok == !corrupt, (DUMP_ALL, DumpHex("tag", t)),
               "gcm_stream_finish_open returned %d with %s tag", ok,
               corrupt ? "a wrong" : "the right");
    gcm_stream_cleanup(&s);
  }
  gcm_key_cleanup(&key);
#undef DUMP_ALL
  return 0;
}
