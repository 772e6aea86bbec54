"""D5' · ScheduleTileComputeTT — the compute kernel of a tile program: engines, DST registers, CB protocol.

Decisions this pass makes, per tile op of LowerTileProgramTT:
  * **Engine.** ``a ± b`` / ``a × b`` of two 16-bit circular-buffer tiles (the second possibly a row, column
    or scalar broadcast) runs on the FPU (``add_tiles``, ``mul_tiles_bcast_cols``...): the unpacker feeds
    both operands straight from L1. Everything else runs on the SFPU over DST registers: operands are
    unpacked into DST (``copy_tile``, ``unary_bcast`` for broadcasts), combined with the SFPU binary ops
    (``add_binary_tile``, ``binary_max_tile``...), scalar ops (``mul_unary_tile`` with the float's bits) and
    the unary functions (``exp_tile``, ``rsqrt_tile``...). fp32 operands always take the SFPU path, which
    keeps fp32 in DST; the FPU would round them to its 19-bit inputs.
  * **DST slots by liveness.** An expression is evaluated Sethi–Ullman style: the operand needing more
    registers first, its result held while the other is computed one slot up, so a tree needs
    ``need(tree)`` slots, not one per node. Output tiles are *subblocked*: as many tiles per
    acquire/commit/wait/release as ``need × tiles ≤ DST capacity`` allows (capacity from the target and
    from whether DST holds fp32). A tree needing more slots than DST has is cut: its heaviest operand
    sub-expression that fits is computed first into an intermediate CB (``<dst>_part<k>``, one block, fp32
    when DST is), which the rest reads as a tile; the CB is added to the kernel's ``tt.cb_table``.
  * **CB protocol (the value model).** A statement writing buffer X reserves X's next block, packs every
    output tile in order, then pops X's previous value if it had one, pushes, and waits for its own block
    (the unpacker runs on another thread: it must see the push). Input CBs are waited for where their
    ``T.copy`` was and popped when their value dies: at the end of the loop body that loaded them, or just
    before the next load. A value that becomes live inside a loop body dies at its end. A kept buffer's
    blocks (LowerTileProgramTT) stay in front of its CB: step k of the loop that loads it waits for
    (k + 1) blocks, every tile index into it in step k of either loop is moved k blocks on (the window),
    and all are popped after the later loop. Reading a buffer that holds no value is a TTCompileError;
    so is an ``if`` whose branches leave different values live.
  * **An element-wise statement a GEMM then adds to** (``acc_o *= scores_scale`` before
    ``T.gemm(P, V, acc_o)``) has no code of its own: the GEMM computes it into DST where it would load its
    sums, and accumulates onto it. **A copy of an element-wise statement's result** (``T.copy(acc_s,
    acc_s_cast)`` after the exponentials) has none either: the statement packs each tile into both CBs.
  * **Reductions** use ``reduce_tile`` with a scaler tile of ones the kernel fills once at start;
    ``clear=False`` combines with the old value (add / max / min); min reduces the negation and negates
    back; abs variants reduce ``|x|`` computed in DST... through an element-wise pass into a scratch CB;
    over a dimension shorter than its tiles, that pass first selects the reduction's identity where the
    op's mask tile is 0 (``where_tile``), so the tiles' padding never enters the result.
Input expectations
    The compute kernel of a ``tt.compute_schedule == "tile_program"`` program (SplitDeviceKernel), with
    ``tt.tile.*`` ops (fields by name: ``ops.SPECS``) and ``tt.cb_table`` ``CircularBuffer``s.
Output guarantees
    Only ``call_extern``s of the compute kernel API remain; ``tt.cb_table`` with any spill CBs added;
    ``tt.compute_config`` a ``ComputeConfig``
    (math_fidelity, fp32_dest_acc_en (any compute CB is float32), dst_full_sync_en, math_approx_mode).
Example
    before: T.tt.tile.eltwise(25, T.exp(T.tt.tile.operand(24, "none")), l)
    after:  cb_reserve_back(cb_S, 8); for chunk in range(2): tile_regs_acquire(); for s in range(4):
            copy_init(cb_S); copy_tile(cb_S, chunk * 4 + s, s); exp_tile_init(); exp_tile(s)
            ...; tile_regs_commit(); tile_regs_wait(); for s: pack_tile(s, cb_S2); tile_regs_release()
            cb_pop_front(cb_S, 8); cb_push_back(cb_S, 8); cb_wait_front(cb_S, 8)
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_schedule_tile_compute_tt
"""

from __future__ import annotations

import struct

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError, TTResourceError
from ..index_tables import read_values_in_compute
from ..ir_utils import (
    cb_var,
    collect_vars,
    comment,
    dsl_comment,
    extern,
    get_attr,
    is_noop,
    l1_for_circular_buffers,
    require_attr,
    seq,
    simplify,
    with_loop_body,
)
from ..records import CircularBuffer, ComputeConfig, replace
from ..target import DATA_FORMATS, compute_dtype
from ..tile_ops import (
    COMPARE_SCALAR,
    COMPARE_ZERO,
    FPU_BINARY,
    MIRRORED,
    REDUCE,
    SCALAR_BINARY,
    SFPU_BINARY,
    SFPU_UNARY,
    SFPU_UNARY_APPROXIMATE,
    TO_INT32,
    SfpuStep,
    power,
)
from .lower_tile_program_tt import operand_cbs

