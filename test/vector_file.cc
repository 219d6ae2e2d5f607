// test/vector_file.cc: the reader declared in vector_file.h.
#include "vector_file.h"

#include "byte_util.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace gcmvec {

namespace {

using gcmtest::ParseHex;

std::string Trim(const std::string &s) {
  size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r')) b++;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
    e--;
  return s.substr(b, e - b);
}

// Bits for the fields seen in the current case.
enum : unsigned {
  kId = 1u << 0,
  kComment = 1u << 1,
  kKey = 1u << 2,
  kNonce = 1u << 3,
  kAad = 1u << 4,
  kPt = 1u << 5,
  kCt = 1u << 6,
  kTag = 1u << 7,
  kResult = 1u << 8,
};

}  // namespace

std::string VectorCase::Where() const {
  return id + " (line " + std::to_string(line) + ")";
}

bool ReadVectorFile(const std::string &path, std::vector<VectorCase> *cases,
                    std::string *error) {
  cases->clear();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open";
    return false;
  }
  std::string base = path;
  size_t slash = base.find_last_of("/\\");
  if (slash != std::string::npos) base = base.substr(slash + 1);

  auto fail = [&](size_t line, const std::string &why) {
    cases->clear();
    *error = path + ":" + std::to_string(line) + ": " + why;
    return false;
  };

  VectorCase cur;
  unsigned seen = 0;
  auto finish = [&]() -> bool {
    if (seen == 0) return true;
    const unsigned required = kKey | kNonce | kAad | kCt | kTag | kResult;
    if ((seen & required) != required)
      return fail(cur.line, "case lacks one of KEY NONCE AAD CT TAG RESULT");
    if (cur.valid && !cur.has_pt) return fail(cur.line, "valid case lacks PT");
    if (cur.has_pt && cur.pt.size() != cur.ct.size())
      return fail(cur.line, "PT and CT lengths differ");
    if (cur.id.empty()) cur.id = base + ":" + std::to_string(cur.line);
    cases->push_back(std::move(cur));
    cur = VectorCase();
    seen = 0;
    return true;
  };

  std::string raw;
  size_t lineno = 0;
  while (std::getline(in, raw)) {
    lineno++;
    std::string line = Trim(raw);
    if (!line.empty() && line[0] == '#') continue;
    if (line.empty()) {
      if (!finish()) return false;
      continue;
    }
    size_t colon = line.find(':');
    if (colon == std::string::npos) return fail(lineno, "expected NAME: value");
    std::string name = line.substr(0, colon);
    std::string value = Trim(line.substr(colon + 1));
    if (seen == 0) cur.line = lineno;

    unsigned bit;
    std::vector<uint8_t> *hex = nullptr;
    if (name == "ID") {
      bit = kId;
      cur.id = value;
    } else if (name == "COMMENT") {
      bit = kComment;
      cur.comment = value;
    } else if (name == "KEY") {
      bit = kKey, hex = &cur.key;
    } else if (name == "NONCE") {
      bit = kNonce, hex = &cur.nonce;
    } else if (name == "AAD") {
      bit = kAad, hex = &cur.aad;
    } else if (name == "PT") {
      bit = kPt, hex = &cur.pt;
      cur.has_pt = true;
    } else if (name == "CT") {
      bit = kCt, hex = &cur.ct;
    } else if (name == "TAG") {
      bit = kTag, hex = &cur.tag;
    } else if (name == "RESULT") {
      bit = kResult;
      if (value == "valid") {
        cur.valid = true;
      } else if (value == "invalid") {
        cur.valid = false;
      } else {
        return fail(lineno, "RESULT must be valid or invalid");
      }
    } else {
      return fail(lineno, "unknown field " + name);
    }
    if (seen & bit) return fail(lineno, name + " given twice");
    seen |= bit;
    if (hex != nullptr && !ParseHex(value, hex))
      return fail(lineno, "bad hex in " + name);
  }
  if (in.bad()) return fail(lineno, "read error");
  return finish();
}

}  // namespace gcmvec
