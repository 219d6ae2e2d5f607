#!/usr/bin/env python3
"""Converts a Project Wycheproof AEAD test file for AES-GCM or AES-GCM-SIV
(aes_gcm_test.json, aes_gcm_siv_test.json; schema aead_test_schema_v1.json)
into the libgcm test-vector format.

The file's algorithm must be exactly "AES-GCM" or "AES-GCM-SIV"; it is
named in the output's header, and the output file's name says which mode
its cases are for (test/vectors_test.cc runs them through that mode).

Every test, valid or invalid, is kept. "invalid" tests (modified tags,
zero-length IVs) become RESULT: invalid; the message and ciphertext are
kept so a test can check that the plaintext never comes out. An
"acceptable" result (none in the AES-GCM file today) has no single right
answer for a strict implementation and is refused so that nobody is
surprised by it silently.

Each case's ID is `<file> tcId=<n>`; the Wycheproof comment and flags go to
COMMENT.

Usage: convert_wycheproof.py aes_gcm_test.json [OUTPUT.txt] [--missing-ok]
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gcmvec  # noqa: E402


def convert(path):
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    algorithm = doc.get("algorithm")
    if algorithm not in ("AES-GCM", "AES-GCM-SIV"):
        raise ValueError("%s: not an AES-GCM or AES-GCM-SIV file (algorithm %r)"
                         % (name, algorithm))
    cases = []
    for group in doc["testGroups"]:
        for t in group["tests"]:
            where = "%s tcId=%d" % (name, t["tcId"])
            if t["result"] not in ("valid", "invalid"):
                raise ValueError("%s: unsupported result %r" % (where, t["result"]))
            tag = bytes.fromhex(t["tag"])
            if len(tag) * 8 != group["tagSize"] or len(t["key"]) * 4 != group["keySize"]:
                raise ValueError("%s: key or tag size disagrees with its group" % where)
            notes = []
            if t.get("comment"):
                notes.append(t["comment"])
            if t.get("flags"):
                notes.append("[%s]" % ", ".join(t["flags"]))
            cases.append(gcmvec.Case(
                where, bytes.fromhex(t["key"]), bytes.fromhex(t["iv"]),
                bytes.fromhex(t["aad"]), bytes.fromhex(t["msg"]),
                bytes.fromhex(t["ct"]), tag, t["result"] == "valid",
                comment=" ".join(notes) or None))
    if "numberOfTests" in doc and doc["numberOfTests"] != len(cases):
        raise ValueError("%s: numberOfTests says %d, found %d"
                         % (name, doc["numberOfTests"], len(cases)))
    header = ["converted from Project Wycheproof %s by vectors/convert_wycheproof.py" % name,
              "algorithm: %s" % algorithm,
              "Wycheproof vectors: Apache License 2.0"]
    return cases, header


if __name__ == "__main__":
    sys.exit(gcmvec.main_convert(__doc__.splitlines()[0], convert, "wycheproof.txt"))
