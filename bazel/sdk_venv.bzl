"""sdk_venv: the released TT-Metalium runtime (PyPI's ttnn wheel) in a virtualenv of its own, for checking
generated programs against it without a card (tools/sdk_check).

It installs the hash-pinned lock file with --no-deps (ttnn imports with numpy, loguru and graphviz alone;
its declared dependencies are not needed) into a venv of Python 3.12 (the wheel's only Python besides 3.10),
and puts the stand-in RISC-V compiler where the runtime's JIT build looks for the SFPI toolchain
(ttnn/runtime/sfpi/compiler/bin/riscv-tt-elf-g++). It exposes, in @<name>:
  //:python     the venv's interpreter
The rule re-runs when the lock file, the stand-in or PYTHON312_BIN changes.
"""

load(":venv.bzl", "base_interpreter", "make_venv", "run")

_ENV_PYTHON = "PYTHON312_BIN"  # optional base interpreter (name on PATH or absolute path)

def _impl(rctx):
    base = base_interpreter(rctx, "python3.12", _ENV_PYTHON)
    python = make_venv(rctx, base, rctx.path(rctx.attr.requirements), extra_pip_flags = ["--no-deps"])
    ttnn = run(rctx, [python, "-c", "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('ttnn').origin))"], "locating ttnn").strip()
    compiler = ttnn + "/runtime/sfpi/compiler/bin/riscv-tt-elf-g++"
    run(rctx, ["mkdir", "-p", ttnn + "/runtime/sfpi/compiler/bin"], "making the SFPI bin folder")
    rctx.file(compiler, "#!/bin/sh\nexec '%s' '%s' \"$@\"\n" % (python, rctx.path(rctx.attr.standin_compiler)), executable = True)
    # A wrapper, not a symlink: Python finds its venv from the path it was started by.
    rctx.file("python", "#!/bin/sh\nexec '%s' \"$@\"\n" % python, executable = True)
    rctx.file("BUILD.bazel", 'exports_files(["python"], visibility = ["//visibility:public"])\n')

sdk_venv = repository_rule(
    implementation = _impl,
    attrs = {
        "requirements": attr.label(mandatory = True, allow_single_file = True),
        "standin_compiler": attr.label(mandatory = True, allow_single_file = True),
    },
    environ = [_ENV_PYTHON],
    doc = "Makes a Python 3.12 venv with the pinned ttnn wheel and the stand-in RISC-V compiler.",
)
