"""C3 · BuildTileDFGTT — build the tile dataflow graph and fix the DST subblock of every accumulator.

Input expectations
    ``tt.*`` tile intrinsics (LowerTTTileIntrinsics), ``tt.cb_table``, ``tt.accumulators``, ``tt.target``.
Output guarantees
    ``tt.tile_dfg`` {nodes: [{id, op, kernel ∈ reader | compute | writer, cbs_in, cbs_out, loc}],
    edges: [{src, dst, cb}]}: reads run on the reader, writes on the writer, math on compute; every CB has
    exactly one producer kernel and one consumer kernel (else TTCompileError: a tile buffer loaded but never
    used would fill up and hang the reader). Each accumulator gets ``subblock`` [h, w] (tiles held in DST at
    once: the whole fragment when it fits, else the largest h×w ≤ DST capacity dividing it, widest first);
    the output CB it packs into records the same ``subblock`` so the writer drains it in that order.
Example
    before: T.tt.read_to_cb(0, 0, by * 2, k, 2, 1, loc); T.tt.mm.mma(0, 1, 0, 2, 2, 1, 0, 0, loc); ...
    after:  "tt.tile_dfg": {"nodes": [{"id": 0, "op": "tt.read_to_cb", "kernel": "reader", "cbs_out": [0]},
            ...], "edges": [{"src": 0, "dst": 2, "cb": 0}, ...]}, accumulators[0]["subblock"] = [2, 2]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_build_tile_dfg_tt
"""

from __future__ import annotations

import tvm
from tvm import tirx

from ..errors import TTCompileError
from ..ir_utils import find_ops, get_attr, op_name, require_attr
from ..target import dst_capacity

KERNEL_OF = {
    "tt.read_to_cb": "reader",
    "tt.write_from_cb": "writer",
    "tt.mm.mma": "compute",
    "tt.fpu.zero": "compute",
    "tt.pack": "compute",
    "tt.gen_tile": "reader",
    "tt.tile.wait_input": "compute",
    "tt.tile.fill": "compute",
    "tt.tile.copy": "compute",
    "tt.tile.eltwise": "compute",
    "tt.tile.matmul": "compute",
    "tt.tile.reduce": "compute",
    "tt.tile.transpose": "compute",
}


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


def _cbs(call) -> tuple[list[int], list[int]]:
    name, args = op_name(call), [int(a.value) if isinstance(a, tirx.IntImm) else a for a in call.args]
    if name == "tt.read_to_cb":
        return [], [args[0]]
    if name == "tt.write_from_cb":
        return [args[0]], []
    if name == "tt.mm.mma":
        return [args[0], args[1]], []
    if name == "tt.pack":
        return [], [args[1]]
    return [], []


def BuildTileDFGTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.compute_schedule") == "tile_program":
            return func  # LowerTileProgramTT / ScheduleTileComputeTT own it
        target = require_attr(func, "tt.target", "BuildTileDFGTT")
        cb_table = require_attr(func, "tt.cb_table", "BuildTileDFGTT")
        accs = require_attr(func, "tt.accumulators", "BuildTileDFGTT")
        nodes, producers, consumers = [], {}, {}
        for i, site in enumerate(find_ops(func.body, tuple(KERNEL_OF))):
            cbs_in, cbs_out = _cbs(site.call)
            name = op_name(site.call)
            nodes.append(
                {
                    "id": i,
                    "op": name,
                    "kernel": KERNEL_OF[name],
                    "cbs_in": cbs_in,
                    "cbs_out": cbs_out,
                    "loc": site.loc,
                }
            )
            for cb in cbs_out:
                producers.setdefault(cb, []).append(i)
            for cb in cbs_in:
                consumers.setdefault(cb, []).append(i)
        edges = [
            {"src": p, "dst": c, "cb": cb}
            for cb in producers
            for p in producers[cb]
            for c in consumers.get(cb, [])
        ]
        for e in cb_table:
            if e["role"] == "intermediate":
                continue
            kinds = {nodes[n]["kernel"] for n in producers.get(e["cb"], []) + consumers.get(e["cb"], [])}
            if not producers.get(e["cb"]) or not consumers.get(e["cb"]) or len(kinds) < 2:
                raise TTCompileError.at(
                    e["loc"],
                    f"tile buffer {e['buffer']} is {'written' if producers.get(e['cb']) else 'read'} "
                    f"but never {'read' if producers.get(e['cb']) else 'written'} by another kernel; "
                    "every shared buffer must flow reader → compute → writer",
                )
        for acc in accs:
            acc["subblock"] = choose_subblock(
                acc["tiles"][0], acc["tiles"][1], dst_capacity(target, acc["fp32"])
            )
        for site in find_ops(func.body, ("tt.pack",)):
            acc, cb = (int(a.value) for a in site.call.args[:2])
            for e in cb_table:
                if e["cb"] == cb:
                    e["subblock"] = accs[acc]["subblock"]
        for e in cb_table:
            if e["role"] == "output" and "subblock" not in e:
                raise TTCompileError.at(
                    e["loc"],
                    f"{e['buffer']} is stored to a global tensor but no gemm accumulator is copied into it",
                )
        return func.with_attrs(
            {
                "tt.tile_dfg": {"nodes": nodes, "edges": edges},
                "tt.accumulators": accs,
                "tt.cb_table": cb_table,
            }
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="BuildTileDFGTT")
