"""Fuzz: random row-wise tile programs from the grammar of TileLang's 2026 element-wise constructs
(``tile_fuzz_programs.py``: sub-tile blocks, masked and positional ``if``, ``T.clamp``, values of the block
index, row reductions and broadcasts, columns set at a loop's position, int32 tiles, guarded element
stores). Every valid one runs and matches its numpy model; every malformed one is a TTCompileError at the
faulty line with the expected message. Nothing else may happen: no other exception from the compiler, no
hang, no wrong number."""

import collections
import importlib.util
import random

import numpy as np
import tilelang_tt
from tile_fuzz_programs import malformed_tile_program, valid_tile_program
from tilelang_tt.errors import TTCompileError


def _load(path, source: str):
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def test_valid_tile_programs_match_their_numpy_model(fuzz, tmp_path):
    rng = random.Random(fuzz.seed)
    data = np.random.default_rng(fuzz.seed)
    failures = []
    for n in range(fuzz.tile_programs):
        program = valid_tile_program(rng)
        path = tmp_path / f"valid_{n}.py"
        try:
            kernel = tilelang_tt.compile(_load(path, program.source), out_idx=[1])
        except Exception as err:  # noqa: BLE001 -- any compiler failure of a valid program is reported
            failures.append(f"{path}: {type(err).__name__}: {err}")
            continue
        a = data.standard_normal((program.M, program.N)).astype(np.float32)
        expected, got = program.model(a), kernel(a)
        error = float(np.abs(got - expected).max() / max(float(np.abs(expected).max()), 1e-6))
        if not error < 1e-3:
            failures.append(
                f"{path} (blk_m={program.blk_m}): max relative error {error:.3g}\n{program.source}"
            )
    print(f"{fuzz.tile_programs} valid tile programs")
    assert not failures, "\n\n".join(failures)


def test_malformed_tile_programs_are_located_errors(fuzz, tmp_path):
    rng = random.Random(fuzz.seed + 1)
    counts, failures = collections.Counter(), []
    for n in range(fuzz.malformed_tile_programs):
        program = malformed_tile_program(rng)
        counts[program.mutation] += 1
        path = tmp_path / f"malformed_{n}.py"
        try:
            tilelang_tt.compile(_load(path, program.source), out_idx=[1])
            failures.append(f"{program.mutation}: {path} compiled")
        except TTCompileError as err:
            where = (err.filename, err.lineno)
            if where != (str(path), program.fault_line) or program.message not in err.message:
                failures.append(
                    f"{program.mutation}: expected '{program.message}' at line {program.fault_line}, "
                    f"got {err.filename}:{err.lineno}: {err.message}"
                )
        except Exception as err:  # noqa: BLE001 -- a traceback instead of a located error is the failure
            failures.append(f"{program.mutation}: {path}: {type(err).__name__}: {err}")
    print(dict(counts))
    assert not failures, "\n".join(failures)
