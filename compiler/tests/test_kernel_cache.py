"""The kernel cache (kernel_cache.py): a script whose ``@tilelang.jit`` kernels were built before gets them
without importing TVM, and gets the right ones: any change to what the factory builds from (its file, a
helper's file, a helper module it calls into, a value it closes over or reads as a global, its arguments,
its settings) compiles anew.

Each run is a fresh process, as a user running a script twice; the script prints what it needs to be judged
by: whether TVM was imported, and whether the kernel's output matched numpy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = """
import sys
import numpy as np
import tilelang_tt as tilelang
import tilelang_tt.language as T
import scaling
from helper import block_size

SCALE = {scale}


@tilelang.jit(out_idx=[-1]{settings})
def scaled_copy(M, N, dtype="float32"):
    block = block_size()
    factor = SCALE * scaling.factor()

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), dtype)
            B_s = T.alloc_shared((block, block), dtype)
            T.copy(A[by * block, bx * block], A_s)
            for i, j in T.Parallel(block, block):
                B_s[i, j] = A_s[i, j] * factor
            T.copy(B_s, B[by * block, bx * block])

    return main


kernel = scaled_copy({args})
a = np.arange({args_m} * 64, dtype=np.float32).reshape({args_m}, 64) / 100
right = np.allclose(kernel(a), a * SCALE * scaling.factor())
print("tvm" in sys.modules, right, kernel.from_cache, type(kernel.func).__name__)
"""


def write(directory: Path, scale="2.0", settings="", args="64, 64", block=32, factor=1.0) -> None:
    m = args.split(",")[0]
    (directory / "program.py").write_text(SCRIPT.format(scale=scale, settings=settings, args=args, args_m=m))
    (directory / "helper.py").write_text(f"def block_size():\n    return {block}\n")
    (directory / "scaling.py").write_text(f"def factor():\n    return {factor}\n")


def run(directory: Path, cache: Path, **env) -> tuple[bool, bool, bool]:
    """(TVM imported, output right, kernel from the cache) of one run of program.py, whose kernel must
    also give its PrimFunc when asked (a kernel from the cache builds it then)."""
    caches = {"TILELANG_TT_CACHE_DIR": str(cache), "RUNTIME_MOCK_CACHE_DIR": str(cache / "kernels")}
    result = subprocess.run(
        [sys.executable, "program.py"],
        cwd=directory,
        env={**os.environ, **caches, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, f"program.py failed:\n{result.stderr}"
    imported, right, cached, func = result.stdout.split()
    assert func == "PrimFunc", f"kernel.func is a {func}"
    return imported == "True", right == "True", cached == "True"


@pytest.fixture(scope="module")
def device_kernels(tmp_path_factory) -> Path:
    """One device kernel cache for the module: its objects are keyed by their whole source and flags, so
    sharing them only spares the g++ builds of kernels another test built already. What these tests judge is
    the tilelang_tt program cache (TILELANG_TT_CACHE_DIR), which stays each test's own."""
    return tmp_path_factory.mktemp("device_kernels")


@pytest.fixture
def program(tmp_path, device_kernels) -> tuple[Path, Path]:
    directory, cache = tmp_path / "program", tmp_path / "cache"
    directory.mkdir()
    cache.mkdir()
    (cache / "kernels").symlink_to(device_kernels, target_is_directory=True)
    write(directory)
    return directory, cache


def test_a_second_run_takes_its_kernel_from_the_cache_without_tvm(program):
    directory, cache = program
    assert run(directory, cache) == (True, True, False), "the first run compiles"
    assert run(directory, cache) == (False, True, True), "a second run should neither compile nor import TVM"
    (entry,) = (cache / "programs" / "jit").glob("*.json")
    assert json.loads(entry.read_text())["name"] == "main"


@pytest.mark.parametrize(
    "change",
    [
        pytest.param({"scale": "3.0"}, id="a_global_value"),
        pytest.param({"block": 64}, id="a_helper_file"),
        pytest.param({"factor": 0.5}, id="a_helper_module"),
        pytest.param({"args": "128, 64"}, id="the_arguments"),
        pytest.param({"settings": ', partition="row_major"'}, id="the_settings"),
    ],
)
def test_a_change_to_what_the_kernel_is_built_from_compiles_it_again(program, change):
    directory, cache = program
    run(directory, cache)
    write(directory, **change)
    imported, right, cached = run(directory, cache)
    assert (imported, cached) == (True, False), f"a changed {list(change)[0]} reused the cached kernel"
    assert right, "the recompiled kernel gave a wrong answer"


def test_a_damaged_entry_is_compiled_again(program):
    directory, cache = program
    run(directory, cache)
    (entry,) = (cache / "programs" / "jit").glob("*.json")
    entry.write_text('{"format": 1, "name": "main", "artifacts": {')
    assert run(directory, cache) == (True, True, False)
    assert run(directory, cache) == (False, True, True), "the rewritten entry should serve the next run"


def test_the_cache_can_be_turned_off(program):
    directory, cache = program
    run(directory, cache)
    assert run(directory, cache, TILELANG_TT_KERNEL_CACHE="0") == (True, True, False)


def test_importing_the_package_imports_neither_tvm_nor_torch():
    code = textwrap.dedent(
        """
        import sys
        import tilelang_tt, tilelang_tt.language as T
        print(sorted(m for m in ("tvm", "tvm_ffi", "torch") if m in sys.modules))
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", f"import tilelang_tt imported {result.stdout.strip()}"


def test_tvm_is_imported_without_torch_unless_the_program_imported_torch():
    code = textwrap.dedent(
        """
        import sys
        import tilelang_tt, tilelang_tt.language as T
        T.prim_func  # the first DSL name imports TVM
        print("tvm" in sys.modules, "torch" in sys.modules)
        import torch
        print(torch.ones(2).sum().item())
        """
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "False", "2.0"], result.stdout


def _a_factory(n):
    return n


def test_tilelang_disable_cache_turns_the_cache_off_for_the_process(monkeypatch):
    import tilelang_tt as tilelang
    from tilelang_tt import kernel_cache

    monkeypatch.delenv("TILELANG_TT_KERNEL_CACHE", raising=False)
    assert tilelang.is_cache_enabled()
    assert kernel_cache.entry_key(_a_factory, {"n": 1}, {}) is not None
    tilelang.disable_cache()
    try:
        assert not tilelang.is_cache_enabled()
        assert kernel_cache.entry_key(_a_factory, {"n": 1}, {}) is None, "disable_cache() left the cache on"
    finally:
        tilelang.enable_cache()
    assert tilelang.is_cache_enabled()
