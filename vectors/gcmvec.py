"""The libgcm test-vector format: writing (for the converters and the
generator) and reading (for self-checks). Python 3 standard library only.

The format itself is described in vectors/README.md. In short, a file is a
sequence of cases separated by blank lines; each case is a set of
`NAME: value` lines; `#` lines are comments.
"""

import os
import sys

# Field order used when writing. Readers accept any order.
FIELDS = ("ID", "COMMENT", "KEY", "NONCE", "AAD", "PT", "CT", "TAG", "RESULT")
HEX_FIELDS = ("KEY", "NONCE", "AAD", "PT", "CT", "TAG")
TEXT_FIELDS = ("ID", "COMMENT")


class Case:
    """One AES-GCM case. Binary fields are bytes; PT may be None for an
    invalid case whose plaintext is unknown (NIST decrypt FAIL cases)."""

    __slots__ = ("id", "comment", "key", "nonce", "aad", "pt", "ct", "tag", "valid")

    def __init__(self, id, key, nonce, aad, pt, ct, tag, valid, comment=None):
        self.id = id
        self.comment = comment
        self.key = bytes(key)
        self.nonce = bytes(nonce)
        self.aad = bytes(aad)
        self.pt = None if pt is None else bytes(pt)
        self.ct = bytes(ct)
        self.tag = bytes(tag)
        self.valid = bool(valid)
        self.check()

    def check(self):
        if self.valid and self.pt is None:
            raise ValueError("%s: a valid case needs PT" % self.id)
        if self.pt is not None and len(self.pt) != len(self.ct):
            raise ValueError("%s: PT and CT lengths differ" % self.id)
        for name, text in (("ID", self.id), ("COMMENT", self.comment)):
            if text is not None and ("\n" in text or "\r" in text):
                raise ValueError("%s: %s must be one line" % (self.id, name))


def _line(name, value):
    return "%s: %s" % (name, value) if value else "%s:" % name


def format_case(case):
    lines = []
    if case.id is not None:
        lines.append(_line("ID", case.id))
    if case.comment:
        lines.append(_line("COMMENT", case.comment))
    lines.append(_line("KEY", case.key.hex()))
    lines.append(_line("NONCE", case.nonce.hex()))
    lines.append(_line("AAD", case.aad.hex()))
    if case.pt is not None:
        lines.append(_line("PT", case.pt.hex()))
    lines.append(_line("CT", case.ct.hex()))
    lines.append(_line("TAG", case.tag.hex()))
    lines.append(_line("RESULT", "valid" if case.valid else "invalid"))
    return "\n".join(lines) + "\n"


def write_file(path, cases, header=()):
    """Writes `cases` to `path` atomically (a reader never sees half a file,
    and an interrupted build leaves no truncated output behind)."""
    out = ["# libgcm AES-GCM test vectors; format: vectors/README.md\n"]
    for h in header:
        out.append("# %s\n" % h if h else "#\n")
    out.append("# cases: %d (%d valid, %d invalid)\n" % (
        len(cases), sum(c.valid for c in cases), sum(not c.valid for c in cases)))
    for c in cases:
        out.append("\n")
        out.append(format_case(c))
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="ascii", newline="\n") as f:
        f.write("".join(out))
    os.replace(tmp, path)


def read_file(path):
    """Reads a file in the project format back into Case objects."""
    cases = []
    fields = {}
    start = 0

    def finish(lineno):
        if not fields:
            return
        for req in ("KEY", "NONCE", "AAD", "CT", "TAG", "RESULT"):
            if req not in fields:
                raise ValueError("%s:%d: case lacks %s" % (path, start, req))
        if fields["RESULT"] not in ("valid", "invalid"):
            raise ValueError("%s:%d: bad RESULT" % (path, start))
        cases.append(Case(fields.get("ID"), fields["KEY"], fields["NONCE"],
                          fields["AAD"], fields.get("PT"), fields["CT"],
                          fields["TAG"], fields["RESULT"] == "valid",
                          fields.get("COMMENT")))
        fields.clear()

    with open(path, encoding="ascii") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\r\n").strip()
            if line.startswith("#"):
                continue
            if not line:
                finish(lineno)
                continue
            name, sep, value = line.partition(":")
            if not sep or name not in FIELDS:
                raise ValueError("%s:%d: bad line" % (path, lineno))
            if name in fields:
                raise ValueError("%s:%d: %s given twice" % (path, lineno, name))
            if not fields:
                start = lineno
            value = value.strip()
            fields[name] = bytes.fromhex(value) if name in HEX_FIELDS else value
    finish(None)
    return cases


def main_convert(description, convert, default_name):
    """Shared command line for the converters:

        convert_x.py INPUT OUTPUT [--missing-ok]

    With --missing-ok a missing INPUT is not an error: any stale OUTPUT is
    removed, a note is printed and the exit status is 0 (the build must not
    fail when the external suites are absent; the tests then skip)."""
    import argparse
    p = argparse.ArgumentParser(description=description)
    p.add_argument("input", help="external file to read")
    p.add_argument("output", nargs="?", help="project-format file to write "
                   "(default: %s in the current directory)" % default_name)
    p.add_argument("--missing-ok", action="store_true",
                   help="exit 0 (and remove OUTPUT) when INPUT does not exist")
    args = p.parse_args()
    output = args.output or default_name
    if not os.path.exists(args.input):
        if args.missing_ok:
            if os.path.exists(output):
                os.remove(output)
            print("note: %s not found; skipping conversion" % args.input)
            return 0
        print("error: %s not found" % args.input, file=sys.stderr)
        return 1
    cases, header = convert(args.input)
    write_file(output, cases, header)
    print("%s: %d cases" % (os.path.basename(output), len(cases)))
    return 0
