"""Entry point of every py_pytest target: runs pytest on the files given as arguments.

Bazel runs tests in a read-only runfiles tree: pytest's cache is turned off, and hypothesis's
example database and the mock device's kernel cache go to the test's own temporary directory.
"""

import os
import sys

import pytest


def main() -> int:
    tmp = os.environ.get("TEST_TMPDIR")
    if tmp:
        os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tmp, "hypothesis"))
        os.environ.setdefault("RUNTIME_MOCK_CACHE_DIR", os.path.join(tmp, "kernel_cache"))
    args = ["-p", "no:cacheprovider", *sys.argv[1:]]
    if "XML_OUTPUT_FILE" in os.environ:
        args.append("--junitxml=" + os.environ["XML_OUTPUT_FILE"])
    return pytest.main(args)


if __name__ == "__main__":
    sys.exit(main())
