"""`bazel run //tools:compile -- FILE.py [--run]`: compile a TileLang-TT program.

The compiler package has not landed yet, so this tool cannot compile anything.
"""

import sys


def main() -> int:
    print(
        "tools/compile: not built yet: the tilelang_tt compiler has not landed in this checkout",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
