"""A function of several ``T.Kernel`` blocks, or with ``T.alloc_global`` workspaces, as one program per block.

TileLang's split-KV programs (flash decoding, MLA decode) launch two kernels from one function, the second
reading what the first wrote into global workspaces (or one persistent kernel whose phases a grid barrier,
``T.sync_grid()``, separates: each phase is a block of its own here)::

    glse = T.alloc_global([batch, heads, num_split, seqlen_q], dtype)
    with T.Kernel(...) as (bx, by, bz):      # split: partial outputs and their log-sum-exps
        ...
    with T.Kernel(...) as (bx, by, bz):      # combine: reads glse
        ...

On Tenstorrent each block is a program of its own (its reader, compute and writer kernels and host
program), run one after another on the device: a later program sees everything an earlier one wrote, as
programs on one command queue do. ``split_kernels`` makes each block a PrimFunc whose tensor parameters
are the function's parameters it touches followed by the workspaces it touches (and the layout hints of its
own buffers: a hint for another program's tensor is that program's); ``StagedKernel``
(``staged_kernel.py``) compiles and runs them.
"""

from __future__ import annotations

import dataclasses

import tvm
import tvm_ffi
from tvm import tirx

from . import ops
from .eager import OUT_IDX_ATTR
from .errors import TTCompileError
from .ir_utils import def_loc, find_ops, is_global

__all__ = ["Stage", "check_one_kernel", "split_kernels"]


@dataclasses.dataclass(frozen=True)
class Stage:
    """One ``T.Kernel`` block as a PrimFunc of its own, and which of its parameters are workspaces."""

    func: tirx.PrimFunc
    name: str
    workspaces: tuple[str, ...]  # names of the parameters that are T.alloc_global buffers


def _is_kernel(stmt) -> bool:
    return isinstance(stmt, tirx.AttrStmt) and stmt.attr_key == "thread_extent"


def _is_workspace(stmt) -> bool:
    return isinstance(stmt, tirx.AllocBuffer) and str(stmt.buffer.ty.storage_scope) == "global"


def _workspace_buffers(stmt) -> list:
    """The ``T.alloc_global`` buffers allocated anywhere under ``stmt``, in program order."""
    found = []
    tvm_ffi.structural_walk(
        stmt, (tirx.AllocBuffer, lambda a: found.append(a.buffer) if _is_workspace(a) else None)
    )
    return found


def _without_workspace_allocations(stmt):
    """``stmt`` with its ``T.alloc_global`` allocations gone (their buffers become parameters)."""
    return tvm_ffi.structural_map(
        stmt, (tirx.AllocBuffer, lambda a: tirx.Evaluate(0) if _is_workspace(a) else a), order="post"
    )


def _top_level(func: tirx.PrimFunc) -> list:
    return list(func.body.seq) if isinstance(func.body, tirx.SeqStmt) else [func.body]


def _first_loc(stmt) -> str:
    """The DSL location of the first tile operator under ``stmt`` ("" when it has none)."""
    sites = find_ops(stmt, tuple(n for n in ops.SPECS if n.startswith("tl.")))
    return next((site.loc for site in sites if site.loc), "")


def check_one_kernel(func: tirx.PrimFunc, name: str) -> None:
    """TTCompileError at the second ``T.Kernel`` block of ``func`` when it has several, or at its first
    ``T.alloc_global``: the lowering pipeline takes one program; ``tilelang_tt.compile`` splits the rest."""
    stmts = _top_level(func)
    kernels = [s for s in stmts if _is_kernel(s)]
    if len(kernels) > 1:
        raise TTCompileError.at(
            _first_loc(kernels[1]),
            f"{name} launches {len(kernels)} kernels (T.Kernel blocks); the pipeline lowers one program: "
            f"compile the function with tilelang_tt.compile, which makes each block a program of its own",
        )
    barriers = find_ops(func.body, ("tl.sync_grid",))
    if barriers:
        raise TTCompileError.at(
            barriers[0].loc,
            f"{name} has a grid barrier (T.sync_grid); the pipeline lowers one program: compile the function "
            f"with tilelang_tt.compile, which makes the kernel's phases programs of their own",
        )
    check_reads_precede_writes(func)
    if _workspace_buffers(func.body):
        raise TTCompileError.at(
            def_loc(func),
            f"{name} allocates T.alloc_global workspaces; the pipeline lowers one program over its "
            f"parameters: compile the function with tilelang_tt.compile, which passes workspaces as tensors",
        )


