"""The pass pipeline: one flat list, one line of why per step.

mod = run_pipeline(mod, target_device="wormhole", partition_strategy="row_major")
artifacts = emit_tt_artifacts(mod)  # reader.cpp, compute.cpp, writer.cpp, main.cpp, tt.plan.json
"""

from __future__ import annotations

import os
import time

import tvm

from . import passes as P
from .errors import TTResourceError
from .stages import check_one_kernel

__all__ = ["build_tt_pipeline", "run_pipeline", "validate_module_for_tt", "emit_tt_artifacts", "pass_names"]


def tt_passes(
    target_device: str = "wormhole",
    partition_strategy: str = "row_major",
    enable_double_buffer: bool = True,
    enable_prefetch: bool = True,
    math_fidelity: str = "HiFi4",
    packer_l1_acc: bool = False,
    reblock: bool = True,
    reblocked: list | None = None,
) -> list:
    """The passes in order (the body of build_tt_pipeline); ``reblock``, ``reblocked``: see
    ReblockGemmForCoresTT."""
    return [
        P.InlineRegionIndicesTT(),  # a named index in a tile region (row = by * bM) → what it names
        P.ResolveTensorViewsTT(),  # a parameter indexed through a reshaped view takes the view's shape
        P.StageIndexTablesTT(),  # integer/bool tensors read value by value → index tables in L1
        P.SerializeSplitKTT(),  # grid points that T.atomic_add into one output take turns on one core
        P.SelectElementBranchesTT(),  # an if around element stores → a select in each store
        P.KeepNamedValuesTT(),  # a named element value used after a store it reads → kept in a fragment
        P.CoarsenSubTileRowsTT(),  # grid points of fewer rows than a tile share one core's tiles
        P.VectorizeThreadsTT(),  # SIMT code: thread-local values get a thread dimension, statements loops
        P.VectorizeElementLoopsTT(),  # scalar nests of element statements → T.Parallel / row sums
        P.LegalizeVectorsTT(),  # 1-D buffers → the (L, 1) / (1, L) tiles they occupy, before shapes are read
        P.StageElementGlobalsTT(),  # element-wise statements reach global tensors through staged tiles
        P.ApplyTTDefaults(
            target_device,
            partition_strategy,
            enable_double_buffer,
            enable_prefetch,
            math_fidelity,
            packer_l1_acc,
        ),  # facts + dtypes first: every later pass reads them
        P.ReblockGemmForCoresTT(reblock, reblocked),  # a plain GEMM's block grid made the core grid
        P.InferTTLayout(),  # where each tensor lives (DRAM/L1, interleaved) before anything addresses it
        P.PropagateTTLayout(),  # reject/fall back unsupported layouts, tie tile buffers to their tensors
        P.AttachTensorAccessorTT(),  # tile shapes, page sizes and read/write roles of the global tensors
        P.CheckTileBoundsTT(),  # tile regions start inside their tensors (edges: zeros in, dropped out)
        P.LayoutAwareWorkPartitionTT(),  # which core computes which output blocks (needs tensor tile shapes)
        P.GridToCoreGrid(),  # launch grid → persistent per-core loop over that work list
        P.LowerTileProgramTT(),  # tile programs (beyond plain matmul): CBs + tile ops; marks them for D5'
        P.LowerSharedToCB(),  # tile buffers → circular buffers (ids, formats, depths), L1 budget
        P.LowerTTTileIntrinsics(),  # tl.copy/gemm/fill → protocol-less tt tile intrinsics on CBs
        P.BuildTileDFGTT(),  # who produces/consumes each CB; DST subblocks of each accumulator
        P.SplitDeviceKernel(),  # one program → reader / compute / writer kernels
        P.ConfigureTensorAccessorTT(),  # data-movement kernels: accessors → compile-time/runtime arg slots
        P.LowerCBIntrinsics(),  # reader/writer: NOC reads/writes with the CB reserve/push/wait/pop protocol
        P.InsertComputeInitTT(),  # compute: engine initialisation before the first tile op
        P.InsertDSTManagementTT(),  # compute: DST acquire/commit/wait/release, subblocks, spills, packs
        P.ScheduleTileComputeTT(),  # tile programs' compute: engines, DST slots by liveness, CB protocol
        P.FinalizePersistentSignatureTT(),  # runtime-argument schema per kernel and per-core values
        P.VerifyTTIR(),  # invariants + resource limits of the result
    ]


def pass_names() -> list[str]:
    return [p.info.name for p in tt_passes("wormhole", "row_major", True, True)]


