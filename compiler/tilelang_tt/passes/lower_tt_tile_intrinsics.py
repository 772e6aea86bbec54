"""C2 · LowerTTTileIntrinsics — replace the DSL's tile ops with protocol-less Tenstorrent tile intrinsics.

Input expectations
    ``tt.cb_table``, ``tt.accumulators`` (LowerSharedToCB), ``tt.tensor_accessors``
    (AttachTensorAccessorTT);
    ``tl.copy`` / ``tl.gemm`` / ``tl.fill`` ops.
Output guarantees
    No ``tl.*`` op remains. Each became one or two of (all positions in tiles, last arg the DSL location):
      ``tt.read_to_cb(cb, param, row, col, rows, cols)``    global → input CB
      ``tt.write_from_cb(cb, param, row, col, rows, cols)`` output CB → global
      ``tt.mm.mma(cb_a, cb_b, acc, Mt, Nt, Kt, trans_a, trans_b)``  acc += op(A) @ op(B)
      ``tt.fpu.zero(acc)``                                  accumulator := 0
      ``tt.pack(acc, cb)``                                  accumulator → output CB
    ``acc`` is the index into ``tt.accumulators``; ``param`` the tensor's parameter index. Shape mismatches in
    T.copy / T.gemm, tile-misaligned copy starts, non-zero fills and copies the device cannot express (e.g.
    global → fragment) raise TTCompileError at the DSL line.
Example
    before: T.tl.gemm(A_s[0:64, 0:32], B_s[0:32, 0:64], C_f[0:64, 0:64], 0, 0, "g.py:9:8")
    after:  T.tt.mm.mma(0, 1, 0, 2, 2, 1, 0, 0, "g.py:9:8")
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_lower_tt_tile_intrinsics
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import (
    buffer_scope,
    gemm_operands,
    get_attr,
    is_global,
    is_zero_mod,
    region,
    require_attr,
    seq,
    simplify,
)
from ..target import TILE


class _Lowering:
    def __init__(self, func):
        self.cbs = {e.buffer: e for e in require_attr(func, "tt.cb_table", "LowerTTTileIntrinsics")}
        self.accs = {
            a.buffer: i for i, a in enumerate(require_attr(func, "tt.accumulators", "LowerTTTileIntrinsics"))
        }
        self.params = {
            a.name: a.param_index for a in require_attr(func, "tt.tensor_accessors", "LowerTTTileIntrinsics")
        }

    def _tile_pos(self, reg, loc):
        for m in reg.mins:
            if not is_zero_mod(m, TILE):
                raise TTCompileError.at(loc, f"copy start {m} into {reg.name} is not a multiple of {TILE}")
        return [simplify(tirx.floordiv(m, TILE)) for m in reg.mins] + [e // TILE for e in reg.extents]

    def _moved(self, op, cb, reg, loc):
        """``tt.read_to_cb`` / ``tt.write_from_cb`` of CB ``cb`` and the global region ``reg``."""
        row, col, rows, cols = self._tile_pos(reg, loc)
        return ops.call(
            op, cb=cb, tensor=self.params[reg.name], row=row, col=col, rows=rows, cols=cols, loc=loc
        )

    def copy(self, call):
        loc = ops.loc_of(call)
        src, dst = (region(r, loc) for r in (ops.fields(call).src, ops.fields(call).dst))
        if src.extents != dst.extents:
            raise TTCompileError.at(
                loc,
                f"shape mismatch in T.copy: {src.name}{tuple(src.extents)} → {dst.name}{tuple(dst.extents)}",
            )
        frag_src = buffer_scope(src.buffer) == "local.fragment"
        if is_global(src.buffer) and dst.name in self.cbs:
            return self._moved("tt.read_to_cb", self.cbs[dst.name].cb, src, loc)
        if is_global(dst.buffer) and frag_src and src.name in self.accs:
            out = next(e.cb for e in self.cbs.values() if e.packs == src.name)
            return [
                ops.call("tt.pack", acc=self.accs[src.name], cb=out, loc=loc),
                self._moved("tt.write_from_cb", out, dst, loc),
            ]
        if is_global(dst.buffer) and src.name in self.cbs:
            return self._moved("tt.write_from_cb", self.cbs[src.name].cb, dst, loc)
        if (
            frag_src
            and src.name in self.accs
            and dst.name in self.cbs
            and self.cbs[dst.name].role == "output"
        ):
            return ops.call("tt.pack", acc=self.accs[src.name], cb=self.cbs[dst.name].cb, loc=loc)
        raise TTCompileError.at(
            loc,
            f"T.copy from {src.name} ({buffer_scope(src.buffer)}) to {dst.name} "
            f"({buffer_scope(dst.buffer)}) is not supported on Tenstorrent: copies go "
            f"global→shared, fragment→shared→global or fragment→global",
        )

    def gemm(self, call):
        loc = ops.loc_of(call)
        a, b, c, ta, tb, (m, n, k) = gemm_operands(call, loc)
        for reg in (a, b):
            if reg.name not in self.cbs:
                raise TTCompileError.at(
                    loc,
                    f"T.gemm operand {reg.name} must be a shared buffer loaded "
                    f"from a global tensor with T.copy",
                )
        return ops.call(
            "tt.mm.mma",
            cb_a=self.cbs[a.name].cb,
            cb_b=self.cbs[b.name].cb,
            acc=self.accs[c.name],
            mt=m // TILE,
            nt=n // TILE,
            kt=k // TILE,
            trans_a=ta,
            trans_b=tb,
            loc=loc,
        )

    def fill(self, call):
        loc = ops.loc_of(call)
        dst = region(ops.fields(call).dst, loc)
        value = float(ops.fields(call).value)
        if dst.name not in self.accs:
            raise TTCompileError.at(
                loc, f"T.fill/T.clear of {dst.name}: only gemm accumulators can be filled"
            )
        if value != 0.0:
            raise TTCompileError.at(loc, f"T.fill({dst.name}, {value}): only zero fills are supported")
        return ops.call("tt.fpu.zero", acc=self.accs[dst.name], loc=loc)

    def __call__(self, ev):
        for name, fn in (("tl.copy", self.copy), ("tl.gemm", self.gemm), ("tl.fill", self.fill)):
            if ops.is_op(ev, name):
                out = fn(ev.value)
                return seq([tirx.Evaluate(c) for c in out]) if isinstance(out, list) else tirx.Evaluate(out)
        return ev


def LowerTTTileIntrinsics() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.compute_schedule") == "tile_program":
            return func  # LowerTileProgramTT / ScheduleTileComputeTT own it
        lower = _Lowering(func)
        return func.with_body(tvm_ffi.structural_map(func.body, (tirx.Evaluate, lower), order="post"))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="LowerTTTileIntrinsics")
