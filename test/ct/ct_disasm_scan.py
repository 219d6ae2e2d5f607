#!/usr/bin/env python3
"""test/ct/ct_disasm_scan.py: what the compiler made of the constant-time C.

libgcm's C (the bitsliced AES and ct32/ct64 GHASH backends, the C halves of
the assembly backends that expand keys, the fused C loop, the mode engine
and the AEAD layer: everything that handles keys, key stream and tags) is
written without secret-dependent branches, addresses or divisions. The
C source does not decide the machine code, though: the compiler does, and on
ARM neither valgrind nor the perlasm check sees it. This script reads the
disassembly of the built static library and refuses, in those objects, the
three things a compiler can introduce into branch-free C that would make
time depend on data:

  division      x86 div/idiv, ARM udiv/sdiv, or a call to a division helper
                (__aeabi_uidiv, __aeabi_uldivmod, __udivdi3, ...): their
                time depends on the operands on most cores;
  tables        a switch-like lookup table the compiler built (GCC's
                CSWTCH.N objects) or a table branch (Thumb tbb/tbh, an ARM
                `ldr pc, [..., rN]` / `add pc, pc, rN`);
  indirect      an indirect jump (x86 `jmp *`, AArch64 `br`, ARM `bx rN`
                other than `bx lr`, `mov pc, rN`): jump tables compile to
                these; a tail call through a public function pointer would
                too, and would need a reviewed entry in ALLOWED below.

Branches themselves are checked dynamically by the trace check
(ct_trace.sh), which compares the executed path under qemu for different
keys and data, and addresses in C by valgrind on x86 (docs/timing.md).
Multiplies are not refused: the ct32/ct64 GHASH relies on the 32x32 (and
64x64) multiplier taking the same time for every operand, which holds for
the cores libgcm targets (docs/timing.md says which).

Usage: ct_disasm_scan.py [--negative] OBJDUMP NM STATIC_ARCHIVE
Exit status 0 clean, 1 findings (each printed with object, function and
instruction), 2 the tools failed or found nothing to scan.
--negative is the scanner's own negative control (ct_disasm_planted.c):
every object is scanned, and the exit status is 0 only when a division and
a compiler-built lookup table were both reported.
"""
import re
import subprocess
import sys

# Every C object is scanned except those that handle no secret: the CPU
# layer, dispatch and the environment reader, errors, the OS random source,
# the backend queries; and the 4-bit table GHASH, variable-time by design
# and never chosen automatically. So a new backend's descriptor file (which
# often expands its key in C) is covered without touching this list.
# Assembly objects (.S.o) are the perlasm check's.
NOT_SCANNED = re.compile(
    r"^(cpu\w*|dispatch\w*|env\w*|error|os_random|backends|ghash_4bit)\.c\.o$")


class _Scanned:
    @staticmethod
    def match(name):
        return name.endswith(".c.o") and not NOT_SCANNED.match(name)


SCANNED = _Scanned()

# Reviewed exceptions: (object pattern, function pattern, what, reason).
# Each is a construct on public values only; keep the reason exact.
ALLOWED = [
    (r"aes_ct\w*\.c\.o", r"(aes_ct\w*|bitsliced)_set_encrypt_key\w*", "division",
     "i % nk and i / nk in the key expansion: the round-key index and the "
     "key length in words (4, 6 or 8) are public"),
    (r"(stream|oneshot)\.c\.o",
     r"gcm_mode_crypt|crypt_planned|crypt_sized|stream_plan_general[\w.]*|"
     r"gcm_mode_one_shot", "division",
     "the stream planner's arithmetic (crypto/gcm/stream_plan.h), on public "
     "lengths only: (GCM_KS_MAX_BLOCKS / batch) * batch, the buffered "
     "key-stream size in whole batches of the AES backend's "
     "ctr_batch_blocks; blocks % batch: a direct run's length cut to whole "
     "batches, by division only for a batch that is not a power of two "
     "(stream_whole_batches, stream_round_to_batches; a mask otherwise); "
     "(left - GCM_BULK_BLOCKS) / cap: the number of two-pass calls of a long "
     "run (gcm_mode_one_shot: its general case inlines gcm_mode_crypt)"),
    (r"siv\.c\.o", r"hash_runs_from[\w.]*", "indirect jump",
     "a tail call through a function pointer chosen with the key's "
     "backends, public: the fused descriptor's siv_polyval_runs, or for "
     "the last run siv_polyval or the GHASH backend's polyval_update; "
     "which one, and whether taken, by the number of blocks, public"),
]


def kind_of(reason):
    """The class a finding belongs to: a division instruction and a call to
    a division helper (ARM without udiv) are both "division"; an indirect
    jump is one whatever the architecture spells it (jmp *, br, bx rN)."""
    if "division" in reason:
        return "division"
    if reason.startswith("indirect jump"):
        return "indirect jump"
    return reason


def allowed(obj, func, reason):
    for o, f, what, _ in ALLOWED:
        if (re.fullmatch(o, obj) and re.fullmatch(f, func or "")
                and kind_of(reason) == what):
            return True
    return False

DIVISION = re.compile(r"^(div|idiv)[bwlq]?$|^[us]div$")
DIV_HELPER = re.compile(r"__aeabi_u?[il]?div|__aeabi_u?ldivmod|__aeabi_idivmod"
                        r"|__u?(div|mod)[sdt]i3|__udivmod[sdt]i4")