def build_tt_pipeline(
    target_device: str = "wormhole",
    partition_strategy: str = "row_major",
    enable_double_buffer: bool = True,
    enable_prefetch: bool = True,
    plan_path: str | None = None,
    math_fidelity: str = "HiFi4",
    packer_l1_acc: bool = False,
    reblock: bool = True,
    reblocked: list | None = None,
) -> tvm.transform.Sequential:
    """The pipeline as a ``tvm.transform.Sequential``; with ``plan_path`` it ends by writing tt.plan.json."""
    seq = tt_passes(
        target_device,
        partition_strategy,
        enable_double_buffer,
        enable_prefetch,
        math_fidelity,
        packer_l1_acc,
        reblock,
        reblocked,
    )
    if plan_path is not None:
        seq.append(_write_plan_pass(plan_path))
    return tvm.transform.Sequential(seq, opt_level=0, name="TileLangTT")


def _write_plan_pass(path: str) -> tvm.transform.Pass:
    def write(mod, ctx):
        from .codegen.plan import render_plan

        with open(path, "w") as f:
            f.write(render_plan(mod))
        return mod

    return tvm.transform.module_pass(write, opt_level=0, name="WriteTTPlan")


@tvm.instrument.pass_instrument
class _Recorder:
    """Times each pass and, with a dump directory, writes the IR after it (``NN_<Pass>.py``)."""

    def __init__(self, dump_dir: str | None):
        self.dump_dir = dump_dir
        self.restart()

    def restart(self) -> None:
        """Forget the passes run so far (the pipeline runs again)."""
        self.times, self._start, self._index = [], 0.0, 0

    def run_before_pass(self, mod, info):
        self._start = time.perf_counter()

    def run_after_pass(self, mod, info):
        if info.name in ("TileLangTT", "sequential"):
            return
        self.times.append((info.name, time.perf_counter() - self._start))
        if self.dump_dir:
            self._index += 1
            with open(os.path.join(self.dump_dir, f"{self._index:02d}_{info.name}.py"), "w") as f:
                f.write(mod.script(show_meta=False) + _records_listing(mod))


def _records_listing(mod: tvm.IRModule) -> str:
    """The typed records in the functions' attributes, which TVMScript prints as ``metadata[...]``
    references, written out as comments (one attribute per line) after the dumped module."""
    lines = []
    for gvar, func in mod.functions.items():
        for key in sorted(func.attrs.keys()) if func.attrs is not None else []:
            text = repr(func.attrs[key])
            if "tt." in text and key.startswith("tt."):
                lines.append(f"# {gvar.name_hint}: {key} = {text}")
    return (
        "\n# Function attributes that hold records (metadata[...] above)\n" + "\n".join(lines) + "\n"
        if lines
        else ""
    )


def run_pipeline(
    mod: tvm.IRModule,
    target_device: str = "wormhole",
    partition_strategy: str = "row_major",
    enable_double_buffer: bool = True,
    enable_prefetch: bool = True,
    plan_path: str | None = None,
    dump_ir: str | None = None,
    timings: list | None = None,
    math_fidelity: str = "HiFi4",
    packer_l1_acc: bool = False,
) -> tvm.IRModule:
    """Run every pass; ``dump_ir`` writes the IR after each pass, ``timings`` receives (pass, seconds)."""
    for name, func in mod.functions.items():
        check_one_kernel(func, name.name_hint)
    if dump_ir:
        os.makedirs(dump_ir, exist_ok=True)
    recorder = _Recorder(dump_ir)
    settings = (target_device, partition_strategy, enable_double_buffer, enable_prefetch, plan_path)
    reblocked: list[str] = []
    try:
        with tvm.transform.PassContext(opt_level=0, instruments=[recorder]):
            out = build_tt_pipeline(*settings, math_fidelity, packer_l1_acc, True, reblocked)(mod)
    except TTResourceError:
        if not reblocked:
            raise
        # The GEMM's blocks made for the core grid need more L1 than a core has: the user's blocks.
        recorder.restart()
        with tvm.transform.PassContext(opt_level=0, instruments=[recorder]):
            out = build_tt_pipeline(*settings, math_fidelity, packer_l1_acc, False)(mod)
    if timings is not None:
        timings.extend(recorder.times)
    return out


def validate_module_for_tt(mod: tvm.IRModule) -> list[str]:
    """Every invariant/resource violation of a lowered module, as messages (empty when valid)."""
    resource, other = P.verify_module(mod)
    return resource + other


def emit_tt_artifacts(mod: tvm.IRModule) -> dict[str, str]:
    """The five artifacts of a lowered module (one program): reader/compute/writer/main .cpp + plan."""
    from .codegen import emit_artifacts

    return emit_artifacts(mod)
