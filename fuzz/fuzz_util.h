// fuzz/fuzz_util.h: what the libFuzzer targets in fuzz/ share.
//
// - Input: reads a fuzzer input front to back. Every read succeeds: past
//   the end, numbers are 0 and byte strings come out short, so any input,
//   however short, is a valid message for every target.
// - The common message header (key, nonce, tag length, AAD) that
//   fuzz_differential, fuzz_stream and fuzz_compat all start with, so one
//   seed layout (fuzz/make_corpus.py) serves them all.
// - Chunk lists: how a target splits AAD or data into pieces.
// - UsablePairs(): every (AES, GHASH) backend pair this CPU can run, from
//   the tests' list (test/test_util.h, which also gives AllZero and Bytes).
// - FUZZ_CHECK: prints what went wrong, with the buffers involved, and
//   aborts, which libFuzzer records as a crash with the input that caused it.
//
// Every buffer handed to the library is its own heap block of exactly the
// size the call may touch (Bytes is a std::vector sized once), so
// AddressSanitizer sees a read or write one byte past any of them.
#ifndef LIBGCM_FUZZ_FUZZ_UTIL_H
#define LIBGCM_FUZZ_FUZZ_UTIL_H

#include <gcm/gcm.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../test/test_util.h"

namespace gcmfuzz {

using gcmtest::AllZero;
using gcmtest::Bytes;

class Input {
 public:
  Input(const uint8_t *data, size_t size) : p_(data), n_(size) {}

  uint8_t U8() {
    if (n_ == 0) return 0;
    n_--;
    return *p_++;
  }
  // Little-endian, as make_corpus.py writes them.
  uint16_t U16() {
    uint16_t lo = U8();
    return static_cast<uint16_t>(lo | (U8() << 8));
  }
  uint64_t U64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= static_cast<uint64_t>(U8()) << (8 * i);
    return v;
  }
  // Up to `want` bytes: fewer when the input runs out.
  Bytes Take(size_t want) {
    size_t n = want < n_ ? want : n_;
    Bytes b(p_, p_ + n);
    p_ += n;
    n_ -= n;
    return b;
  }
  Bytes Rest() { return Take(n_); }
  size_t left() const { return n_; }

 private:
  const uint8_t *p_;
  size_t n_;
};

// The header every message-driven target begins with:
//   u8  key size: 16, 24, 32 for value % 3 == 0, 1, 2 (higher bits: target
//       flags, see each target)
//   key bytes
//   u8  nonce length: 1 + value % 128 (1..128 bytes, the range OpenSSL's
//       GCM accepts, so fuzz_differential can compare every nonce)
//   nonce bytes
//   u8  tag length: 1 + value % 16
//   u16 AAD length (little-endian; cut short when the input ends)
//   AAD bytes
struct Message {
  uint8_t key_sel = 0;
  Bytes key, nonce, aad;
  size_t tag_len = 16;
};

inline Message ReadMessage(Input &in) {
  Message m;
  m.key_sel = in.U8();
  static const size_t kKeyLens[3] = {16, 24, 32};
  m.key = in.Take(kKeyLens[m.key_sel % 3]);
  m.key.resize(kKeyLens[m.key_sel % 3], 0);  // short input: zero key bytes
  size_t nonce_len = 1 + static_cast<size_t>(in.U8() % 128);
  m.nonce = in.Take(nonce_len);
  m.nonce.resize(nonce_len, 0);
  m.tag_len = 1 + in.U8() % 16;
  m.aad = in.Take(in.U16());
  return m;
}

// A chunk list: u8 count, then one u8 per chunk. A chunk byte b stands for
// b bytes when b < 192 and for 192 + (b - 192) * 32 bytes otherwise (up to
// 2208), so both odd small pieces and bulk-sized ones can be expressed.
// Zero-length chunks are kept: empty updates are part of what is tested.
using Chunks = std::vector<size_t>;

inline Chunks ReadChunks(Input &in) {
  Chunks c;
  size_t n = in.U8();
  for (size_t i = 0; i < n; i++) {
    uint8_t b = in.U8();
    c.push_back(b < 192 ? b : 192 + static_cast<size_t>(b - 192) * 32);
  }
  return c;
}