TABLE_BRANCH = re.compile(r"^(tbb|tbh)(\.w)?$")


def run(cmd):
    try:
        return subprocess.run(cmd, check=True, capture_output=True,
                              text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.stderr.write("ct_disasm_scan: %s failed: %s\n" % (cmd[0], e))
        sys.exit(2)


SCAN_ALL = False


def scanned_object(name):
    return SCAN_ALL or SCANNED.match(name)


# An archive member's name as objdump and nm print it: x.c.o, or x.c.obj
# from the Windows builds (MinGW), which is read as x.c.o so the patterns
# above serve both.
MEMBER = r"(\S+\.o(?:bj)?)"


def member_name(name):
    return name[:-2] if name.endswith(".obj") else name


def findings_in(disasm):
    """Yields (object, function, reason, line) for each refused instruction."""
    obj = func = None
    under = False
    for line in disasm.splitlines():
        m = re.match(r"^" + MEMBER + r":\s+file format (\S+)", line)
        if m:
            obj = member_name(m.group(1))
            # win32 COFF puts an underscore before every C name.
            under = m.group(2) == "pe-i386"
            continue
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            func = m.group(1)
            if under and func.startswith("_"):
                func = func[1:]
            continue
        if obj is None or not scanned_object(obj):
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        op, args = m.group(1), m.group(2)
        if op == "notrack":
            op, _, args = args.partition(" ")
        base = re.sub(r"(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)$",
                      "", op) if op.startswith(("ldr", "add", "mov", "bx")) else op
        reason = None
        if DIVISION.match(op):
            reason = "division"
        elif op in ("bl", "blx", "call", "callq", "b", "jmp") and DIV_HELPER.search(args):
            reason = "call to a division helper"
        elif TABLE_BRANCH.match(op):
            reason = "table branch"
        elif (base.startswith("ldr") and re.match(r"^pc,", args)
              and re.search(r"\[\w+,\s*r\d", args)):
            # ldr pc, [rN, rM, lsl #2]: a jump table. (ldr pc, [sp], #4 is a
            # return.)
            reason = "load into pc (jump table)"
        elif base.startswith("add") and re.match(r"^pc,\s*pc,", args):
            reason = "add to pc (jump table)"
        elif base == "mov" and re.match(r"^pc,\s*r\d", args):
            reason = "indirect jump (mov pc)"
        elif base == "bx" and not re.match(r"^lr\b", args):
            reason = "indirect jump (bx)"
        elif (op in ("jmp", "jmpq") and args.startswith("*")
              and re.search(r"%(?!rip\))", args)):
            # Through a register or a register-indexed table. A jump through
            # a fixed pointer (*0x0 on win32, *0x0(%rip): the import table's
            # entry for a tail call into a DLL, as MinGW makes for free) has
            # one target whatever the data.
            reason = "indirect jump"
        elif op == "br":
            reason = "indirect jump (br)"
        if reason and not allowed(obj, func, reason):
            yield obj, func, reason, line.strip()


def main(argv):
    global SCAN_ALL
    negative = len(argv) > 1 and argv[1] == "--negative"
    if negative:
        argv = argv[:1] + argv[2:]
        SCAN_ALL = True
    if len(argv) != 4:
        sys.stderr.write("usage: ct_disasm_scan.py [--negative] OBJDUMP NM "
                         "STATIC_ARCHIVE\n")
        return 2
    objdump, nm, archive = argv[1:]
    disasm = run([objdump, "-d", "--no-show-raw-insn", archive])
    scanned = sorted(set(member_name(m) for m in
                         re.findall(r"^" + MEMBER + r":\s+file format", disasm, re.M)
                         if scanned_object(member_name(m))))
    for o, f, what, why in ALLOWED:
        print("ct_disasm_scan: reviewed: %s %s: %s: %s" % (o, f, what, why))
    if not scanned:
        sys.stderr.write("ct_disasm_scan: no constant-time C object in %s\n"
                         % archive)
        return 2
    bad = list(findings_in(disasm))
    # Compiler-built lookup tables show up as local CSWTCH.N objects.
    member = None
    for line in run([nm, archive]).splitlines():
        m = re.match(r"^" + MEMBER + r":$", line)
        if m:
            member = member_name(m.group(1))
        elif member and scanned_object(member) and "CSWTCH" in line:
            bad.append((member, "-", "compiler-built lookup table",
                        line.strip()))
    for obj, func, reason, line in bad:
        print("ct_disasm_scan: %s: %s: %s: %s" % (obj, func, reason, line))
    print("ct_disasm_scan: %s: %d objects scanned (%s): %s"
          % (archive.rsplit("/", 1)[-1], len(scanned), " ".join(scanned),
             "%d findings" % len(bad) if bad else "clean"))
    if negative:
        kinds = set(reason for _, _, reason, _ in bad)
        seen = {"division": any(k.startswith(("division", "call to a division"))
                                for k in kinds),
                "lookup table": "compiler-built lookup table" in kinds}
        for k, v in seen.items():
            print("ct_disasm_scan: negative control: planted %s %s"
                  % (k, "reported" if v else "NOT REPORTED: the scan is blind"))
        return 0 if all(seen.values()) else 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
