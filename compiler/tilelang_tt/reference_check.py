"""Run a compiled kernel on random inputs and compare its outputs with a reference program (TileLang's
``ref_program`` convention). This is the check ``python examples/gemm.py`` and ``//tools:compile --run``
print::

    kernel = tilelang_tt.compile(gemm)
    result = tilelang_tt.check_against_reference(kernel, ref_program)
    print(f"check: {result}")   # check: PASS: max rel err 3.91e-03, PCC 0.999996, ran in 0.52s

Inputs are standard-normal values rounded to each parameter's dtype, outputs start as zeros. The reference
gets, in parameter order, every parameter that is not an output (TileLang's convention: ``out_idx``; when
it is not given, the parameters the kernel only writes), including tensors the kernel reads and writes
(``T.atomic_add`` targets) with their starting values, and returns the outputs: one array, or a tuple in
parameter order, of the ``out_idx`` parameters or else of every written one.
A reference program that is torch code (``torch_interop.wants_torch``: ``torch.softmax``, ``F.*``...) gets
its inputs as torch tensors and may return torch tensors, as upstream's checks are written.
Outputs and references are compared in float32: the worst relative error (to the reference's largest
magnitude) and the lowest Pearson correlation over all outputs.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import numpy as np

from . import torch_interop
from .arguments import NUMPY_DTYPES, caller_shape
from .jit import JITKernel
from .tensor_supply import TensorSupplyType, make_tensor

# A passing check: bf16 inputs with fp32 accumulation stay well inside both bounds.
MAX_RELATIVE_ERROR = 1e-2
MIN_PCC = 0.999


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """How a run compared with the reference; the comparison fields are None when there was none."""

    seconds: float
    max_relative_error: float | None = None
    pcc: float | None = None

    @property
    def passed(self) -> bool | None:
        if self.max_relative_error is None:
            return None
        return self.max_relative_error < MAX_RELATIVE_ERROR and self.pcc >= MIN_PCC

    def __str__(self) -> str:
        if self.passed is None:
            return f"ran in {self.seconds:.2f}s (no ref_program to check against)"
        return (
            f"{'PASS' if self.passed else 'FAIL'}: max rel err {self.max_relative_error:.2e}, "
            f"PCC {self.pcc:.6f}, ran in {self.seconds:.2f}s"
        )


def random_arguments(kernel: JITKernel, rng: np.random.Generator) -> list[np.ndarray]:
    """One array per kernel parameter: random inputs rounded to their dtypes (index tables: small integers,
    masks half set), zeroed outputs."""
    return [
        np.zeros(caller_shape(p), NUMPY_DTYPES[p["dtype"]])
        if p["access"] == "write"
        else make_tensor(TensorSupplyType.Integer, caller_shape(p), p["dtype"], rng)
        if p["page_layout"] == "table"
        else rng.standard_normal(caller_shape(p)).astype(np.float32).astype(NUMPY_DTYPES[p["dtype"]])
        for p in kernel.params
    ]


def compare(got, ref) -> tuple[float, float]:
    """(max relative error, PCC) of an output against its reference, both taken as float32; the error is
    relative to the reference's largest magnitude. A check passes when it is below MAX_RELATIVE_ERROR and
    the PCC at least MIN_PCC."""
    got = np.asarray(torch_interop.to_numpy(got), dtype=np.float32)
    ref = np.asarray(torch_interop.to_numpy(ref), dtype=np.float32)
    error = float(np.abs(got - ref).max() / max(float(np.abs(ref).max()), 1e-30))
    return error, _pcc(got, ref)


def _pcc(got: np.ndarray, ref: np.ndarray) -> float:
    """Pearson correlation; undefined for a constant array, where it is taken as 1 and the relative
    error alone decides."""
    if float(ref.std()) == 0.0 or float(got.std()) == 0.0:
        return 1.0
    return float(np.corrcoef(got.ravel(), ref.ravel())[0, 1])


def check_against_reference(
    kernel: JITKernel,
    ref_program: Callable[..., object] | None,
    rng: np.random.Generator | None = None,
) -> CheckResult:
    """Runs ``kernel`` on random arguments (``rng``, default seed 0) and compares it with ``ref_program``."""
    arrays = random_arguments(kernel, rng if rng is not None else np.random.default_rng(0))
    output_indices = kernel.out_idx or [
        i for i, p in enumerate(kernel.params) if p["access"] in ("write", "read_write")
    ]
    # As TileLang's assert_allclose: the reference gets every parameter that is not an out_idx output
    # (without out_idx: not written only), as it was before the kernel ran, so a tensor the kernel
    # accumulates into (T.atomic_add) reaches it with its starting values.
    pure_outputs = kernel.out_idx or [i for i, p in enumerate(kernel.params) if p["access"] == "write"]
    inputs = [a.copy() for i, a in enumerate(arrays) if i not in pure_outputs]
    start = time.perf_counter()
    kernel(*arrays)
    seconds = time.perf_counter() - start
    if ref_program is None:
        return CheckResult(seconds)
    outputs = [arrays[i] for i in output_indices]
    refs = torch_interop.call_reference(ref_program, inputs)
    refs = list(refs) if isinstance(refs, tuple | list) else [refs]
    if len(refs) != len(outputs):
        raise ValueError(f"ref_program returned {len(refs)} arrays for the kernel's {len(outputs)} outputs")
    errors, pccs = zip(*(compare(got, ref) for got, ref in zip(outputs, refs, strict=True)), strict=True)
    return CheckResult(seconds, max(errors), min(pccs))