// Splits `total` bytes by the list: each chunk takes its size (or what is
// left), and whatever the list does not cover becomes one last piece. The
// pieces always add up to `total`; there is at least one piece.
inline std::vector<size_t> Split(const Chunks &chunks, size_t total) {
  std::vector<size_t> pieces;
  size_t left = total;
  for (size_t c : chunks) {
    size_t take = c < left ? c : left;
    pieces.push_back(take);
    left -= take;
  }
  if (left > 0 || pieces.empty()) pieces.push_back(left);
  return pieces;
}

struct Pair {
  std::string aes, ghash;
};

// Every usable (AES, GHASH) pair, constant-time or not, in list order (the
// tests' list, gcmtest::UsableBackendPairs).
inline const std::vector<Pair> &UsablePairs() {
  static const std::vector<Pair> pairs = [] {
    std::vector<Pair> out;
    for (const auto &p : gcmtest::UsableBackendPairs())
      out.push_back({p.first, p.second});
    if (out.empty()) {
      std::fprintf(stderr, "fuzz: no usable backend pair\n");
      std::abort();
    }
    return out;
  }();
  return pairs;
}

inline bool Equal(const uint8_t *a, const uint8_t *b, size_t n) {
  return n == 0 || std::memcmp(a, b, n) == 0;
}

inline void DumpHex(const char *name, const uint8_t *p, size_t n) {
  std::fprintf(stderr, "  %s (%zu bytes):", name, n);
  for (size_t i = 0; i < n && i < 256; i++) {
    std::fprintf(stderr, "%s%02x", i % 32 == 0 ? "\n    " : "", p[i]);
  }
  std::fprintf(stderr, "%s\n", n > 256 ? "\n    ..." : "");
}
inline void DumpHex(const char *name, const Bytes &b) {
  DumpHex(name, b.data(), b.size());
}

inline void DumpMessage(const Message &m) {
  DumpHex("key", m.key);
  DumpHex("nonce", m.nonce);
  DumpHex("aad", m.aad);
  std::fprintf(stderr, "  tag_len: %zu\n", m.tag_len);
}

[[noreturn]] inline void Fail(const char *file, int line, const char *fmt,
                              ...) {
  std::fprintf(stderr, "\n==== libgcm fuzz check failed at %s:%d: ", file,
               line);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "\n  last error: %s\n", gcm_last_error_message());
  std::abort();
}

// Streams `in` through `s` piece by piece (AAD first). Each piece is its
// own buffer; in place, the piece is transformed where it lies.
inline Bytes StreamData(gcm_stream *s, const Bytes &aad, const Chunks &aad_chunks,
                 const Bytes &in, const Chunks &data_chunks, bool in_place,
                 bool *ok) {
  *ok = true;
  size_t off = 0;
  for (size_t piece : Split(aad_chunks, aad.size())) {
    Bytes a(aad.begin() + off, aad.begin() + off + piece);
    if (!gcm_stream_aad(s, a.data(), a.size())) *ok = false;
    off += piece;
  }
  Bytes out;
  off = 0;
  for (size_t piece : Split(data_chunks, in.size())) {
    Bytes i(in.begin() + off, in.begin() + off + piece);
    Bytes o(piece, 0x33);
    if (in_place) {
      if (!gcm_stream_update(s, i.data(), i.data(), piece)) *ok = false;
      o = i;
    } else {
      if (!gcm_stream_update(s, o.data(), i.data(), piece)) *ok = false;
    }
    out.insert(out.end(), o.begin(), o.end());
    off += piece;
  }
  return out;
}

}  // namespace gcmfuzz

// FUZZ_CHECK(cond, dump, fmt, ...): when cond is false, runs `dump` (a
// statement that prints the inputs involved, or `(void)0`) and aborts.
#define FUZZ_CHECK(cond, dump, ...)                          \
  do {                                                       \
    if (!(cond)) {                                           \
      std::fprintf(stderr, "\n==== inputs:\n");              \
      dump;                                                  \
      ::gcmfuzz::Fail(__FILE__, __LINE__, __VA_ARGS__);      \
    }                                                        \
  } while (0)

#endif  // LIBGCM_FUZZ_FUZZ_UTIL_H
