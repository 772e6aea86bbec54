"""A kernel of several device programs: a function of several ``T.Kernel`` blocks, or with ``T.alloc_global``
workspaces (``stages.py``), compiled as one JITKernel per block and called as one kernel.

    kernel = tilelang_tt.compile(flash_decoding, out_idx=[3])   # split and combine: a StagedKernel
    O = kernel(Q, K, V)              # runs kernel1 then kernel2; workspaces are allocated per call
    kernel.programs                  # [JITKernel "..._kernel1", JITKernel "..._kernel2"]
    kernel.write_artifacts("out/")   # out/<program>/reader.cpp ... tt.plan.json, one folder per program

A call binds its arguments as a JITKernel does (``arguments.py``), allocates each workspace zeroed, and runs
the programs in launch order, each on the tensors it uses; each program's host program moves its tensors
to and from the device, so a workspace crosses the host between programs (on a card, a program that kept
them on the device would save that traffic; the modelled device time, which counts no host transfers,
is the same). Profiling covers every program of the call.
"""

from __future__ import annotations

import dataclasses
import os
import time

import numpy as np
from tvm import tirx

from .arguments import NUMPY_DTYPES, bind_arguments, caller_shape, output_indices
from .jit import CompiledKernel, JITKernel, function_name
from .options import CompileOptions
from .stages import Stage

__all__ = ["StagedKernel"]


def _merged_access(accesses: list[str]) -> str:
    """One tensor's access over the programs that use it (each read | write | read_write | unused)."""
    reads = any(a in ("read", "read_write") for a in accesses)
    writes = any(a in ("write", "read_write") for a in accesses)
    return {(False, False): "unused", (True, False): "read", (False, True): "write"}.get(
        (reads, writes), "read_write"
    )


class StagedKernel(CompiledKernel):
    """The programs of one function, called as one kernel (TileLang's ``JITKernel`` surface)."""

    def __init__(
        self, func: tirx.PrimFunc, stages: list[Stage], options: CompileOptions, dump_ir: str | None = None
    ):
        self.func = func
        self.options = options
        self.name = function_name(func)
        start = time.perf_counter()
        program_options = dataclasses.replace(options, out_idx=())  # a program's call is given every tensor
        self.stages = stages
        self.programs: list[JITKernel] = [
            JITKernel(s.func, program_options, dump_ir=os.path.join(dump_ir, s.name) if dump_ir else None)
            for s in stages
        ]
        self.compile_seconds = time.perf_counter() - start
        self.params, self.workspaces = self._tensors()
        self.out_idx = output_indices(self.params, options.out_idx, self.name)

    def _tensors(self) -> tuple[list[dict], list[dict]]:
        """The function's tensor parameters, as a plan lists them (shape, dtype, access over all programs),
        and its workspaces; a tensor no program uses keeps its declared shape and dtype, access "unused"."""
        entries: dict[str, list[dict]] = {}
        for program in self.programs:
            for tensor in program.params:
                entries.setdefault(tensor["name"], []).append(tensor)
        params = []
        for var in self.func.params:
            if not isinstance(getattr(var, "ty", None), tirx.BufferType):
                continue
            used = entries.get(str(var.name))
            if used is None:
                shape = [int(x) for x in var.ty.shape]
                params.append(
                    {"name": str(var.name), "dtype": str(var.ty.dtype), "shape": shape, "access": "unused"}
                )
                continue
            params.append({**used[0], "access": _merged_access([t["access"] for t in used])})
        workspaces = dict.fromkeys(w for s in self.stages for w in s.workspaces)  # first use order
        return params, [entries[n][0] for n in workspaces]

    @property
    def artifacts(self) -> dict[str, str]:
        """Every program's artifacts, keyed "<program>/<file>"."""
        return {f"{p.name}/{n}": text for p in self.programs for n, text in p.artifacts.items()}

    @property
    def pass_timings(self) -> list[tuple[str, float]]:
        return [t for p in self.programs for t in p.pass_timings]

    @property
    def cores_used(self) -> int:
        return max(p.cores_used for p in self.programs)

    def get_kernel_source(self, which: str | None = None) -> str:
        """One artifact by key ("<program>/compute.cpp"), or every program's three kernels in turn."""
        if which is not None:
            return self.artifacts[which]
        return "\n".join(
            f"// ===== {p.name}/{n} =====\n{p.artifacts[n]}"
            for p in self.programs
            for n in ("reader.cpp", "compute.cpp", "writer.cpp")
        )

    def write_artifacts(self, path: str) -> list[str]:
        """Each program's artifacts into ``path``/<program>/."""
        return [w for p in self.programs for w in p.write_artifacts(os.path.join(path, p.name))]

    def build(self) -> None:
        """Write every program's artifacts and build (or reuse) their host objects."""
        for program in self.programs:
            program.build()

    def __call__(self, *args):
        call = bind_arguments(self.params, self.out_idx, args, self.name)
        arrays = {p["name"]: a for p, a in zip(self.params, call.device, strict=True)}
        for w in self.workspaces:
            arrays[w["name"]] = np.zeros(caller_shape(w), NUMPY_DTYPES[w["dtype"]])
        for program in self.programs:
            program(*(arrays[t["name"]] for t in program.params))
        return call.finish()
