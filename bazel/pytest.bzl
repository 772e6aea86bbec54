"""py_pytest: a py_test that runs pytest on its source files.

pytest writes JUnit XML to $XML_OUTPUT_FILE, so `bazel test` and its test.xml show each case. Every test
gets the precompiled headers of host programs and kernels (//runtime_mock:pch): a test that runs programs
on the mock device builds each in about two thirds of the time.
"""

def py_pytest(name, srcs, deps = [], data = [], args = [], **kwargs):
    native.py_test(
        name = name,
        srcs = srcs + ["//bazel:pytest_runner.py"],
        main = "//bazel:pytest_runner.py",
        args = args + ["$(location %s)" % src for src in srcs],
        deps = deps,
        data = data + ["//runtime_mock:pch"],
        python_version = "PY3",
        **kwargs
    )
