"""Fuzz: every malformed DSL program (a valid GEMM with one mutation: bad dtype, shape, block, region,
name, argument, grid, unsupported construct...) is rejected with the TTError its mutation calls for
(class and message), pointing at the right line of the program's file — never accepted, never another
exception."""

import collections
import importlib.util
import random
import re

import tilelang_tt
import tvm
from fuzz_programs import EXPECTED, malformed_program
from tilelang_tt.errors import TTError


def _outcome(path, program, index: int) -> str | None:
    """None when the program is rejected as it must be, else what went wrong."""
    try:
        spec = importlib.util.spec_from_file_location(f"fuzz_malformed_{index}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        func = module.main
        if not isinstance(func, tvm.tirx.PrimFunc):
            return f"main is a {type(func).__name__}, not a PrimFunc"
        c = program.config
        tilelang_tt.compile(func, out_idx=[-1], partition=c.partition, target=c.target)
    except TTError as err:
        if getattr(err, "filename", None) != str(path) or not getattr(err, "lineno", None):
            return f"{type(err).__name__} without the program's location: {err}"
        if program.fault_line is not None and err.lineno != program.fault_line:
            return f"{type(err).__name__} at line {err.lineno}, expected line {program.fault_line}: {err}"
        kind, pattern = EXPECTED[program.mutation]
        if type(err).__name__ != kind or not re.search(pattern, err.message):
            return f"{type(err).__name__}, expected a {kind} matching {pattern!r}: {err}"
        return None
    except Exception as err:  # noqa: BLE001 - any other exception is the failure being looked for
        return f"crash: {type(err).__name__}: {err}"
    return "accepted: compiled without an error"


def test_malformed_programs_are_located_errors(fuzz, tmp_path):
    rng = random.Random(fuzz.seed)
    tried = collections.Counter()
    failures = []
    for index in range(fuzz.malformed):
        program = malformed_program(rng)
        path = tmp_path / f"malformed_{index:04d}_{program.mutation}.py"
        path.write_text(program.source)
        tried[program.mutation] += 1
        problem = _outcome(path, program, index)
        if problem is not None:
            failures.append(f"{path.name} ({program.mutation}): {problem}")
    print(
        f"fuzz: {fuzz.malformed} malformed programs (seed {fuzz.seed}), {len(failures)} not rejected properly"
    )
    for mutation, count in sorted(tried.items()):
        print(f"  {mutation:28s} {count}")
    assert not failures, "\n".join(failures[:20])
