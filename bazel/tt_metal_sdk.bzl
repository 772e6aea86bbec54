"""tt_metal_sdk: the real TT-Metalium SDK at $TT_METAL_HOME as @<name>//:sdk.

Only `--config=tt_metal` builds depend on it (through //:metalium). `environ` re-runs the rule
when TT_METAL_HOME changes (set it in the shell or with --repo_env=TT_METAL_HOME=...). When the
variable is unset the repository still exists, so `bazel query //...` works, but building
@<name>//:sdk fails with a message naming TT_METAL_HOME.
"""

# The SDK's include directories, as its JIT build and CMake package use them.
_INCLUDE_DIRS = [
    "tt_metal/api",
    "tt_metal/hw/inc",
    "tt_metal/include",
    "tt_metal/hostdevcommon/api",
    "tt_metal",
    "tt_stl",
    ".",
]

# Where its headers live (globbing the whole tree would walk its build outputs too).
_HEADER_DIRS = ["tt_metal/api", "tt_metal/hw/inc", "tt_metal/include", "tt_metal/hostdevcommon", "tt_stl"]

_MISSING = """\
package(default_visibility = ["//visibility:public"])

genrule(
    name = "tt_metal_home_missing",
    outs = ["tt_metal_home_missing.h"],
    cmd = "echo '--config=tt_metal needs TT_METAL_HOME: export TT_METAL_HOME=/path/to/tt-metal (or pass --repo_env=TT_METAL_HOME=...)' >&2; exit 1",
)

cc_library(
    name = "sdk",
    hdrs = [":tt_metal_home_missing.h"],
)
"""

_SDK = """\
package(default_visibility = ["//visibility:public"])

# TT_METAL_HOME = {home}
cc_library(
    name = "sdk",
    hdrs = glob([{globs}], allow_empty = True),
    includes = [{includes}],
    srcs = glob(["sdk/build/lib/*.so"], allow_empty = True),
)
"""

def _impl(rctx):
    home = rctx.os.environ.get("TT_METAL_HOME", "")
    if not home:
        rctx.file("BUILD.bazel", _MISSING)
        return
    root = rctx.path(home)
    if not root.exists:
        fail("TT_METAL_HOME=%s does not exist" % home)
    rctx.symlink(root, "sdk")
    rctx.file("BUILD.bazel", _SDK.format(
        home = home,
        includes = ", ".join(['"sdk/%s"' % d for d in _INCLUDE_DIRS]),
        globs = ", ".join(['"sdk/%s/**/*.h", "sdk/%s/**/*.hpp"' % (d, d) for d in _HEADER_DIRS]),
    ))

tt_metal_sdk = repository_rule(
    implementation = _impl,
    environ = ["TT_METAL_HOME"],
    local = True,
    doc = "Exposes the TT-Metalium SDK at $TT_METAL_HOME for --config=tt_metal builds.",
)
