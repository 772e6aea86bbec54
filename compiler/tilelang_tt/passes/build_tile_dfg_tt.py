"""C3 · BuildTileDFGTT — build the tile dataflow graph and fix the DST subblock of every accumulator.

Input expectations
    ``tt.*`` tile intrinsics (LowerTTTileIntrinsics), ``tt.cb_table``, ``tt.accumulators``, ``tt.target``.
Output guarantees
    ``tt.tile_dfg``: a ``TileDFG`` of ``DFGNode``s (id, op, kernel ∈ reader | compute | writer, cbs_in,
    cbs_out, loc; the kernel and CBs read from the op's ``ops.SPECS`` row) and ``DFGEdge``s (src, dst, cb):
    reads run on the reader, writes on the writer, math on compute; every CB has
    exactly one producer kernel and one consumer kernel (else TTCompileError: a tile buffer loaded but never
    used would fill up and hang the reader). Each accumulator gets ``subblock`` [h, w] (tiles held in DST at
    once: the whole fragment when it fits, else the largest h×w ≤ DST capacity dividing it, widest first);
    the output CB it packs into records the same ``subblock`` so the writer drains it in that order.
Example
    before: T.tt.read_to_cb(0, 0, by * 2, k, 2, 1, loc); T.tt.mm.mma(0, 1, 0, 2, 2, 1, 0, 0, loc); ...
    after:  "tt.tile_dfg": TileDFG(nodes=[DFGNode(id=0, op="tt.read_to_cb", kernel="reader", cbs_out=[0],
            ...), ...], edges=[DFGEdge(src=0, dst=2, cb=0), ...]), tt.accumulators[0].subblock == [2, 2]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_build_tile_dfg_tt
"""

from __future__ import annotations

import tvm
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import find_ops, get_attr, op_name, require_attr
from ..records import DFGEdge, DFGNode, TileDFG, replace

# The kernel each tile intrinsic runs on (ops.SPECS).
KERNEL_OF = {name: spec.kernel for name, spec in ops.SPECS.items() if spec.kernel}


def choose_subblock(mt: int, nt: int, capacity: int) -> list[int]:
    if mt * nt <= capacity:
        return [mt, nt]
    best = (1, 1)
    for h in range(1, mt + 1):
        for w in range(1, nt + 1):
            if (
                mt % h == 0
                and nt % w == 0
                and h * w <= capacity
                and (h * w, w) > (best[0] * best[1], best[1])
            ):
                best = (h, w)
    return list(best)


def tile_dfg(nodes: list[DFGNode]) -> TileDFG:
    """The graph of ``nodes``: an edge from each producer of a CB to each other node consuming it."""
    edges = [
        DFGEdge(src=p.id, dst=c.id, cb=cb)
        for p in nodes
        for cb in p.cbs_out
        for c in nodes
        if cb in c.cbs_in and c.id != p.id
    ]
    return TileDFG(nodes=nodes, edges=edges)


def BuildTileDFGTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.compute_schedule") == "tile_program":
            return func  # LowerTileProgramTT / ScheduleTileComputeTT own it
        target = require_attr(func, "tt.target", "BuildTileDFGTT")
        cb_table = require_attr(func, "tt.cb_table", "BuildTileDFGTT")
        accs = require_attr(func, "tt.accumulators", "BuildTileDFGTT")
        nodes, producers, consumers = [], {}, {}
        for i, site in enumerate(find_ops(func.body, tuple(KERNEL_OF))):
            cbs_in, cbs_out = ops.cbs_read_and_written(site.call)
            name = op_name(site.call)
            nodes.append(
                DFGNode(id=i, op=name, kernel=KERNEL_OF[name], cbs_in=cbs_in, cbs_out=cbs_out, loc=site.loc)
            )
            for cb in cbs_out:
                producers.setdefault(cb, []).append(i)
            for cb in cbs_in:
                consumers.setdefault(cb, []).append(i)
        for e in cb_table:
            if e.role in ("intermediate", "table"):  # a table's CB protocol is fixed by LowerTileProgramTT
                continue
            kinds = {nodes[n].kernel for n in producers.get(e.cb, []) + consumers.get(e.cb, [])}
            if not producers.get(e.cb) or not consumers.get(e.cb) or len(kinds) < 2:
                raise TTCompileError.at(
                    e.loc,
                    f"tile buffer {e.buffer} is {'written' if producers.get(e.cb) else 'read'} "
                    f"but never {'read' if producers.get(e.cb) else 'written'} by another kernel; "
                    "every shared buffer must flow reader → compute → writer",
                )
        accs = [
            replace(acc, subblock=choose_subblock(acc.tiles[0], acc.tiles[1], target.dst_capacity(acc.fp32)))
            for acc in accs
        ]
        packed_from = {}
        for site in find_ops(func.body, ("tt.pack",)):
            pack = ops.fields(site.call)
            packed_from[pack.cb] = accs[pack.acc]
        cb_table = [
            replace(e, subblock=packed_from[e.cb].subblock) if e.cb in packed_from else e for e in cb_table
        ]
        for e in cb_table:
            if e.role == "output" and e.subblock is None:
                raise TTCompileError.at(
                    e.loc,
                    f"{e.buffer} is stored to a global tensor but no gemm accumulator is copied into it",
                )
        return func.with_attrs(
            {"tt.tile_dfg": tile_dfg(nodes), "tt.accumulators": accs, "tt.cb_table": cb_table}
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="BuildTileDFGTT")
