"""Fuzz: random valid GEMM programs, written in TileLang's style with random shapes, blocks, dtypes,
transposes, stages, C staging, batches (3-D grids), spellings, partitions and targets, all match numpy on
random inputs.

Every distinct program costs a host-program and kernel build (about 5 s here), so a run draws
``--fuzz-configs`` programs and spreads ``--fuzz-valid`` calls over them, each with fresh inputs from a
random distribution (normal, uniform, small integers, rows of different scale)."""

import collections
import importlib.util
import random

import numpy as np
import tilelang_tt
from fuzz_programs import random_config, valid_program
from tilelang_tt.arguments import NUMPY_DTYPES
from tilelang_tt.reference_check import MAX_RELATIVE_ERROR, MIN_PCC, compare


def _inputs(rng: np.random.Generator, kernel, kind: str) -> list[np.ndarray]:
    arrays = []
    for p in kernel.params[:2]:
        shape = p["shape"]
        if kind == "normal":
            values = rng.standard_normal(shape)
        elif kind == "uniform":
            values = rng.uniform(-1, 1, shape)
        elif kind == "small_integers":
            values = rng.integers(-4, 5, shape)
        else:  # rows whose scales differ by 1e2 (more would overflow float16 outputs)
            values = rng.standard_normal(shape) * 10.0 ** rng.integers(-1, 2, (*shape[:-1], 1))
        arrays.append(values.astype(np.float32).astype(NUMPY_DTYPES[p["dtype"]]))
    return arrays


def _check(kernel, program, a, b) -> str | None:
    c = kernel(a, b)
    bf = b.astype(np.float32)
    ref = a.astype(np.float32) @ (np.swapaxes(bf, -1, -2) if program.config.trans_b else bf)
    rel, pcc = compare(c, ref)
    if rel < MAX_RELATIVE_ERROR and pcc >= MIN_PCC:
        return None
    return f"max rel err {rel:.3e}, PCC {pcc:.6f}"


def test_valid_programs_match_numpy(fuzz, tmp_path):
    rng = random.Random(fuzz.seed)
    data_rng = np.random.default_rng(fuzz.seed)
    configs = list(dict.fromkeys(random_config(rng, batched=True) for _ in range(fuzz.configs)))
    kernels = []
    for index, config in enumerate(configs):
        program = valid_program(rng, config)
        path = tmp_path / f"valid_{index:03d}.py"
        path.write_text(program.source)
        spec = importlib.util.spec_from_file_location(f"fuzz_valid_{index}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        kernel = tilelang_tt.compile(
            module.main, out_idx=[-1], partition=config.partition, target=config.target
        )
        kernels.append((path, program, kernel))
    failures, runs = [], collections.Counter()
    for _ in range(fuzz.valid):
        path, program, kernel = rng.choice(kernels)
        kind = rng.choice(("normal", "uniform", "small_integers", "mixed_scale"))
        runs[path.name] += 1
        problem = _check(kernel, program, *_inputs(data_rng, kernel, kind))
        if problem:
            failures.append(f"{path.name} {program.config} on {kind} inputs: {problem}")
    print(
        f"fuzz: {fuzz.valid} valid calls of {len(kernels)} random programs (seed {fuzz.seed}), "
        f"{len(failures)} wrong"
    )
    for path, program, _ in kernels:
        print(f"  {path.name}: {runs[path.name]} calls, {program.config}")
    assert not failures, "\n".join(failures[:20])
