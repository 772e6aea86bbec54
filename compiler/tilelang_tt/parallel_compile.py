"""TileLang's parallel compile: ``tilelang.par_compile(funcs, ...)`` and ``factory.par_compile(configs)``.

    kernels = matmul.par_compile([{"block_M": 64}, {"block_M": 128}], num_workers=2)
    kernels = tilelang.par_compile([f.get_tir(...) for f in factories], out_idx=[-1])

Upstream compiles on threads (its lowering releases the GIL, nvcc is a subprocess). This compiler's passes
are Python, so threads would share one interpreter: the kernels are compiled by ``num_workers`` processes
forked from this one (default: one per kernel, at most one per CPU this process may use), which inherit
the functions to compile and send back each kernel as plain data (``kernel_cache.portable``); this process
rebuilds them without compiling again. A kernel that cannot travel that way (a StagedKernel) is compiled
here. A kernel that fails raises its error here, in order; with ``ignore_error`` it is None instead, and a
warning names the error.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable

from . import kernel_cache
from .errors import TTError
from .tuning_pool import forked_map


def compile_all(
    compile_one: Callable, rebuild: Callable, items: list, num_workers: int | None, ignore_error: bool
) -> list:
    """``[compile_one(item) for item in items]`` as the module docstring says; ``rebuild(item)`` gives an
    item's PrimFunc, for a kernel sent back by a worker when its ``func`` is asked for."""
    available = len(os.sched_getaffinity(0))
    workers = min(len(items), num_workers if num_workers is not None else available)
    sent = [None] * len(items)
    if workers > 1:
        # Workers get indices: an item may be a PrimFunc, which TVM cannot pickle (it inherits the items).
        sent = forked_map(
            lambda index: _compiled_in_worker(compile_one, items[index]), list(range(len(items))), workers
        )
    kernels = []
    for index, (item, outcome) in enumerate(zip(items, sent, strict=True)):
        try:
            if isinstance(outcome, TTError):
                raise outcome
            kernel = kernel_cache.from_portable(outcome, lambda item=item: rebuild(item))
            kernels.append(kernel if kernel is not None else compile_one(item))
        except TTError as err:
            if not ignore_error:
                raise
            warnings.warn(f"par_compile: kernel {index} did not compile: {err}", stacklevel=3)
            kernels.append(None)
    return kernels


def _compiled_in_worker(compile_one: Callable, item):
    """In a worker: the kernel as plain data, None when it cannot travel (compiled again by the caller),
    or the TTError compiling it raised (it pickles as its rendered message, with its location)."""
    try:
        return kernel_cache.portable(compile_one(item))
    except TTError as err:
        return err