def check_reads_precede_writes(func: tirx.PrimFunc) -> None:
    """TTCompileError at a ``T.copy`` that reads a global tensor (a parameter or workspace) which an earlier
    statement of the same kernel wrote: a program's reader and writer are different RISCs, and nothing
    orders the writer's DRAM write before the reader's read. Two ``T.Kernel`` blocks are ordered."""
    written: dict = {}  # global buffer -> where the kernel first writes it
    for site in find_ops(func.body, ("tl.copy", *ops.ATOMICS)):
        fields = ops.fields(site.call)
        source = getattr(fields, "src", None)
        if isinstance(source, tvm.ir.TensorRegion) and source.source in written:
            raise TTCompileError.at(
                site.loc,
                f"this T.copy reads {source.source.name}, which the same kernel writes first (at "
                f"{written[source.source] or 'an earlier line'}); a program's reader and writer run on "
                f"different RISCs and nothing orders the write before the read on Tenstorrent: write it in "
                f"one T.Kernel block and read it in the next (tilelang_tt.compile runs the blocks in order)",
            )
        target = fields.dst
        if isinstance(target, tvm.ir.TensorRegion) and is_global(target.source):
            written.setdefault(target.source, site.loc)


def _buffers_used(stmt) -> set:
    """The variables ``stmt`` mentions: tensor parameters and workspaces among them (a view's storage
    names its tensor too)."""
    found: set = set()
    tvm_ffi.structural_walk(stmt, (tvm.ir.Var, found.add))
    return found


LAYOUT_HINT_ATTRS = ("tt.layout_hints", "tt.user_layout")


def _buffer_names(kernel, params) -> set[str]:
    """Names of the tensors a program takes and of the tile buffers its block allocates."""
    names = {str(p.name) for p in params}
    tvm_ffi.structural_walk(kernel, (tirx.AllocBuffer, lambda a: names.add(str(a.buffer.name))))
    return names


def _stage_hints(attrs: dict, own: set[str], anyone: set[str]) -> dict:
    """``attrs`` with the layout hints of the buffers of this program, and of names no program has (so that
    InferTTLayout reports them): another program's tensors are not this one's concern."""
    out = dict(attrs)
    for key in LAYOUT_HINT_ATTRS:
        if key in attrs:
            out[key] = {n: h for n, h in attrs[key].items() if n in own or n not in anyone}
    return out


def _without_unused_allocations(stmts: list) -> list:
    """``stmts`` less the allocations none of the others uses (a buffer kept for a later phase)."""
    kept = []
    for stmt in stmts:
        if isinstance(stmt, tirx.AllocBuffer):
            others = set().union(*(_buffers_used(s) for s in stmts if not s.same_as(stmt)))
            if not any(stmt.buffer.same_as(v) for v in others):
                continue
        kept.append(stmt)
    return kept


def _check_recomputable(bind, phase: list) -> None:
    """A named value from before a grid barrier is computed again after it: TTCompileError (at the
    phase's first tile operation) when it reads a buffer, whose contents do not outlive the program."""
    loads = []
    tvm_ffi.structural_walk(bind.value, (tvm.ir.TensorLoad, loads.append))
    if loads:
        raise TTCompileError.at(
            next((site.loc for s in phase for site in find_ops(s, tuple(ops.SPECS)) if site.loc), ""),
            f"{bind.var.name} is computed from {loads[0].source.name} before T.sync_grid and used after it; "
            f"each side of the barrier is a program of its own, whose buffers start empty: compute it after "
            f"the barrier, or store it to a global tensor before it",
        )