# Compute API calls that read tiles of a CB by index: (position of the CB argument, position of its tile
# index), by call name prefix.
_TILE_INDEX_OF_CB = {
    "copy_tile": ((0, 1),),
    "unary_bcast<": ((0, 1),),
    "transpose_tile": ((0, 1),),
    "reduce_tile": ((0, 2), (1, 3)),
    "matmul_tiles": ((0, 2), (1, 3)),
    **{f"{op}_tiles": ((0, 2), (1, 3)) for op in ("add", "sub", "mul")},
}


def _bits(value: float) -> tirx.PrimExpr:
    """The float32 bit pattern the SFPU scalar ops take, as an unsigned literal."""
    return tirx.const(struct.unpack("<I", struct.pack("<f", value))[0], "uint32")


def _const(e):
    return float(e.value) if isinstance(e, tirx.FloatImm | tirx.IntImm) else None


def _is_operand(e) -> bool:
    return isinstance(e, tvm.ir.Call) and ops.is_op(e, "tt.tile.operand")


_COMPARISONS = {tirx.GT: "GT", tirx.GE: "GE", tirx.LT: "LT", tirx.LE: "LE", tirx.EQ: "EQ", tirx.NE: "NE"}


def _select_parts(e):
    """(condition, true value, false value) of a T.if_then_else / Select, else None."""
    if isinstance(e, tirx.Select):
        return e.condition, e.true_value, e.false_value
    if isinstance(e, tvm.ir.Call) and str(getattr(e.op, "name", "")).endswith(".if_then_else"):
        return tuple(e.args)
    return None


def _replace(expr, part, leaf):
    """``expr`` with the sub-expression object ``part`` replaced by ``leaf``."""

    def swap(node):
        return leaf if getattr(node, "same_as", None) is not None and node.same_as(part) else node

    return tvm_ffi.structural_map(expr, swap, order="pre")


def _children(e) -> list:
    """The operand sub-expressions of an element-wise expression node."""
    parts = _select_parts(e)
    if parts is not None:
        return list(parts)
    if hasattr(e, "a") and hasattr(e, "b"):
        return [e.a, e.b]
    if isinstance(e, tirx.Not):
        return [e.a]
    if isinstance(e, tvm.ir.Call) and not _is_operand(e):
        return list(e.args)
    return []


def _function(e) -> str | None:
    """The name of the element-wise function ``e`` calls (``T.sin(x)`` → "sin"), else None."""
    if isinstance(e, tvm.ir.Call) and not _is_operand(e) and isinstance(e.op, tvm.ir.Op):
        return str(e.op.name).split(".")[-1]
    return None


def _comparison(e):
    for node, kind in _COMPARISONS.items():
        if isinstance(e, node):
            return kind
    return None


_BINARY_NODES = {
    tirx.And: "mul",
    tirx.Or: "max",
    tirx.Add: "add",
    tirx.Sub: "sub",
    tirx.Mul: "mul",
    tirx.Div: "div",
    tirx.Max: "max",
    tirx.Min: "min",
}


