"""Stand-in for the SFPI toolchain's riscv-tt-elf-g++, which tt-metal's JIT build runs and which is not
obtainable here (bazel/sdk_venv.bzl installs this where the runtime looks for it).

- `--version`: answers like a GCC driver.
- every call: appends its argv (JSON, one line) to $SDK_CHECK_COMPILER_LOG (default /tmp/standin-gxx.log).
- compile (`-c`): replays the command with host `g++ -m32 -fsyntax-only` after dropping the
  RISC-V-only flags, so the kernel source is checked with the JIT's own includes and defines.
  On failure prints the diagnostics, prefixed with the processor, and exits 1.
  If the only problem is a missing SFPI toolchain header (sfpi.h, lltt.h, ...), the result
  depends on $SDK_CHECK_SFPI_MISSING: "fail" (default) exits 1, "skip" records it and exits 0,
  "skip-fw" skips only firmware builds (-DFW_BUILD; Blackhole's TRISC firmware needs lltt.h).
  On success writes a placeholder object at the `-o` path (a real RV32 object).
- link (no `-c`, has `-o`): ignores the inputs and links a placeholder `_start` (which loads a
  data word, so the ELF carries relocations) with the JIT's own `-T` script, `-L` dirs and
  `--just-symbols=` firmware, using Debian's riscv64-unknown-elf binutils.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

LOG = os.environ.get("SDK_CHECK_COMPILER_LOG", "/tmp/standin-gxx.log")
SFPI_MODE = os.environ.get("SDK_CHECK_SFPI_MISSING", "fail")
HOST_GXX = os.environ.get("SDK_CHECK_HOST_GXX", "g++")
SFPI_HEADERS = ("sfpi.h", "lltt.h", "sfpi_fp16.h", "sfpi_hw.h", "sfpi_lib.h", "sfpi_imp.h")
ASM = """\
    .section .start,"ax",@progbits
    .globl _start
_start:
    lui  a0, %hi(standin_word)
    lw   a0, %lo(standin_word)(a0)
1:  j 1b
    .data
    .align 2
standin_word:
    .word 0x57a11d11
