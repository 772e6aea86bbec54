"""py_pytest: a py_test that runs pytest on its source files.

pytest writes JUnit XML to $XML_OUTPUT_FILE, so `bazel test` and its test.xml show each case.
"""

def py_pytest(name, srcs, deps = [], data = [], args = [], **kwargs):
    native.py_test(
        name = name,
        srcs = srcs + ["//bazel:pytest_runner.py"],
        main = "//bazel:pytest_runner.py",
        args = args + ["$(location %s)" % src for src in srcs],
        deps = deps,
        data = data,
        python_version = "PY3",
        **kwargs
    )
