"""A kernel of several device programs: a function of several ``T.Kernel`` blocks, or with ``T.alloc_global``
workspaces (``stages.py``), compiled as one JITKernel per block and called as one kernel.

    kernel = tilelang_tt.compile(flash_decoding, out_idx=[3])   # split and combine: a StagedKernel
    O = kernel(Q, K, V)              # runs kernel1 then kernel2; workspaces are allocated per call
    kernel.programs                  # [JITKernel "..._kernel1", JITKernel "..._kernel2"]
    kernel.write_artifacts("out/")   # out/<program>/reader.cpp ... tt.plan.json, one folder per program

A call binds its arguments as a JITKernel does (``arguments.py``), allocates each workspace zeroed, and runs
the programs in launch order on one device through one host program (``SequenceHost``): every tensor's
buffer lives for the whole call, so what one program writes (a workspace, an output sharded in L1) the next
reads where it lies, without a round trip through the host. A tensor one program copies one row at a time
(stored a page per row) is stored so in the others too (their tile copies of it move runs of rows).
Programs that still place a shared tensor differently (another dimension order or shard grid:
``codegen.host.sequence_mismatch``) run instead one host program each, the tensor crossing the host
between them (``kernel.sequence_host`` is then None and ``kernel.why_separate`` says why). Profiling covers
every program of the call.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from pathlib import Path

import numpy as np
from tvm import tirx

from .arguments import NUMPY_DTYPES, bind_arguments, caller_shape, output_indices
from .codegen.formatting import format_sources
from .codegen.host import render_sequence_host, sequence_mismatch
from .errors import TTCompileError
from .host_sizes import sequence_values
from .jit import KERNEL_FILES, CompiledKernel, JITKernel, function_name, require_mock_device
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


class SequenceHost(JITKernel):
    """The host program running a StagedKernel's programs one after another on one device, with the
    kernels of each program in <kernel dir>/<program>/ (codegen.host.render_sequence_host). It has no
    PrimFunc of its own: it takes JITKernel's build, cache and run machinery over artifacts made from the
    programs'."""

    def __init__(self, name: str, options: CompileOptions, programs: list[JITKernel], tensors: list[dict]):
        plans = [p.plan for p in programs]
        source = plans[0]["source"] or "a TileLang-TT program"
        text, self.sizes_of = render_sequence_host(name, source, tensors, plans)
        text = format_sources({"main.cpp": text})["main.cpp"]  # the safety net of every rendered source
        self.name, self.options, self.programs_run = name, options, programs
        self._func = self._rebuild = self._lowered = None
        self.from_cache = False
        self.pass_timings = []
        self.codegen_seconds = self.compile_seconds = 0.0
        self.artifacts = {"main.cpp": text}
        self.kernel_files = {f"{p.name}/{f}": p.artifacts[f] for p in programs for f in KERNEL_FILES}
        self.params = tensors
        self.plan = {"programs": plans}
        self._host = None
        self._memo: dict[str, tuple[tuple, str]] = {}
        self._checked: dict = {}

    @property
    def kernels_hash(self) -> str:
        named = tuple(self.kernel_files.items())
        return self._memoised(
            "kernels", (self.options, named), lambda: self._digest(repr(self.options), named)
        )

    def _kernel_directory(self) -> Path:
        """<cache>/programs/sequences/<kernels hash>/<program>/ holding each program's three kernels."""
        return self._artifact_directory(Path("sequences") / self.kernels_hash, self.kernel_files)

    def _prebuild_kernels(self, runtime_mock) -> None:
        for program in self.programs_run:
            program._prebuild_kernels(runtime_mock)

    def run(self, arrays: list[np.ndarray]) -> None:
        """Every program on ``arrays`` (one per tensor, in place)."""
        self._run_on_device(arrays, sequence_values(self.sizes_of, self.plan["programs"]))


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
        dump = [os.path.join(dump_ir, s.name) if dump_ir else None for s in stages]
        self.programs: list[JITKernel] = [
            JITKernel(s.func, program_options, dump_ir=d) for s, d in zip(stages, dump, strict=True)
        ]
        self._store_rows_alike(program_options, dump)
        self.compile_seconds = time.perf_counter() - start
        self.params, self.workspaces = self._tensors()
        self.out_idx = output_indices(self.params, options.out_idx, self.name)
        self.why_separate = sequence_mismatch([p.plan for p in self.programs])
        self.sequence_host = None
        if self.why_separate is None:
            device = [p for p in self.params if p["access"] != "unused"]
            device += [{**w, "access": "workspace"} for w in self.workspaces]
            self.sequence_host = SequenceHost(self.name, options, self.programs, device)

    def _store_rows_alike(self, options: CompileOptions, dump: list[str | None]) -> None:
        """A tensor one program stores a page per row (it copies it one row at a time) and another as
        tiles: the other is compiled again with the tensor's rows as pages too (``tt.row_pages``, its tile
        copies then move runs of rows), so that both share one buffer. Should that fail, the programs stay
        as they are and run one host program each."""
        row_paged = {
            t["name"]
            for p in self.programs
            for t in p.plan["tensors"]
            if t["page_layout"] == "row_major" and t["access"] != "unused"
        }
        for k, (stage, program) in enumerate(zip(self.stages, self.programs, strict=True)):
            tiled = sorted(
                t["name"]
                for t in program.plan["tensors"]
                if t["name"] in row_paged and t["page_layout"] == "tile" and t["access"] != "unused"
            )
            if tiled:
                with contextlib.suppress(TTCompileError):
                    self.programs[k] = JITKernel(
                        stage.func.with_attr("tt.row_pages", tiled), options, dump[k]
                    )

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
        """Every program's artifacts, keyed "<program>/<file>", and the host program running them all
        ("main.cpp", when they share their buffers)."""
        sequence = self.sequence_host.artifacts if self.sequence_host else {}
        return {
            **sequence,
            **{f"{p.name}/{n}": text for p in self.programs for n, text in p.artifacts.items()},
        }

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
        """Each program's artifacts into ``path``/<program>/, and the sequence's main.cpp into ``path``."""
        written = [w for p in self.programs for w in p.write_artifacts(os.path.join(path, p.name))]
        return written + (self.sequence_host.write_artifacts(path) if self.sequence_host else [])

    def build(self) -> None:
        """Write the artifacts and build (or reuse) the host objects that a call runs."""
        for program in [self.sequence_host] if self.sequence_host else self.programs:
            program.build()

    def __call__(self, *args):
        require_mock_device(self.options.target)
        call = bind_arguments(self.params, self.out_idx, args, self.name)
        arrays = {p["name"]: a for p, a in zip(self.params, call.device, strict=True)}
        for w in self.workspaces:
            arrays[w["name"]] = np.zeros(caller_shape(w), NUMPY_DTYPES[w["dtype"]])
        if self.sequence_host is not None:
            self.sequence_host.run([arrays[t["name"]] for t in self.sequence_host.params])
            return call.finish()
        for program in self.programs:
            program(*(arrays[t["name"]] for t in program.params))
        return call.finish()