"""


def log(record):
    record["t"] = round(time.time(), 3)
    with open(LOG, "a") as f:
        f.write(json.dumps(record) + "\n")


def processor(argv):
    for a in argv:
        m = re.match(r"-DCOMPILE_FOR_(BRISC|NCRISC|ERISC|IDLE_ERISC|DRISC|AERISC)\b", a)
        if m:
            return m.group(1)
        m = re.match(r"-DCOMPILE_FOR_TRISC=(\d)", a)
        if m:
            return "TRISC" + m.group(1)
    for a in argv:
        m = re.search(r"(?:kernel|firmware)_(\w+)\.ld$", a)
        if m:
            return m.group(1).upper()
    return "?"


def host_syntax_cmd(argv):
    # -Wno-attributes: tt_l1_ptr/tt_reg_ptr expand to SFPI-GCC-only attributes (rvtt_l1_ptr, ...)
    out, drop_next = [HOST_GXX, "-m32", "-fsyntax-only", "-Wno-attributes"], False
    for a in argv:
        if drop_next:
            drop_next = False
            continue
        if a in ("-c", "-o", "--param"):
            drop_next = a != "-c"
            continue
        if a == "-Winvalid-pch":  # our .gch files are placeholders; host g++ reads pch.h itself
            continue
        if a.startswith(
            (
                "-ftt-",
                "-flto",
                "-mcpu=",
                "-march=",
                "-mabi=",
                "-mtune=",
                "--param=",
                "-mno-",
                "-mrvtt",
                "-fno-rvtt",
                "-frvtt",
            )
        ) or re.fullmatch(r"-O\w*", a):
            continue
        out.append(a)
    return out


def host_compile_cmd(argv, out_path):
    cmd = host_syntax_cmd(argv)
    if "c++-header" in argv:
        # PCH build: check the header by including it into an empty C++ unit
        i = cmd.index("-x")
        del cmd[i : i + 2]
        hdr = [a for a in cmd[1:] if a.endswith((".h", ".hpp")) and cmd[cmd.index(a) - 1] != "-include"]
        for h in hdr:
            cmd.remove(h)
        cmd += [x for h in hdr for x in ("-include", h)] + ["-x", "c++", "/dev/null"]
    elif out_path and "-MF" in cmd and "-MT" not in cmd:
        cmd += ["-MT", out_path]  # dependency target must be the object the JIT asked for
    return cmd


def compile_step(argv):
    proc = processor(argv)
    out_path = argv[argv.index("-o") + 1] if "-o" in argv else None
    src = [
        a
        for a in argv
        if a.endswith((".cc", ".cpp", ".c", ".S", ".h", ".hpp"))
        and a != out_path
        and argv[argv.index(a) - 1] != "-include"
    ]
    cmd = host_compile_cmd(argv, out_path)
    r = subprocess.run(cmd, capture_output=True, text=True)
    status = "ok"
    if r.returncode != 0:
        missing = re.findall(r"fatal error: (\S+): No such file or directory", r.stderr)
        only_sfpi = (
            missing
            and all(os.path.basename(m) in SFPI_HEADERS for m in missing)
            and r.stderr.count("error:") == len(missing)
        )
        status = "sfpi-missing" if only_sfpi else "error"
    log(
        {
            "step": "compile",
            "proc": proc,
            "src": src,
            "status": status,
            "argv": argv,
            "host_cmd": cmd,
            "stderr": r.stderr[:6000],
        }
    )
    skip = SFPI_MODE == "skip" or (SFPI_MODE == "skip-fw" and "-DFW_BUILD" in argv)
    if status == "error" or (status == "sfpi-missing" and not skip):
        sys.stderr.write(
            f"[standin riscv-tt-elf-g++] {proc} compile FAILED ({status}) for {' '.join(src)}\n{r.stderr}"
        )
        return 1
    if status == "sfpi-missing":
        dep = argv[argv.index("-MF") + 1] if "-MF" in argv else None
        if dep and out_path:  # the host compile stopped early: give the JIT a minimal dependency file
            with open(dep, "w") as f:
                f.write(f"{out_path}: {' '.join(src)}\n")
    if out_path and "c++-header" in argv:
        open(out_path, "wb").close()  # placeholder PCH; host replays read the header text
    elif out_path:
        assemble(out_path)
    return 0


def assemble(obj):
    with tempfile.NamedTemporaryFile("w", suffix=".s", delete=False) as f:
        f.write(ASM)
    try:
        subprocess.run(
            ["riscv64-unknown-elf-as", "-march=rv32i", "-mabi=ilp32", "-o", obj, f.name],
            check=True,
            capture_output=True,
            text=True,
        )
    finally:
        os.unlink(f.name)


def link_step(argv):
    proc = processor(argv)
    out_path = argv[argv.index("-o") + 1]
    ld = ["riscv64-unknown-elf-ld", "-m", "elf32lriscv", "--no-relax"]
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "-T":
            ld += ["-T", argv[i + 1]]
            i += 1
        elif a.startswith("-T"):
            ld += ["-T", a[2:]]
        elif a.startswith("-L"):
            ld.append(a if len(a) > 2 else a + argv[i + 1])
            i += 0 if len(a) > 2 else 1
        elif a.startswith("-Wl,"):
            ld += a[4:].split(",")
        i += 1
    with tempfile.TemporaryDirectory(prefix="standin-ld-") as tmp:
        obj = os.path.join(tmp, "standin.o")
        assemble(obj)
        ld += ["--emit-relocs", obj, "-o", out_path]
        r = subprocess.run(ld, capture_output=True, text=True)
    log(
        {
            "step": "link",
            "proc": proc,
            "out": out_path,
            "status": "ok" if r.returncode == 0 else "error",
            "argv": argv,
            "ld_cmd": ld,
            "stderr": r.stderr[:6000],
        }
    )
    if r.returncode:
        sys.stderr.write(f"[standin riscv-tt-elf-g++] {proc} link FAILED\n{' '.join(ld)}\n{r.stderr}")
    return r.returncode


def main():
    argv = sys.argv[1:]
    if "--version" in argv or argv == ["-v"]:
        print("riscv-tt-elf-g++ (standin for tenstorrent/sfpi:7.89.0) 15.1.0")
        log({"step": "version", "argv": argv})
        return 0
    if "-c" in argv or "c++-header" in argv:  # object compile, or precompiled-header build
        return compile_step(argv)
    if "-o" in argv:
        return link_step(argv)
    # anything else (e.g. -E, -dumpversion): replay on the host and record it
    log({"step": "other", "argv": argv})
    return subprocess.run(host_syntax_cmd(argv)).returncode


if __name__ == "__main__":
    sys.exit(main())
