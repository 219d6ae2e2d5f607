#!/usr/bin/env python3
"""Converts a NIST CAVP GCMVS response file (gcmEncryptExtIV*.rsp or
gcmDecrypt*.rsp, SP 800-38D) into the libgcm test-vector format.

Encrypt files give Key, IV, PT, AAD, CT and Tag: every case is valid.
Decrypt files give Key, IV, CT, AAD and Tag followed either by PT (the tag
is right: a valid case) or by a bare FAIL line (an invalid case, written
without PT). Tags are already truncated to the section's Taglen.

Each case's ID is `<file>:<line> Count=<n>`, the line of its Count.
The section headers ([Keylen = ...] and so on, in bits) are checked against
each case's field lengths.

Usage: convert_nist.py INPUT.rsp [OUTPUT.txt] [--missing-ok]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gcmvec  # noqa: E402

_FIELD_MAP = {"Key": "key", "IV": "nonce", "PT": "pt", "AAD": "aad",
              "CT": "ct", "Tag": "tag"}
# Which section header bounds which field, in bits.
_SECTION_CHECKS = (("Keylen", "key"), ("IVlen", "nonce"), ("PTlen", "ct"),
                   ("AADlen", "aad"), ("Taglen", "tag"))


def convert(path):
    name = os.path.basename(path)
    section = {}
    cases = []
    cur = None

    def finish():
        nonlocal cur
        if cur is None:
            return
        where = "%s:%d" % (name, cur["line"])
        for f in ("key", "nonce", "aad", "ct", "tag"):
            if f not in cur:
                raise ValueError("%s: case lacks %s" % (where, f))
        if "fail" not in cur and "pt" not in cur:
            raise ValueError("%s: case has neither PT nor FAIL" % where)
        for header, field in _SECTION_CHECKS:
            if header in section and len(cur[field]) * 8 != section[header]:
                raise ValueError("%s: %s does not match [%s = %d]"
                                 % (where, field, header, section[header]))
        valid = "fail" not in cur
        cases.append(gcmvec.Case(
            "%s Count=%s" % (where, cur["count"]), cur["key"], cur["nonce"],
            cur["aad"], cur.get("pt"), cur["ct"], cur["tag"], valid))
        cur = None

    with open(path, encoding="ascii") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                finish()
                key, _, value = line.strip("[]").partition("=")
                section[key.strip()] = int(value)
                continue
            if line == "FAIL":
                if cur is None:
                    raise ValueError("%s:%d: FAIL outside a case" % (name, lineno))
                cur["fail"] = True
                continue
            key, sep, value = line.partition("=")
            key, value = key.strip(), value.strip()
            if not sep:
                raise ValueError("%s:%d: cannot parse %r" % (name, lineno, line))
            if key == "Count":
                finish()
                cur = {"count": value, "line": lineno}
                continue
            if cur is None or key not in _FIELD_MAP:
                raise ValueError("%s:%d: unexpected %r" % (name, lineno, key))
            cur[_FIELD_MAP[key]] = bytes.fromhex(value)
    finish()
    header = ["converted from NIST CAVP GCMVS %s by vectors/convert_nist.py" % name]
    return cases, header


if __name__ == "__main__":
    sys.exit(gcmvec.main_convert(__doc__.splitlines()[0], convert, "nist.txt"))
