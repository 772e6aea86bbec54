"""py_pytest: a py_test that runs pytest on its source files.

pytest writes JUnit XML to $XML_OUTPUT_FILE, so `bazel test` and its test.xml show each case. Every test
gets the precompiled host-program header (//runtime_mock:host_pch): a test that builds host programs then
compiles each in about 2 s instead of 3.6 (runtime_mock.host_flags).
"""

def py_pytest(name, srcs, deps = [], data = [], args = [], **kwargs):
    native.py_test(
        name = name,
        srcs = srcs + ["//bazel:pytest_runner.py"],
        main = "//bazel:pytest_runner.py",
        args = args + ["$(location %s)" % src for src in srcs],
        deps = deps,
        data = data + ["//runtime_mock:host_pch"],
        python_version = "PY3",
        **kwargs
    )
