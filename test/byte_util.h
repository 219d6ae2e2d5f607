// test/byte_util.h: byte-string helpers for the tests: random bytes, hex
// in and out, zero checks. Apart from test_util.h, which includes this for
// every suite, the vector file reader uses it, and so does the provider's
// test through that reader; it needs nothing from libgcm.
#ifndef LIBGCM_TEST_BYTE_UTIL_H
#define LIBGCM_TEST_BYTE_UTIL_H

#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace gcmtest {

using Bytes = std::vector<uint8_t>;

// n bytes from any <random> engine (the suites seed std::mt19937 or
// std::mt19937_64), one engine draw per byte, so a seed gives the same bytes
// as it always has.
template <class Rng>
Bytes RandomBytes(Rng &rng, size_t n) {
  Bytes b(n);
  for (auto &x : b) x = static_cast<uint8_t>(rng());
  return b;
}

// A number in [0, bound), or 0 when bound is 0.
template <class Rng>
size_t RandomBelow(Rng &rng, size_t bound) {
  return bound == 0 ? 0 : static_cast<size_t>(rng() % bound);
}

inline bool AllZero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != 0) return false;
  return true;
}

inline bool AllZero(const Bytes &v) { return AllZero(v.data(), v.size()); }

// A copy of the n bytes at p with one bit flipped (bit 0 is the low bit of
// p[0]), for tests that every altered input is refused.
inline Bytes WithBitFlipped(const uint8_t *p, size_t n, size_t bit) {
  Bytes b(p, p + n);
  b[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
  return b;
}

inline Bytes WithBitFlipped(const Bytes &v, size_t bit) {
  return WithBitFlipped(v.data(), v.size(), bit);
}

// The value of one hex digit (either case), or -1.
inline int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes an even number of hex digits into *out; false (and *out
// unspecified) for anything else.
inline bool ParseHex(const std::string &s, Bytes *out) {
  out->clear();
  if (s.size() % 2 != 0) return false;
  out->reserve(s.size() / 2);
  for (size_t i = 0; i < s.size(); i += 2) {
    int hi = HexDigit(s[i]), lo = HexDigit(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out->push_back(static_cast<uint8_t>(hi << 4 | lo));
  }
  return true;
}

// Hex written into a test (a known answer): malformed text is a bug in the
// test, reported as an exception, which fails the test that hit it.
inline Bytes FromHex(const std::string &hex) {
  Bytes out;
  if (!ParseHex(hex, &out))
    throw std::invalid_argument("malformed hex in a test: \"" + hex + "\"");
  return out;
}

// Lower-case hex of n bytes, for failure messages.
inline std::string ToHex(const uint8_t *p, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += kDigits[p[i] >> 4];
    s += kDigits[p[i] & 15];
  }
  return s;
}

}  // namespace gcmtest

#endif  // LIBGCM_TEST_BYTE_UTIL_H
