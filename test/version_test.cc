// The version has one source, the GCM_VERSION_* lines of include/gcm/gcm.h.
// These tests check that every other place that states it agrees: the
// string and number macros, gcm_version() and gcm_version_number() of the
// linked library, the CMake project version (which CMakeLists.txt reads
// from gcm.h, and which names the shared library and its SONAME), and the
// generated pkg-config files and CMake package version file.
#include <gcm/gcm.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string ReadFile(const std::string &path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string Dotted(int major, int minor, int patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace

TEST(Version, MacrosAgree) {
  EXPECT_EQ(Dotted(GCM_VERSION_MAJOR, GCM_VERSION_MINOR, GCM_VERSION_PATCH),
            std::string(GCM_VERSION_STRING));
  EXPECT_EQ((GCM_VERSION_MAJOR << 16) + (GCM_VERSION_MINOR << 8) + GCM_VERSION_PATCH,
            GCM_VERSION_NUMBER);
  EXPECT_LT(GCM_VERSION_MINOR, 256);
  EXPECT_LT(GCM_VERSION_PATCH, 256);
  static_assert(GCM_VERSION_NUMBER >= 0x010000, "libgcm 1.0 or later");
}

TEST(Version, LibraryMatchesHeader) {
  EXPECT_STREQ(GCM_VERSION_STRING, gcm_version());
  EXPECT_EQ(static_cast<unsigned long>(GCM_VERSION_NUMBER), gcm_version_number());
}

TEST(Version, BuildSystemMatchesHeader) {
  EXPECT_EQ(std::string(GCM_VERSION_STRING), std::string(LIBGCM_PROJECT_VERSION));
  EXPECT_EQ(std::to_string(GCM_VERSION_MAJOR), std::string(LIBGCM_PROJECT_VERSION_MAJOR));
  for (const char *pc : {"libgcm.pc", "libgcm-compat.pc"}) {
    std::string text = ReadFile(std::string(LIBGCM_BUILD_DIR) + "/" + pc);
    ASSERT_FALSE(text.empty()) << pc;
    EXPECT_NE(std::string::npos, text.find("\nVersion: " GCM_VERSION_STRING "\n")) << pc;
  }
  std::string cfg = ReadFile(std::string(LIBGCM_BUILD_DIR) + "/libgcmConfigVersion.cmake");
  ASSERT_FALSE(cfg.empty());
  EXPECT_NE(std::string::npos, cfg.find("set(PACKAGE_VERSION \"" GCM_VERSION_STRING "\")"));
}
