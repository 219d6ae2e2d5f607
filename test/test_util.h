// test/test_util.h: helpers shared by the GoogleTest suites: the backend
// lists every parameterised suite runs over, and (from byte_util.h) random
// bytes, hex and zero checks. A helper that two suites need lives here, not
// in a copy in each.
#ifndef LIBGCM_TEST_TEST_UTIL_H
#define LIBGCM_TEST_TEST_UTIL_H

#include <gcm/gcm.h>

#include "byte_util.h"

#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace gcmtest {

// Every (AES, GHASH) pair this CPU can run, constant-time or not, so a new
// backend is tested by every suite that uses this list.
inline std::vector<std::pair<std::string, std::string>> UsableBackendPairs() {
  std::vector<std::string> aes, ghash;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    if (!gcm_backend_get(i, &info) || !info.usable) continue;
    if (info.kind == GCM_BACKEND_AES) aes.push_back(info.name);
    if (info.kind == GCM_BACKEND_GHASH) ghash.push_back(info.name);
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto &a : aes)
    for (const auto &g : ghash) pairs.emplace_back(a, g);
  return pairs;
}

// A pair as a GoogleTest name part: backend names are already letters,
// digits and '_' (Dispatch.BackendNamesAreLettersDigitsAndUnderscores).
inline std::string PairName(const std::pair<std::string, std::string> &p) {
  return p.first + "_" + p.second;
}

// An (AES, GHASH, fused) choice: fused is "none" (the two passes) or a
// fused kernel that fits the pair.
struct Triple {
  std::string aes, ghash, fused;
};

// True when the environment variable `name` is set to "1".
inline bool EnvFlag(const char *name) {
  const char *v = std::getenv(name);
  return v != nullptr && std::string(v) == "1";
}

// The triple the library picks now (gcm_default_backends and
// gcm_default_fused_backend, after the environment); false, and `t`
// untouched, if it cannot pick.
inline bool Pick(Triple *t) {
  const char *aes = nullptr, *ghash = nullptr, *fused = nullptr;
  if (!gcm_default_backends(&aes, &ghash) || !gcm_default_fused_backend(&fused))
    return false;
  *t = {aes, ghash, fused};
  return true;
}

// Every usable pair with "none", and again with every usable fused kernel
// (constant-time or not) that fits it, so a new fused kernel is tested by
// every suite that uses this list.
//
// With LIBGCM_TEST_PICK_ONLY=1, only the pair the library picks, with
// "none" and every fused kernel that fits it. The emulated CPU models set
// it where every triple already ran every suite natively on the same
// build (test/CMakeLists.txt, test/run_all.sh): what a model adds is its
// pick on a CPU that lacks the later instructions.
inline std::vector<Triple> UsableBackendTriples() {
  std::vector<std::string> fused;
  for (size_t i = 0; i < gcm_backend_count(); i++) {
    gcm_backend_info info;
    if (gcm_backend_get(i, &info) && info.usable && info.kind == GCM_BACKEND_FUSED)
      fused.push_back(info.name);
  }
  Triple pick;
  const bool pick_only = EnvFlag("LIBGCM_TEST_PICK_ONLY") && Pick(&pick);
  std::vector<Triple> out;
  for (const auto &p : UsableBackendPairs()) {
    if (pick_only && (p.first != pick.aes || p.second != pick.ghash)) continue;
    out.push_back({p.first, p.second, "none"});
    for (const auto &f : fused) {
      const char *fa = nullptr, *fg = nullptr;
      if (gcm_fused_backend_pair(f.c_str(), &fa, &fg) &&
          (fa == nullptr || p.first == fa) && (fg == nullptr || p.second == fg))
        out.push_back({p.first, p.second, f});
    }
  }
  return out;
}

// The triples an AES-GCM-SIV key can take: every usable pair with "none",
// and with every fused kernel of UsableBackendTriples that has AES-GCM-SIV
// functions (gcm_siv_key_init_with_fused refuses the others).
inline std::vector<Triple> UsableSivTriples() {
  std::vector<Triple> out;
  for (const auto &t : UsableBackendTriples()) {
    if (t.fused != "none") {
      gcm_siv_key k;
      const uint8_t key[16] = {0};
      const int ok = gcm_siv_key_init_with_fused(
          &k, key, sizeof(key), t.aes.c_str(), t.ghash.c_str(),
          t.fused.c_str());
      gcm_siv_key_cleanup(&k);
      if (!ok) continue;
    }
    out.push_back(t);
  }
  return out;
}

// What GoogleTest prints for a Triple parameter.
inline void PrintTo(const Triple &t, std::ostream *os) {
  *os << "AES " << t.aes << ", GHASH " << t.ghash << ", fused " << t.fused;
}

// "aes_ghash" for the two passes (the names tests had before fused
// kernels existed), "aes_ghash_fused_NAME" otherwise.
inline std::string TripleName(const Triple &t) {
  std::string s = t.aes + "_" + t.ghash;
  if (t.fused != "none") s += "_fused_" + t.fused;
  return s;
}

}  // namespace gcmtest

#endif  // LIBGCM_TEST_TEST_UTIL_H