class _Expr:
    """DST code for one element-wise expression, per output tile ``t`` at DST slot ``slot``."""

    def __init__(self, sched, dst_cb, loc):
        self.s, self.dst, self.loc = sched, dst_cb, loc
        self.ct = dst_cb.tile_shape[1]

    def need(self, e) -> int:
        if _is_operand(e) or _const(e) is not None:
            return 1
        parts = _select_parts(e)
        if parts is not None:  # mask in slot, true value one up, false value two up, where_tile
            cond, a, b = parts
            return max(self.need(cond), 1 + self.need(a), 2 + self.need(b))
        kind = _comparison(e)
        if kind is not None:
            return self.need(tirx.Sub(e.a, e.b))
        if isinstance(e, tirx.Not):
            return self.need(e.a)
        kind = self._binary(e)
        if kind is not None:
            a, b = e.a, e.b
            if self._fpu(kind, a, b) is not None:
                return 1
            if _const(b) is not None or _const(a) is not None:
                x, c, scalar_first = (a, _const(b), False) if _const(b) is not None else (b, _const(a), True)
                if (kind == "max" and c == 0.0) or (kind, scalar_first) in SCALAR_BINARY:
                    return self.need(x)  # relu or a scalar op in place; else the constant takes a register
            na, nb = self.need(a), self.need(b)
            return max(na, nb + 1) if na >= nb else max(nb, na + 1)
        if isinstance(e, tvm.ir.Call):
            return self.need(e.args[0])
        raise TTCompileError.at(
            self.loc, f"{e} in an element-wise statement is not supported on Tenstorrent yet"
        )

    @staticmethod
    def _binary(e):
        """The SFPU_BINARY op of an arithmetic node; a logical one combines 1.0 / 0.0 masks (and: their
        product, or: their max)."""
        for node, kind in _BINARY_NODES.items():
            if isinstance(e, node):
                return kind
        return None

    def _fpu(self, kind, a, b):
        """(op, a, b) when the FPU can do it: both operands are 16-bit CB tiles, the first unbroadcast."""
        if kind not in FPU_BINARY or not (_is_operand(a) and _is_operand(b)):
            return None
        if ops.fields(b).broadcast != "none" and ops.fields(a).broadcast == "none":
            pass
        elif (
            ops.fields(a).broadcast != "none" and ops.fields(b).broadcast == "none" and kind in ("add", "mul")
        ):
            a, b = b, a
        elif ops.fields(a).broadcast != "none":
            return None
        if any(self.s.cbs[ops.fields(x).cb].dtype == "float32" for x in (a, b)):
            return None
        return kind, a, b

    def tile_index(self, operand, t):
        bcast = ops.fields(operand).broadcast
        return {
            "none": t,
            "col": simplify(tirx.floordiv(t, self.ct)),
            "row": simplify(tirx.floormod(t, self.ct)),
            "scalar": 0,
        }[bcast]

    def load(self, operand, t, slot):
        cb = self.s.cb_var(ops.fields(operand).cb)
        bcast = ops.fields(operand).broadcast
        if bcast == "none":
            return [extern("copy_init", cb), extern("copy_tile", cb, t, slot)]
        kind = f"BroadcastType::{bcast.upper()}"
        return [
            extern(f"unary_bcast_init<{kind}>", cb),
            extern(f"unary_bcast<{kind}>", cb, self.tile_index(operand, t), slot),
        ]

    def emit(self, e, t, slot) -> list:
        value = _const(e)
        if value is not None:
            return [extern("fill_tile_init"), extern("fill_tile", slot, tirx.const(value, "float32"))]
        parts = _select_parts(e)
        if parts is not None:
            cond, a, b = parts
            fmt = "Float32" if self.s.fp32 else "Float16_b"
            return (
                self.emit(cond, t, slot)
                + self.emit(a, t, slot + 1)
                + self.emit(b, t, slot + 2)
                + [
                    extern("where_tile_init"),
                    extern(f"where_tile<DataFormat::{fmt}>", slot, slot + 1, slot + 2, slot),
                ]
            )
        kind = _comparison(e)
        if kind is not None:
            return self.compare(kind, e.a, e.b, t, slot)
        if _is_operand(e):
            return self.load(e, t, slot)
        kind = self._binary(e)
        if kind is not None:
            return self.binary(kind, e.a, e.b, t, slot)
        if isinstance(e, tirx.Not):  # 1 - a 1.0 / 0.0 mask
            return self.emit(e.a, t, slot) + self.steps(SCALAR_BINARY[("sub", True)](1.0), slot)
        name = _function(e)
        if name == "pow":
            exponent = _const(e.args[1])
            if exponent is None:
                raise TTCompileError.at(
                    self.loc,
                    "T.pow with an exponent that is not a constant is not supported on Tenstorrent yet",
                )
            return self.emit(e.args[0], t, slot) + self.steps(power(exponent), slot)
        if name is not None:
            if name not in SFPU_UNARY:
                raise TTCompileError.at(
                    self.loc, f"T.{name} in an element-wise statement is not supported on Tenstorrent yet"
                )
            table = (
                SFPU_UNARY_APPROXIMATE
                if self.s.approximate_exp and name in SFPU_UNARY_APPROXIMATE
                else SFPU_UNARY
            )
            return self.emit(e.args[0], t, slot) + self.steps(table[name], slot)
        raise TTCompileError.at(
            self.loc, f"{e} in an element-wise statement is not supported on Tenstorrent yet"
        )

    @staticmethod
    def steps(steps: list[SfpuStep], slot) -> list:
        """The SFPU calls of ``steps`` on DST[slot], each after its init."""
        out = []
        for step in steps:
            args = [_bits(a) if isinstance(a, float) else tirx.const(a, "int32") for a in step.args]
            out += [extern(step.init), extern(step.call, slot, *args)]
        return out

    def binary(self, kind, a, b, t, slot):
        fpu = self._fpu(kind, a, b)
        if fpu is not None:
            op, a, b = fpu
            bcast = ops.fields(b).broadcast
            api, init = FPU_BINARY[op][bcast]
            ca, cb = (self.s.cb_var(ops.fields(x).cb) for x in (a, b))
            return [extern(init, ca, cb), extern(api, ca, cb, t, self.tile_index(b, t), slot)]
        ca, cb_ = _const(a), _const(b)
        if cb_ is not None or ca is not None:
            x, c, scalar_first = (a, cb_, False) if cb_ is not None else (b, ca, True)
            out = self.emit(x, t, slot)
            if kind == "max" and c == 0.0:
                return out + [extern("relu_tile_init"), extern("relu_tile", slot)]
            steps = SCALAR_BINARY.get((kind, scalar_first))
            if steps is None:  # max/min with a non-zero constant: the constant into a register
                return self.binary_registers(kind, a, b, t, slot)
            return out + self.steps(steps(c), slot)
        return self.binary_registers(kind, a, b, t, slot)

    def compare(self, kind, a, b, t, slot):
        """A 1.0 / 0.0 mask of ``a <kind> b``: against a constant directly, else ``a - b`` against zero."""
        ca, cb = _const(a), _const(b)
        if cb is not None or ca is not None:
            x, c, kind = (a, cb, kind) if cb is not None else (b, ca, MIRRORED[kind])
            api = COMPARE_SCALAR[kind]
            return self.emit(x, t, slot) + [extern(f"{api}_init"), extern(api, slot, _bits(c))]
        api = COMPARE_ZERO[kind]
        return self.emit(tirx.Sub(a, b), t, slot) + [extern(f"{api}_init"), extern(api, slot)]

    def binary_registers(self, kind, a, b, t, slot):
        na, nb = self.need(a), self.need(b)
        sa, sb = (slot, slot + 1) if na >= nb else (slot + 1, slot)
        first, second = ((a, sa), (b, sb)) if na >= nb else ((b, sb), (a, sa))
        out = self.emit(first[0], t, first[1]) + self.emit(second[0], t, second[1])
        api = SFPU_BINARY[kind]
        return out + [extern(f"{api}_init"), extern(api, sa, sb, slot)]


