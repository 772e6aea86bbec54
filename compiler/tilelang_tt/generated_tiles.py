"""Tiles the reader computes instead of loading: a position-only element-wise sub-expression (a causal or
padding mask such as ``T.if_then_else(q_idx >= k_idx, 0, -inf)``) evaluated per element straight into a
float32 circular-buffer page.

A 32×32 tile is four 16×16 faces in row-major face order, each face row-major: element ``e`` of a tile
(0..1023) is face ``e / 256`` (face row ``face / 2``, face column ``face % 2``), row ``(e % 256) / 16`` and
column ``e % 16`` of that face. Integer arithmetic of the condition is done in int32 (kernels hold indices
as uint32, and a mask compares differences that may be negative).
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from . import ops
from .ir_utils import cb_var, dsl_comment, extern, loop, seq, simplify, uint_var
from .records import CircularBuffer
from .target import FACE, TILE

FLOAT32_TILE_BYTES = TILE * TILE * 4


def _signed(value):
    """Integer leaves of ``value`` cast to int32 so comparisons of differences are signed in C++."""

    def cast(e):
        if isinstance(e, tvm.ir.Var) and e.ty.dtype.startswith("int"):
            return tirx.Cast("int32", e)
        return e

    return tvm_ffi.structural_map(value, (tvm.ir.Var, cast), order="post")


def lower_generated_tile(call, entry: CircularBuffer) -> tirx.Stmt:
    """``tt.gen_tile(cb, value, i, j, rows, cols, loc)`` → reserve, per-element stores, push."""
    f = ops.fields(call)
    value, i_var, j_var, rows, cols = f.value, f.i, f.j, f.rows, f.cols
    cb = cb_var(entry)
    base = uint_var(f"l1_write_addr_{entry.name[3:]}")
    value = _signed(value)

    def element(rt, ct, e):
        face, within = simplify(tirx.floordiv(e, FACE * FACE)), simplify(tirx.floormod(e, FACE * FACE))
        row = simplify(rt * TILE + tirx.floordiv(face, 2) * FACE + tirx.floordiv(within, FACE))
        col = simplify(ct * TILE + tirx.floormod(face, 2) * FACE + tirx.floormod(within, FACE))
        addr = simplify(base + (rt * cols + ct) * FLOAT32_TILE_BYTES + e * 4)
        return seq(
            [
                tirx.Bind(i_var, row),
                tirx.Bind(j_var, col),
                tirx.Evaluate(ops.call("tt.l1_store_f32", addr, value)),
            ]
        )

    return seq(
        [
            dsl_comment(ops.loc_of(call)),
            extern("cb_reserve_back", cb, rows * cols),
            tirx.Bind(base, tirx.call_extern("int32", "get_write_ptr", cb)),
            loop(
                "rt",
                rows,
                lambda rt: loop("ct", cols, lambda ct: loop("e", TILE * TILE, lambda e: element(rt, ct, e))),
            ),
            extern("cb_push_back", cb, rows * cols),
        ]
    )
