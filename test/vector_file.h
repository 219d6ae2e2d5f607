// test/vector_file.h: reads libgcm's test-vector files (the format is
// described in vectors/README.md).
//
// A file is a sequence of cases separated by blank lines. Each case is a set
// of `NAME: value` lines; `#` starts a comment line. Hex fields: KEY, NONCE,
// AAD, PT, CT, TAG (an empty value is an empty string). Text fields: ID,
// COMMENT. RESULT is `valid` or `invalid`. PT may be left out of invalid
// cases.
#ifndef LIBGCM_TEST_VECTOR_FILE_H
#define LIBGCM_TEST_VECTOR_FILE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gcmvec {

struct VectorCase {
  std::string id;       // the ID line, or "<file>:<line>" when there is none
  std::string comment;  // the COMMENT line, may be empty
  size_t line = 0;      // line of the case's first field in its file
  std::vector<uint8_t> key, nonce, aad, pt, ct, tag;
  bool has_pt = false;  // PT was given
  bool valid = false;   // RESULT: valid

  // "<id> (line N)", for failure messages.
  std::string Where() const;
};

// Reads every case in `path`. Returns true on success. On failure returns
// false, leaves `*cases` empty and puts "<path>:<line>: <reason>" in
// `*error`. A file is refused as a whole when any case is malformed: an
// unknown or repeated field, bad hex, a missing required field (KEY, NONCE,
// AAD, CT, TAG, RESULT; PT in valid cases), or PT and CT of different
// lengths.
bool ReadVectorFile(const std::string &path, std::vector<VectorCase> *cases,
                    std::string *error);

}  // namespace gcmvec

#endif  // LIBGCM_TEST_VECTOR_FILE_H
