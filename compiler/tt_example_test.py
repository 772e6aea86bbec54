"""Runs a tt_example's build-time artifacts: the standalone host binary (main.cpp compiled by Bazel) on
random inputs and the plan's sizes, compared with the example's ``ref_program`` (see compiler/defs.bzl)."""

import importlib.util
import json
import os
import subprocess

import numpy as np
from tilelang_tt import config, host_sizes
from tilelang_tt.arguments import NUMPY_DTYPES, caller_shape
from tilelang_tt.reference_check import MAX_RELATIVE_ERROR, MIN_PCC, compare


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
            arrays.append(np.zeros(caller_shape(t), dtype))
        else:
            arrays.append(rng.standard_normal(caller_shape(t)).astype(np.float32).astype(dtype))
    files = []
    for t, a in zip(plan["tensors"], arrays, strict=True):
        files.append(str(tmp_path / f"{t['name']}.bin"))
        a.tofile(files[-1])
    env = dict(os.environ, RUNTIME_MOCK_CACHE_DIR=str(tmp_path / "kernels"))
    env.update(config.find_include_dirs() or {})
    kernel_dir = os.path.dirname(os.path.abspath(plan_path))
    sizes = ",".join(str(v) for v in host_sizes.values(plan))
    result = subprocess.run(
        [os.environ["TT_EXAMPLE_HOST"], kernel_dir, sizes, *files], capture_output=True, text=True, env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr
    inputs = [a for a, t in zip(arrays, plan["tensors"], strict=True) if t["access"] != "write"]
    refs = module.ref_program(*inputs)
    refs = list(refs) if isinstance(refs, tuple | list) else [refs]
    outputs = [t for t in plan["tensors"] if t["access"] == "write"]
    assert len(refs) == len(outputs), f"ref_program gives {len(refs)} arrays for {len(outputs)} outputs"
    for out, ref in zip(outputs, refs, strict=True):
        got = np.fromfile(files[out["param_index"]], NUMPY_DTYPES[out["dtype"]]).reshape(caller_shape(out))
        rel, pcc = compare(got, np.asarray(ref))
        assert rel < MAX_RELATIVE_ERROR and pcc >= MIN_PCC, (
            f"{out['name']}: max rel err {rel:.3e}, PCC {pcc:.6f}"
        )