class _Scheduler:
    def __init__(self, func):
        self.cbs = {e.cb: e for e in require_attr(func, "tt.cb_table", "ScheduleTileComputeTT")}
        target = require_attr(func, "tt.target", "ScheduleTileComputeTT")
        self.fp32 = any(e.dtype in ("float32", "int32") for e in self.cbs.values())
        self.capacity = target.dst_capacity(self.fp32)
        self.approximate_exp = require_attr(func, "tt.options", "ScheduleTileComputeTT").approximate_exp
        self.target = target
        self.cb_budget, _ = l1_for_circular_buffers(func, target)
        self.live: set[int] = set()
        # kept CB → tile offset of the block the current loop step reads (its earlier blocks stay in front)
        self.window: dict[int, tirx.PrimExpr] = {}
        # (matmul call, expression, its location): the matmul loads its sums' tiles through the expression
        self.loaded_as: list[tuple[tvm.ir.Call, tvm.ir.Call, str]] = []
        # (element-wise call, CB): the statement also packs its tiles into the CB, a later copy's
        self.copied_as_made: list[tuple[tvm.ir.Call, int]] = []

    def cb_var(self, cb: int) -> tirx.Var:
        return cb_var(self.cbs[cb])

    def n(self, cb: int) -> int:
        return self.cbs[cb].tiles

    def require_live(self, cb, loc):
        if cb not in self.live and cb not in self.window:
            raise TTCompileError.at(
                loc,
                f"{self.cbs[cb].buffer} is read here but holds no value at this point (it is written "
                "later, only inside a loop or branch that has ended, or never)",
            )

    def produce(self, dst: int, need: int, per_tile, loc, reads=(), also=()):
        """Write every tile of ``dst`` (``per_tile(t, slot)`` puts tile t's value in DST ``slot``), and the
        same tiles into each CB of ``also`` (a copy of ``dst`` made from DST, converted by the packer)."""
        for cb in reads:
            self.require_live(cb, loc)
        n = self.n(dst)
        if need > self.capacity:
            raise TTCompileError.at(
                loc,
                f"this statement needs {need} DST registers per tile but DST holds {self.capacity} "
                f"{'fp32 ' if self.fp32 else ''}tiles; split the expression into several statements",
            )
        per_acquire = max(d for d in range(1, n + 1) if n % d == 0 and d * need <= self.capacity)
        chunks = n // per_acquire
        chunk, sub, packed = (tirx.Var(name, "int32") for name in ("chunk", "tile", "tile"))
        # A loop of one iteration is not emitted: its variable is 0 in the expressions built from it.
        chunk_e = chunk if chunks > 1 else tirx.const(0, "int32")

        def tile_of(var):
            return var if per_acquire > 1 else tirx.const(0, "int32")

        def loop(var, extent, body):
            return body if extent == 1 else tirx.For(var, 0, extent, tirx.ForKind.SERIAL, body)

        t = simplify(chunk_e * per_acquire + tile_of(sub))
        slot = simplify(tile_of(sub) * need)
        # An integer tensor's tiles leave as Int32 words: the float32 values DST holds are converted first.
        to_int = _Expr.steps([TO_INT32], slot) if self.cbs[dst].format == "Int32" else []
        compute_body = seq([*per_tile(t, slot), *to_int])
        pack_body = seq(
            [extern("pack_tile", simplify(tile_of(packed) * need), self.cb_var(cb)) for cb in (dst, *also)]
        )
        one_acquire = seq(
            [
                extern("tile_regs_acquire"),
                loop(sub, per_acquire, compute_body),
                extern("tile_regs_commit"),
                extern("tile_regs_wait"),
                loop(packed, per_acquire, pack_body),
                extern("tile_regs_release"),
            ]
        )
        out = [
            dsl_comment(loc),
            *(extern("cb_reserve_back", self.cb_var(cb), n) for cb in (dst, *also)),
            loop(chunk, chunks, one_acquire),
        ]
        for cb in (dst, *also):
            if self.cbs[cb].role == "output":
                out.append(extern("cb_push_back", self.cb_var(cb), n))
                continue
            if cb in self.live:
                out.append(extern("cb_pop_front", self.cb_var(cb), n))
            self.live.add(cb)
            out += [extern("cb_push_back", self.cb_var(cb), n), extern("cb_wait_front", self.cb_var(cb), n)]
        return out

    # ---- tile ops ---------------------------------------------------------------------------------
    def wait_input(self, c, loc):
        cb = ops.fields(c).cb
        out = [extern("cb_pop_front", self.cb_var(cb), self.n(cb))] if cb in self.live else []
        self.live.add(cb)
        return out + [extern("cb_wait_front", self.cb_var(cb), self.n(cb))]

    def wait_kept(self, c, loc):
        """Step ``step`` of the loop that loads a kept buffer: wait until its block is in too."""
        cb, step = ops.fields(c).cb, ops.fields(c).step
        self.window[cb] = simplify(step * self.n(cb))
        return [dsl_comment(loc), extern("cb_wait_front", self.cb_var(cb), simplify((step + 1) * self.n(cb)))]

    def use_kept(self, c, loc):
        cb, step = ops.fields(c).cb, ops.fields(c).step
        self.window[cb] = simplify(step * self.n(cb))
        return [dsl_comment(loc), comment(f"{self.cbs[cb].buffer}: the block an earlier loop read, kept")]

    def release_kept(self, c, loc):
        cb = ops.fields(c).cb
        self.window.pop(cb, None)
        return [extern("cb_pop_front", self.cb_var(cb), simplify(ops.fields(c).steps * self.n(cb)))]

    def in_window(self, stmt):
        """``stmt`` with each tile index into a kept CB moved to the block of the current step."""
        offsets = {self.cbs[cb].name: offset for cb, offset in self.window.items()}

        def shift(c):
            if not ops.is_extern(c):
                return c
            name, args = c.args[0].value, list(c.args[1:])
            named = [k for k, a in enumerate(args) if isinstance(a, tirx.Var) and a.name in offsets]
            if not named or "init" in name or name.startswith("cb_"):
                return c
            pairs = _TILE_INDEX_OF_CB.get(next((p for p in _TILE_INDEX_OF_CB if name.startswith(p)), ""))
            if pairs is None:
                raise TTCompileError(f"internal error: {name} reads a kept circular buffer at no known index")
            for k in named:
                index = dict(pairs)[k]
                args[index] = simplify(args[index] + offsets[args[k].name])
            return tirx.call_extern(c.ty.dtype, name, *args)

        return tvm_ffi.structural_map(stmt, (tvm.ir.Call, shift), order="post")

    def fill(self, c, loc):
        dst, value = ops.fields(c).cb, ops.fields(c).value
        return self.produce(
            dst, 1, lambda t, s: [extern("fill_tile_init"), extern("fill_tile", s, value)], loc
        )

    def copy(self, c, loc):
        src, dst = ops.fields(c).src, ops.fields(c).dst
        cb = self.cb_var(src)
        return self.produce(
            dst,
            1,
            lambda t, s: [extern("copy_init", cb), extern("copy_tile", cb, t, s)],
            loc,
            [src],
        )

    def tilize(self, c, loc):
        """Row-major strips of ``src`` (32 rows, pushed by the reader one strip at a time) → the tiles of
        ``dst``, strip by strip as the SDK tilizes (tilize_block packs one strip into the pages reserved for
        it, acquiring DST itself). ``dst`` then holds a new value, as after ``produce``: the new strips
        queue behind the old value, which is popped once they are in."""
        src, dst = ops.fields(c).src, ops.fields(c).dst
        rows, cols = self.cbs[dst].tile_shape
        n = self.n(dst)
        cs, cd = self.cb_var(src), self.cb_var(dst)
        strip = seq(
            [
                extern("cb_wait_front", cs, cols),
                extern("cb_reserve_back", cd, cols),
                extern("tilize_block", cs, cols, cd),
                extern("cb_push_back", cd, cols),
                extern("cb_pop_front", cs, cols),
            ]
        )
        out = [
            dsl_comment(loc),
            extern("tilize_init", cs, cols, cd),
            strip if rows == 1 else tirx.For(tirx.Var("strip", "int32"), 0, rows, tirx.ForKind.SERIAL, strip),
            extern("tilize_uninit", cs, cd),
        ]
        if dst in self.live:
            out.append(extern("cb_pop_front", cd, n))
        self.live.add(dst)
        return out + [extern("cb_wait_front", cd, n)]

    def eltwise(self, c, loc):
        dst, expr = ops.fields(c).dst, ops.fields(c).expr
        code = _Expr(self, self.cbs[dst], loc)
        out, spills = [], []
        # Where DST runs out, the heaviest sub-expression that fits goes through an intermediate CB first.
        while code.need(expr) > self.capacity:
            part = self._spill_candidate(code, expr, loc)
            cb = self._scratch_cb(self.cbs[dst], loc)
            out += self.produce(
                cb, code.need(part), lambda t, s, e=part: code.emit(e, t, s), loc, operand_cbs(part)
            )
            leaf = ops.call("tt.tile.operand", cb=cb, broadcast="none", dtype="float32")
            expr = _replace(expr, part, leaf)
            spills.append(cb)
        also = [cb for call, cb in self.copied_as_made if call.same_as(c)]
        out += self.produce(
            dst, code.need(expr), lambda t, s: code.emit(expr, t, s), loc, operand_cbs(expr), also
        )
        for cb in spills:
            out.append(extern("cb_pop_front", self.cb_var(cb), self.n(cb)))
            self.live.discard(cb)
        return out

    def _spill_candidate(self, code, expr, loc):
        """The operand sub-expression needing the most registers, descending while it still needs more than
        DST holds."""
        node = expr
        while True:
            children = [x for x in _children(node) if not _is_operand(x) and _const(x) is None]
            if not children:
                raise TTCompileError.at(loc, f"internal error: no sub-expression of {node} to spill")
            heaviest = max(children, key=code.need)
            if code.need(heaviest) <= self.capacity:
                return heaviest
            node = heaviest

    def _scratch_cb(self, like: CircularBuffer, loc) -> int:
        """A new intermediate CB shaped like ``like`` for one spilled sub-expression (one block)."""
        used = set(self.cbs)
        free = [cb for cb in range(self.target.num_circular_buffers) if cb not in used]
        if not free:
            raise TTResourceError.at(
                loc,
                f"this statement needs an intermediate circular buffer for a sub-expression DST cannot hold, "
                f"but all {self.target.num_circular_buffers} are in use; split the expression",
            )
        dtype = "float32" if self.fp32 else compute_dtype(like.dtype)  # a part is never block-float
        fmt, page = DATA_FORMATS[dtype]
        k = sum(1 for e in self.cbs.values() if e.buffer.startswith(f"{like.buffer}_part"))
        entry = replace(
            like,
            cb=free[0],
            buffer=f"{like.buffer}_part{k}",
            name=f"{like.name}_part{k}",
            role="intermediate",
            dtype=dtype,
            format=fmt,
            page_size=page,
            depth=like.tiles,
            total_bytes=like.tiles * page,
            subblock=None,
        )
        self.cbs[entry.cb] = entry
        if sum(e.total_bytes for e in self.cbs.values()) > self.cb_budget:
            raise TTResourceError.at(
                loc,
                f"the intermediate circular buffer {entry.name} does not fit in L1; split the expression",
            )
        return entry.cb

    def matmul(self, c, loc):
        f = ops.fields(c)
        a, b, cc, tb = f.a, f.b, f.c, f.trans_b
        mt, kt = self.cbs[a].tile_shape
        nt = self.cbs[cc].tile_shape[1]
        ca, cb, ccv = self.cb_var(a), self.cb_var(b), self.cb_var(cc)
        accumulate = cc in self.live and not ops.is_op(c, "tt.tile.matmul_cleared")
        fused = next(((e, at) for call, e, at in self.loaded_as if call.same_as(c)), None)
        code = _Expr(self, self.cbs[cc], loc)
        prefix = []
        if fused is not None:  # the statement's own line, then why it has no code of its own
            prefix = [x for x in (dsl_comment(fused[1]),) if x is not None]
            prefix.append(comment("(applied to the sums of the next T.gemm as it loads them)"))

        def per_tile(t, s):
            m, n = simplify(tirx.floordiv(t, nt)), simplify(tirx.floormod(t, nt))
            k = tirx.Var("kt", "int32")
            b_index = simplify(n * kt + k) if tb else simplify(k * nt + n)
            if fused is not None:
                out = code.emit(fused[0], t, s)
            else:
                out = [extern("copy_init", ccv), extern("copy_tile", ccv, t, s)] if accumulate else []
            return out + [
                extern("matmul_init", ca, cb, tb),
                tirx.For(
                    k,
                    0,
                    kt,
                    tirx.ForKind.SERIAL,
                    extern("matmul_tiles", ca, cb, simplify(m * kt + k), b_index, s),
                ),
            ]

        if fused is None:
            return self.produce(cc, 1, per_tile, loc, [a, b])
        reads = [a, b, *operand_cbs(fused[0])]
        return prefix + self.produce(cc, code.need(fused[0]), per_tile, loc, reads)

    def _applied_as_loaded(self, stmts: list) -> list:
        """``stmts`` without each element-wise statement whose result a GEMM then adds to (flash attention's
        ``acc_o *= scores_scale`` before ``T.gemm(P, V, acc_o)``): the GEMM loads its sums through that
        expression instead (``loaded_as``), so they are packed once per step, not twice, with the same bits
        (DST holds the expression's value either way). Only the reader's waits may stand between the two,
        and the expression must fit DST beside nothing else."""
        dropped = []
        for i, stmt in enumerate(stmts):
            call = _tile_call(stmt, ("tt.tile.eltwise",))
            if call is None:
                continue
            dst, expr = ops.fields(call).dst, ops.fields(call).expr
            reads = set(operand_cbs(expr))
            if _Expr(self, self.cbs[dst], ops.loc_of(call)).need(expr) > self.capacity:
                continue
            for later in stmts[i + 1 :]:
                waits = _tile_call(later, _WAITS)
                if waits is not None and ops.fields(waits).cb not in reads | {dst}:
                    continue
                gemm = _tile_call(later, ("tt.tile.matmul",))
                if (
                    gemm is not None
                    and ops.fields(gemm).c == dst
                    and dst not in (ops.fields(gemm).a, ops.fields(gemm).b)
                ):
                    self.loaded_as.append((gemm, expr, ops.loc_of(call)))
                    dropped.append(i)
                break
        return [s for i, s in enumerate(stmts) if i not in dropped]

    def _copied_as_made(self, stmts: list) -> list:
        """``stmts`` without each ``T.copy(X, Y)`` of a value X an element-wise statement made earlier in
        ``stmts`` (flash attention's ``T.copy(acc_s, acc_s_cast)`` after its exponentials): that statement
        packs its tiles into Y too (``copied_as_made``), the packer converting them as the copy would have
        (same bits), instead of the copy moving X through DST again. Only tile ops that neither write X nor
        touch Y may stand between the two, X and Y must have the same tiles, and Y is not the writer's."""
        dropped = []
        for i, stmt in enumerate(stmts):
            call = _tile_call(stmt, ("tt.tile.eltwise",))
            if call is None:
                continue
            made, between = ops.fields(call).dst, set()
            for j in range(i + 1, len(stmts)):
                later = _tile_call(stmts[j], tuple(ops.SPECS))
                spec = None if later is None else ops.SPECS[str(later.op.name)]
                if (
                    spec is None
                    or not (spec.reads or spec.writes)
                    or made in ops.cbs_read_and_written(later)[1]
                ):
                    break  # a loop, a branch, an op whose CBs are not declared (a release), or X changes
                f = ops.fields(later)
                if ops.is_op(later, "tt.tile.copy") and f.src == made:
                    copy = f.dst
                    same = self.cbs[copy].tile_shape == self.cbs[made].tile_shape
                    # not into the writer's CB: reserved before the statement computes, it would hold the
                    # statement back until the writer drains it (online softmax's output: 0.8% slower)
                    mine = self.cbs[copy].role != "output"
                    if same and mine and copy not in between and copy != made:
                        self.copied_as_made.append((call, copy))
                        dropped.append(j)
                    break
                between |= _cbs_touched(later)
        return [s for i, s in enumerate(stmts) if i not in dropped]

    def reduce(self, c, loc):
        f = ops.fields(c)
        src, dst, kind, dim, clear, scaler, scratch, mask = (
            f.src,
            f.dst,
            f.kind,
            f.dim,
            f.clear,
            f.scaler,
            f.scratch,
            f.mask,
        )
        spec = REDUCE[kind]
        prologue, epilogue = [], []
        if spec.prepare or mask >= 0:
            self.require_live(src, loc)
            cs0, fmt = self.cb_var(src), "Float32" if self.fp32 else "Float16_b"

            def prepared(t, s):
                # The padding of a dimension shorter than its tiles becomes the identity: where the
                # generated tile (in s) is 1, the source (s + 1), else the identity (s + 2).
                if mask < 0:
                    out = [extern("copy_init", cs0), extern("copy_tile", cs0, t, s)]
                else:
                    cm = self.cb_var(mask)
                    out = [
                        extern("copy_init", cm),
                        extern("copy_tile", cm, t, s),
                        extern("copy_init", cs0),
                        extern("copy_tile", cs0, t, s + 1),
                        extern("fill_tile_init"),
                        extern("fill_tile", s + 2, f.identity),
                        extern("where_tile_init"),
                        extern(f"where_tile<DataFormat::{fmt}>", s, s + 1, s + 2, s),
                    ]
                if spec.prepare:
                    out += [extern(f"{spec.prepare}_tile_init"), extern(f"{spec.prepare}_tile", s)]
                return out

            reads = [src, mask] if mask >= 0 else [src]
            prologue = self.produce(scratch, 3 if mask >= 0 else 1, prepared, loc, reads)
            epilogue = [extern("cb_pop_front", self.cb_var(scratch), self.n(scratch))]
            src = scratch
        rt, ct = self.cbs[src].tile_shape
        combine = not clear
        if combine:
            self.require_live(dst, loc)
        cs, cd, csc = self.cb_var(src), self.cb_var(dst), self.cb_var(scaler)
        template = f"<PoolType::{spec.pool}, ReduceDim::{'REDUCE_ROW' if dim == 1 else 'REDUCE_COL'}>"

        def per_tile(t, s):
            i = tirx.Var("ct" if dim == 1 else "rt", "int32")
            index = simplify(t * ct + i) if dim == 1 else simplify(i * ct + t)
            body = [
                extern(f"reduce_init{template}", cs, csc, cd),
                tirx.For(
                    i,
                    0,
                    ct if dim == 1 else rt,
                    tirx.ForKind.SERIAL,
                    extern(f"reduce_tile{template}", cs, csc, index, 0, s),
                ),
                extern("reduce_uninit"),
            ]
            if spec.negate:
                body += [extern("negative_tile_init"), extern("negative_tile", s)]
            if combine:
                api = SFPU_BINARY[spec.combine]
                body += [
                    extern("copy_init", cd),
                    extern("copy_tile", cd, t, s + 1),
                    extern(f"{api}_init"),
                    extern(api, s, s + 1, s),
                ]
            return body

        out = self.produce(dst, 2 if combine else 1, per_tile, loc, [src])
        if spec.prepare or mask >= 0:
            self.live.discard(src)  # the scratch block lives for this reduction only
        return prologue + out + epilogue

    def transpose(self, c, loc):
        src, dst = ops.fields(c).src, ops.fields(c).dst
        src_cols, dst_cols = self.cbs[src].tile_shape[1], self.cbs[dst].tile_shape[1]
        cs = self.cb_var(src)

        def per_tile(t, s):  # output tile (r, c) is source tile (c, r), transposed within the tile
            index = simplify(tirx.floormod(t, dst_cols) * src_cols + tirx.floordiv(t, dst_cols))
            return [extern("transpose_init", cs), extern("transpose_tile", cs, index, s)]

        return self.produce(dst, 1, per_tile, loc, [src])

    # ---- structure --------------------------------------------------------------------------------
    def rewrite(self, stmt):
        if isinstance(stmt, tirx.SeqStmt):
            stmts = self._copied_as_made(self._applied_as_loaded(list(stmt.seq)))
            return seq([self.rewrite(s) for s in stmts])
        if isinstance(stmt, tirx.For):
            entry = set(self.live)
            body = self.rewrite(stmt.body)
            # a step's window ends with its loop: the kept CB is read again only in a later loop's steps
            self.window = {
                cb: offset
                for cb, offset in self.window.items()
                if not any(v.same_as(stmt.loop_var) for v in collect_vars(offset))
            }
            dying = sorted(self.live - entry)
            self.live = entry
            pops = [extern("cb_pop_front", self.cb_var(cb), self.n(cb)) for cb in dying]
            return with_loop_body(stmt, seq([body] + pops))
        if isinstance(stmt, tirx.IfThenElse):
            entry = set(self.live)
            then = self.rewrite(stmt.then_case)
            after_then, self.live = self.live, set(entry)
            other = None if stmt.else_case is None else self.rewrite(stmt.else_case)
            after_other = self.live
            # A value made in one branch only (the tiles a masked block loads) ends with that branch: code
            # after the if that reads it is told it holds no value there (require_live). Branches only add
            # values, so what held one before the if still does after it.

            def ended(branch, made_here: set):
                pops = [extern("cb_pop_front", self.cb_var(cb), self.n(cb)) for cb in sorted(made_here)]
                return seq([branch, *pops]) if pops else branch

            then = ended(then, after_then - after_other)
            other = ended(other if other is not None else seq([]), after_other - after_then)
            self.live = after_then & after_other
            return tirx.IfThenElse(stmt.condition, then, None if is_noop(other) else other)
        if isinstance(stmt, tirx.Evaluate) and isinstance(stmt.value, tvm.ir.Call):
            c = stmt.value
            for name, fn in _HANDLERS.items():
                if ops.is_op(c, name):
                    out = seq(fn(self, c, ops.loc_of(c)))
                    return self.in_window(out) if self.window else out
        return stmt

    def prologue(self):
        scalers = [e for e in self.cbs.values() if e.buffer == "reduce_scaler"]
        # the engines are configured for tile formats: an index table's words are never unpacked
        tiles = [e for e in self.cbs.values() if e.role != "table"]
        ins = [e for e in tiles if e.role == "input"] or tiles
        outs = [e for e in tiles if e.role == "output"] or tiles
        out = [
            comment("Configure the unpacker, math engines and packer"),
            extern(
                "compute_kernel_hw_startup",
                self.cb_var(ins[0].cb),
                self.cb_var(ins[-1].cb),
                self.cb_var(outs[0].cb),
            ),
        ]
        for e in scalers:
            out.append(comment("The reduce scaler: a tile of ones, filled once"))
            out += self.produce(
                e.cb,
                1,
                lambda t, s: [extern("fill_tile_init"), extern("fill_tile", s, tirx.const(1.0, "float32"))],
                "",
            )
        return out


