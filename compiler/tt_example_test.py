"""Runs a tt_example's build-time artifacts: the standalone host binary (main.cpp compiled by Bazel) on
random inputs, compared with the example's ``ref_program`` (see compiler/defs.bzl)."""

import importlib.util
import json
import os
import subprocess

import numpy as np
from tilelang_tt import config
from tilelang_tt.arguments import NUMPY_DTYPES


def _load(path):
    spec = importlib.util.spec_from_file_location("tt_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_program_matches_ref_program(tmp_path):
    plan_path = os.environ["TT_EXAMPLE_PLAN"]
    with open(plan_path) as f:
        plan = json.load(f)
    module = _load(os.environ["TT_EXAMPLE_SRC"])
    rng = np.random.default_rng(0)
    arrays = []
    for t in plan["tensors"]:
        dtype = NUMPY_DTYPES[t["dtype"]]
        if t["access"] == "write":
            arrays.append(np.zeros(t["shape"], dtype))
        else:
            arrays.append(rng.standard_normal(t["shape"]).astype(np.float32).astype(dtype))
    files = []
    for t, a in zip(plan["tensors"], arrays, strict=True):
        files.append(str(tmp_path / f"{t['name']}.bin"))
        a.tofile(files[-1])
    env = dict(os.environ, TT_METAL_MOCK_CACHE_DIR=str(tmp_path / "kernels"))
    env["TT_METAL_MOCK_SHIM_INCLUDE"] = config.find_shim_include() or ""
    kernel_dir = os.path.dirname(os.path.abspath(plan_path))
    result = subprocess.run(
        [os.environ["TT_EXAMPLE_HOST"], kernel_dir, *files], capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr
    inputs = [a for a, t in zip(arrays, plan["tensors"], strict=True) if t["access"] != "write"]
    ref = np.asarray(module.ref_program(*inputs), dtype=np.float32)
    (out,) = [t for t in plan["tensors"] if t["access"] == "write"]
    got = (
        np.fromfile(files[out["param_index"]], NUMPY_DTYPES[out["dtype"]])
        .reshape(out["shape"])
        .astype(np.float32)
    )
    rel = float(np.abs(got - ref).max() / np.abs(ref).max())
    pcc = float(np.corrcoef(got.ravel(), ref.ravel())[0, 1])
    assert rel < 1e-2 and pcc >= 0.999, f"max rel err {rel:.3e}, PCC {pcc:.6f}"
