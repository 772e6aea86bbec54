"""py_bytecode: a package's Python sources compiled to bytecode where the interpreter looks for it.

A test's runfiles link each source file, and the sandbox cannot write the __pycache__ beside it, so every
Python process of every test would compile the modules it imports again (about a CPU-second for the
compiler). Built once here, as checked-hash .pyc files (valid while the source's hash matches, whatever its
timestamps: a fresh clone, a sandbox), and made data of the library, they sit at
<dir>/__pycache__/<module>.<tag>.pyc in the runfiles, where the import system reads them.
"""

load("@py_venv//:interpreter.bzl", "PYC_TAG")

def py_bytecode(name, srcs, **kwargs):
    """The bytecode of ``srcs`` (.py files of this package), one .pyc each, as a genrule named ``name``."""
    outs = []
    for src in srcs:
        directory, _, module = src.rpartition("/")
        prefix = directory + "/" if directory else ""
        outs.append("{}__pycache__/{}.{}.pyc".format(prefix, module[:-len(".py")], PYC_TAG))
    native.genrule(
        name = name,
        srcs = srcs,
        outs = outs,
        cmd = "$(execpath //bazel:compile_bytecode) $(SRCS) -- $(OUTS)",
        tools = ["//bazel:compile_bytecode"],
        **kwargs
    )