_WAITS = ("tt.tile.wait_input", "tt.tile.wait_kept", "tt.tile.use_kept")


def _tile_call(stmt, names: tuple[str, ...]) -> tvm.ir.Call | None:
    """The call of one of the tile ops ``names`` that ``stmt`` evaluates, if it is one."""
    return stmt.value if any(ops.is_op(stmt, name) for name in names) else None


def _cbs_touched(call) -> set[int]:
    """Every CB a tile op reads or writes (an element-wise statement's operands included)."""
    reads, writes = ops.cbs_read_and_written(call)
    found = set(reads + writes)
    return found | set(operand_cbs(ops.fields(call).expr)) if ops.is_op(call, "tt.tile.eltwise") else found


_HANDLERS = {
    "tt.tile.wait_table": lambda sched, c, loc: [extern("cb_wait_front", sched.cb_var(ops.fields(c).cb), 1)],
    "tt.tile.release_table": lambda sched, c, loc: [
        extern("cb_pop_front", sched.cb_var(ops.fields(c).cb), 1)
    ],
    "tt.tile.wait_input": _Scheduler.wait_input,
    "tt.tile.wait_kept": _Scheduler.wait_kept,
    "tt.tile.use_kept": _Scheduler.use_kept,
    "tt.tile.release_kept": _Scheduler.release_kept,
    "tt.tile.fill": _Scheduler.fill,
    "tt.tile.copy": _Scheduler.copy,
    "tt.tile.tilize": _Scheduler.tilize,
    "tt.tile.eltwise": _Scheduler.eltwise,
    "tt.tile.matmul": _Scheduler.matmul,
    "tt.tile.matmul_cleared": _Scheduler.matmul,
    "tt.tile.reduce": _Scheduler.reduce,
    "tt.tile.transpose": _Scheduler.transpose,
}


def ScheduleTileComputeTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if (
            get_attr(func, "tt.kernel_role") != "compute"
            or get_attr(func, "tt.compute_schedule") != "tile_program"
        ):
            return func
        sched = _Scheduler(func)
        prologue = sched.prologue()
        body = read_values_in_compute(sched.rewrite(func.body), sched.cbs)
        body = seq(
            prologue
            + [body]
            + [
                extern("cb_pop_front", sched.cb_var(cb), sched.n(cb))
                for cb in sorted(sched.live)
                if sched.cbs[cb].buffer != "reduce_scaler"
            ]
        )
        config = ComputeConfig(
            math_fidelity=require_attr(func, "tt.options", "ScheduleTileComputeTT").math_fidelity,
            fp32_dest_acc_en=sched.fp32,
            dst_full_sync_en=False,
            math_approx_mode=False,
        )
        # Spills added CBs: the compute kernel's table is the program's (the host creates CBs from it).
        table = list(sched.cbs.values())
        return func.with_body(body).with_attrs({"tt.compute_config": config, "tt.cb_table": table})

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="ScheduleTileComputeTT")
