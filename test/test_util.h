// test/test_util.h: helpers shared by the GoogleTest suites.
#ifndef LIBGCM_TEST_TEST_UTIL_H
#define LIBGCM_TEST_TEST_UTIL_H

#include <gcm/gcm.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace gcmtest {

using Bytes = std::vector<uint8_t>;

// Every (AES, GHASH) pair this CPU can run, constant-time or not, so a new
// backend is tested by every suite that uses this list.
inline std::vector<std::pair<std::string, std::string>> UsableBackendPairs() {
  std::vector<std::string> aes, ghash;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    if (!gcm_backend_get(i, &info) || !info.usable) continue;
    (info.kind == GCM_BACKEND_AES ? aes : ghash).push_back(info.name);
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto &a : aes)
    for (const auto &g : ghash) pairs.emplace_back(a, g);
  return pairs;
}

inline std::string PairName(const std::pair<std::string, std::string> &p) {
  return p.first + "_" + p.second;
}

inline Bytes RandomBytes(std::mt19937_64 &rng, size_t n) {
  Bytes b(n);
  for (auto &x : b) x = static_cast<uint8_t>(rng());
  return b;
}

inline bool AllZero(const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != 0) return false;
  return true;
}

inline Bytes FromHex(const std::string &hex) {
  Bytes out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

}  // namespace gcmtest

#endif  // LIBGCM_TEST_TEST_UTIL_H
