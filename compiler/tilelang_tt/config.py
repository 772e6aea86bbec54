"""Environment knobs, read in one place.

TILELANG_TT_CACHE_DIR       root of the build cache (kernel directories and host shared objects); default
                            ~/.cache/tilelang_tt, or $TEST_TMPDIR/tilelang_tt inside a Bazel test
TILELANG_TT_KERNEL_CACHE    0 turns off the kernel cache of tilelang.jit factories (kernel_cache.py)
RUNTIME_MOCK_SHIM_INCLUDE   metal_shim/include and runtime_mock/include (the simulator's kernel ABI,
RUNTIME_MOCK_KERNEL_ABI_INCLUDE  runtime_mock/kernel_abi/*.h), the include roots the device JIT-compiles
                            kernels against; each set here from the runfiles or the source tree when the
                            caller has not set it (installed from the wheel, the runtime_mock package finds
                            the copies it bundles by itself)
RUNTIME_MOCK_CACHE_DIR      the device's kernel cache; inside a Bazel test (read-only home) it defaults to
                            <cache root>/kernels
"""

from __future__ import annotations

import os

# compiler/tilelang_tt in the source tree and in runfiles; site-packages/tilelang_tt when installed.
_HERE = os.path.dirname(os.path.abspath(__file__))


CACHE_DIR_VARIABLE = "TILELANG_TT_CACHE_DIR"
KERNEL_CACHE_VARIABLE = "TILELANG_TT_KERNEL_CACHE"
# Set to 1 to validate every tt.plan.json against plan.schema.json while compiling (a debugging aid: the
# compiler's tests validate plans of every kind of program; a normal compile skips the cost).
CHECK_PLAN_VARIABLE = "TILELANG_TT_CHECK_PLAN"


def check_plan() -> bool:
    return os.environ.get(CHECK_PLAN_VARIABLE, "") not in ("", "0")


def cache_root() -> str:
    if os.environ.get(CACHE_DIR_VARIABLE):
        return os.environ[CACHE_DIR_VARIABLE]
    if os.environ.get("TEST_TMPDIR"):
        return os.path.join(os.environ["TEST_TMPDIR"], "tilelang_tt")
    return os.path.join(os.path.expanduser("~"), ".cache", "tilelang_tt")


_cache_disabled_by_call = False  # tilelang.disable_cache(), for the rest of the process


def kernel_cache_enabled() -> bool:
    return os.environ.get(KERNEL_CACHE_VARIABLE, "1") != "0" and not _cache_disabled_by_call


def disable_cache() -> None:
    """TileLang's ``tilelang.disable_cache()``: factories compile every kernel again instead of reading the
    kernel cache (``kernel_cache.py``), as ``TILELANG_TT_KERNEL_CACHE=0`` does."""
    global _cache_disabled_by_call
    _cache_disabled_by_call = True


def enable_cache() -> None:
    """Undoes disable_cache(); ``TILELANG_TT_KERNEL_CACHE=0`` still turns the cache off."""
    global _cache_disabled_by_call
    _cache_disabled_by_call = False


def is_cache_enabled() -> bool:
    return kernel_cache_enabled()


def cache_dir() -> str:
    return os.path.join(cache_root(), "programs")


def tree_file(name: str) -> str:
    """A file at the tree's root that the package reads (``MODULE.bazel``, ``.clang-format``): the copy the
    wheel puts inside the package when installed, else the one at the root of the source or runfiles tree."""
    bundled = os.path.join(_HERE, name)
    return bundled if os.path.exists(bundled) else os.path.normpath(os.path.join(_HERE, "..", "..", name))


def _runfiles_roots() -> list[str]:
    roots = [os.environ[k] for k in ("RUNFILES_DIR", "TEST_SRCDIR") if os.environ.get(k)]
    # compiler/tilelang_tt → the workspace root (source tree, or the runfiles tree of a bazel target)
    roots.append(os.path.normpath(os.path.join(_HERE, "..", "..")))
    return roots


# The device's include roots, in compile order: the variable naming each, and its path in the tree.
INCLUDE_ROOTS = (
    ("RUNTIME_MOCK_SHIM_INCLUDE", ("metal_shim", "include")),
    ("RUNTIME_MOCK_KERNEL_ABI_INCLUDE", ("runtime_mock", "include")),
)


def _in_tree(*parts: str) -> str | None:
    for root in _runfiles_roots():
        for candidate in (os.path.join(root, *parts), os.path.join(root, "__main__", *parts)):
            if os.path.isdir(candidate):
                return candidate
    return None


def find_include_dirs() -> dict[str, str] | None:
    """The include roots kernels and host programs compile against, by variable (INCLUDE_ROOTS): each from
    its variable, else from the runfiles or the source tree, else the copy an installed runtime_mock package
    bundles (the wheel); None when one is not found."""
    found = {variable: os.environ.get(variable) or _in_tree(*parts) for variable, parts in INCLUDE_ROOTS}
    if all(found.values()):
        return found
    installed = _installed_include_dirs()
    if installed is None:
        return None
    return {variable: found[variable] or installed[variable] for variable in found}


def _installed_include_dirs() -> dict[str, str] | None:
    """The device package knows where its headers are (runtime_mock.config); importing it exports them."""
    try:
        from runtime_mock import config as device_config
    except ImportError:
        return None
    return {
        variable: str(path)
        for (variable, _), path in zip(INCLUDE_ROOTS, device_config.include_dirs(), strict=True)
    }


def ensure_device_env() -> None:
    """Defaults for the device package's knobs before it is imported (see the module docstring)."""
    for variable, include in (find_include_dirs() or {}).items():
        os.environ.setdefault(variable, include)
    if os.environ.get("TEST_TMPDIR"):
        os.environ.setdefault("RUNTIME_MOCK_CACHE_DIR", os.path.join(cache_root(), "kernels"))