def _grid_phases(kernel) -> list:
    """A ``T.Kernel`` block cut at its ``T.sync_grid()`` calls: one block per phase, each under the same
    launch and with the allocations and top-level named values (index arithmetic) of the original that it
    uses. A grid-wide barrier is a program boundary: the programs run one after another on the device, so
    every block of the first has finished when the second starts. A ``T.sync_grid`` under a loop or
    branch is a TTCompileError there (a program cannot end inside one)."""
    wrappers, node = [], kernel
    while isinstance(node, tirx.AttrStmt):
        wrappers.append(node)
        node = node.body
    stmts = list(node.seq) if isinstance(node, tirx.SeqStmt) else [node]
    top = [k for k, stmt in enumerate(stmts) if ops.is_op(stmt, "tl.sync_grid")]
    nested = [
        site
        for stmt in stmts
        if not ops.is_op(stmt, "tl.sync_grid")
        for site in find_ops(stmt, ("tl.sync_grid",))
    ]
    if nested:
        raise TTCompileError.at(
            nested[0].loc,
            "T.sync_grid is supported at the top level of a T.Kernel block only: on Tenstorrent the grid "
            "barrier ends one program and starts the next, which cannot happen inside a loop or branch",
        )
    if not top:
        return [kernel]
    cuts = [-1, *top, len(stmts)]
    phases = []
    for first, end in zip(cuts, cuts[1:], strict=False):
        own = _without_unused_allocations(stmts[first + 1 : end])
        # what the phase takes from before it: the allocations and named values it uses (transitively)
        used = set().union(*(_buffers_used(s) for s in own))
        needed = []
        for stmt in reversed(stmts[: first + 1]):
            if not isinstance(stmt, tirx.AllocBuffer | tirx.Bind):
                continue
            declared = stmt.buffer if isinstance(stmt, tirx.AllocBuffer) else stmt.var
            if any(declared.same_as(v) for v in used):
                if isinstance(stmt, tirx.Bind):
                    _check_recomputable(stmt, own)
                    used |= _buffers_used(stmt.value)
                needed.append(stmt)
        body = [s for s in stmts[: first + 1] if any(s.same_as(n) for n in needed)] + own
        phase = tirx.SeqStmt(body) if len(body) > 1 else body[0]
        for wrapper in reversed(wrappers):
            phase = tirx.AttrStmt(wrapper.node, wrapper.attr_key, wrapper.value, phase)
        phases.append(phase)
    return phases


def split_kernels(func: tirx.PrimFunc, name: str) -> list[Stage] | None:
    """The programs of ``func``, one per ``T.Kernel`` block in launch order; None for a function of one
    block and no workspace (compiled as it is). A workspace may be allocated before the blocks or inside
    one. Statements between the blocks other than ``T.alloc_global`` workspaces are a located error."""
    stmts = _top_level(func)
    kernels = [phase for s in stmts if _is_kernel(s) for phase in _grid_phases(s)]
    workspaces = _workspace_buffers(func.body)  # before the kernels, or inside one
    if len(kernels) < 2 and not workspaces:
        return None
    for stmt in stmts:
        if not (_is_kernel(stmt) or _is_workspace(stmt)):
            raise TTCompileError.at(
                _first_loc(stmt) or def_loc(func),
                f"{name} launches several kernels (or allocates T.alloc_global workspaces), so its body may "
                f"hold only T.alloc_global allocations and T.Kernel blocks; this statement stands between "
                f"them ({type(stmt).__name__}): move it into the kernel that uses it",
            )
    attrs = {k: v for k, v in (func.attrs or {}).items() if k != OUT_IDX_ATTR}
    taken = []
    for kernel in kernels:
        used = _buffers_used(kernel)
        params = [p for p in func.params if p in used or not isinstance(p.ty, tirx.BufferType)]
        taken.append((kernel, params, [w for w in workspaces if w in used]))
    names = [_buffer_names(kernel, params + spaces) for kernel, params, spaces in taken]
    anyone = set().union(*names)
    stages = []
    for index, ((kernel, params, spaces), own) in enumerate(zip(taken, names, strict=True)):
        stage_name = f"{name}_kernel{index + 1}" if len(kernels) > 1 else name
        stage = tirx.PrimFunc(params + spaces, _without_workspace_allocations(kernel), func.ret_type)
        stage = stage.with_attrs({**_stage_hints(attrs, own, anyone), "global_symbol": stage_name})
        stages.append(Stage(stage, stage_name, tuple(str(w.name) for w in spaces)))
    return stages
