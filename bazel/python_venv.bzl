"""python_venv: a repository rule that makes a virtualenv from a hash-pinned lock file.

It exposes, in @<name>:
  //:py_toolchain     the venv as Bazel's Python toolchain (register_toolchains it)
  //:python_headers   cc_library with the interpreter's Python.h
  //:pybind11         cc_library with pybind11's headers (and Python.h)
  //:interpreter.bzl  PYC_TAG, the interpreter's bytecode cache tag (``cpython-311``), for //bazel:bytecode.bzl

The venv directory is named after a hash of the lock file and the interpreter's version. Its path
is baked into every Python launcher, so a change to the lock file changes the launchers and
re-runs the affected tests. The rule re-runs when the lock file or PYTHON_BIN changes, or on
`bazel sync --only=<name>`; plain `bazel sync` fails offline (it fetches every default repo).
"""

load(":venv.bzl", "base_interpreter", "make_venv", "run")

_ENV_PYTHON = "PYTHON_BIN"  # optional base interpreter (name on PATH or absolute path)

def _impl(rctx):
    base = base_interpreter(rctx, rctx.attr.python, _ENV_PYTHON)
    python = make_venv(rctx, base, rctx.path(rctx.attr.requirements), timeout = rctx.attr.timeout)

    paths = run(rctx, [python, "-c", "; ".join([
        "import sys, sysconfig, pybind11",
        "print(sysconfig.get_paths()['include'])",
        "print(pybind11.get_include())",
        "print(sys.implementation.cache_tag)",
    ])], "asking the venv for its include directories and bytecode tag").strip().split("\n")
    rctx.symlink(paths[0], "python_include")
    rctx.symlink(paths[1], "pybind11_include")
    rctx.file("interpreter.bzl", "PYC_TAG = \"{}\"\n".format(paths[2]))

    rctx.file("BUILD.bazel", """\
load("@bazel_tools//tools/python:toolchain.bzl", "py_runtime_pair")

package(default_visibility = ["//visibility:public"])

py_runtime(
    name = "py3_runtime",
    interpreter_path = "{python}",
    python_version = "PY3",
    # Launchers run through this shebang, so no python3 is needed on the action PATH.
    stub_shebang = "#!{python}",
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":py3_runtime",
)

toolchain(
    name = "py_toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)

cc_library(
    name = "python_headers",
    hdrs = glob(["python_include/**/*.h"]),
    includes = ["python_include"],
)

cc_library(
    name = "pybind11",
    hdrs = glob(["pybind11_include/**/*.h"]),
    includes = ["pybind11_include"],
    deps = [":python_headers"],
)
""".format(python = str(python)))

python_venv = repository_rule(
    implementation = _impl,
    attrs = {
        "requirements": attr.label(mandatory = True, allow_single_file = True),
        "python": attr.string(default = "python3"),
        "timeout": attr.int(default = 1800),
    },
    environ = [_ENV_PYTHON],
    doc = "Makes a venv from a hash-pinned lock file and offers it as the Python toolchain.",
)
