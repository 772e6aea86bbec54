"""Compiles Python sources to checked-hash bytecode files: compile_bytecode SRC... -- OUT... (pairs in order).

Run by //bazel:bytecode.bzl with the venv's interpreter, so the bytecode is the tests' interpreter's.
"""

import py_compile
import sys


def main(argv: list[str]) -> int:
    split = argv.index("--")
    sources, outputs = argv[:split], argv[split + 1 :]
    if len(sources) != len(outputs):
        print(f"compile_bytecode: {len(sources)} sources but {len(outputs)} outputs", file=sys.stderr)
        return 2
    for source, output in zip(sources, outputs, strict=True):
        py_compile.compile(
            source, cfile=output, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
