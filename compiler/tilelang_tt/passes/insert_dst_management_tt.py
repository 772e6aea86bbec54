"""D5 · InsertDSTManagementTT — give the compute kernel its DST register lifecycle and CB synchronisation.

Input expectations
    The compute kernel after InsertComputeInitTT: per accumulator ``[tt.fpu.zero(acc)]``, the reduction
    loops around ``tt.mm.mma(...)`` (or a bare mma), then ``tt.pack(acc, cb)``, all in one sequence;
    ``tt.accumulators`` with ``subblock`` (BuildTileDFGTT), ``residency`` and ``spill_cb``; ``tt.cb_table``.
Output guarantees
    No tile intrinsic remains. ``residency == "dst"`` (the fragment fits DST): one tile_regs_acquire before
    the reduction loops, per step cb_wait_front(in0/in1) → the products (matmul_form: one matmul_block per kt
    for the whole DST subblock, or matmul_tiles for every (mt, nt, kt)) → cb_pop_front, then tile_regs_commit
    / tile_regs_wait / cb_reserve_back / pack_tile… / cb_push_back / tile_regs_release. ``subblocked``: per
    step and per [h, w] subblock an acquire/commit/wait/release of its own; from the second step on the
    subblock's partial sums are reloaded from the intermediate CB (copy_init, copy_tile, then the matmul's
    init) and, except on the last step, packed back to it; the last step packs to the output CB. With
    ``packer_l1_acc`` (tt.options) the steps before the last free and re-reserve the subblock's spill pages
    instead of reloading them, and pack into them under ``pack_reconfig_l1_acc`` (0 on the first step, 1
    after: the packer adds to the partial sums in L1); only the last step reloads them, and packs the total
    with accumulation off. An accumulator with ``k_group`` f > 1 (LowerSharedToCB) takes its inputs f steps at
    a time: a ``k_group`` loop replaces the step loop (none when one group covers K), and each DST pass runs
    the f steps' matmuls (``k_step``) before spilling. The matmul order over K is unchanged, so the sums are
    bit-identical (not with packer_l1_acc, which adds each group's sums to the partial sums rather than the
    products one by one). Accumulation starts from zero (DST is cleared by acquire) and runs in fp32 when the
    accumulator is float32. With transpose_A each step first transposes A's tiles (transpose_tile through DST)
    into the intermediate CB in (m, k) order and multiplies from there. When the kernel's matmuls differ in
    what their init configures, each accumulator's code starts with its short init. Matmul tile indices: in0 m
    * Kt + kt, in1 kt * Nt + n (n * Kt + kt when transpose_B), DST h * w_sub + w; in a group, step s adds s *
    Mt * Kt and s * Kt * Nt.
Example
    before: T.tt.fpu.zero(0, l); for k in range(8): T.tt.mm.mma(0, 1, 0, 2, 2, 1, 0, 0, l)
            T.tt.pack(0, 16, l)
    after:  tile_regs_acquire(); for k: cb_wait_front(cb_in0, 2); cb_wait_front(cb_in1, 2);
            matmul_block(cb_in0, cb_in1, 0, 0, 0, 0, 2, 2, 1); cb_pop_front(...) ...;
            tile_regs_commit(); tile_regs_wait(); cb_reserve_back(cb_out0, 4);
            for i: pack_tile(i, cb_out0); ...
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_insert_dst_management_tt
"""

from __future__ import annotations

import tvm
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import (
    cb_var,
    dsl_comment,
    extern,
    find_ops,
    get_attr,
    loop,
    require_attr,
    seq,
    simplify,
    with_loop_body,
)
from ..records import CircularBuffer
from .matmul_form import init_key, matmul_block_of, matmul_init


def _mma_of(stmt):
    """(mma call, reduction loops) when ``stmt`` is a (loop nest around a) single tt.mm.mma."""
    loops = []
    while isinstance(stmt, tirx.For):
        loops.append(stmt)
        stmt = stmt.body
    return (stmt.value, loops) if ops.is_op(stmt, "tt.mm.mma") else (None, [])


class _Lowering:
    def __init__(self, func):
        self.cbs = {e.cb: e for e in require_attr(func, "tt.cb_table", "InsertDSTManagementTT")}
        self.accs = require_attr(func, "tt.accumulators", "InsertDSTManagementTT")
        # InsertComputeInitTT configured the engines for the first matmul; when matmuls differ in what their
        # init configures, each re-initialises before it runs.
        mmas = [m.call for m in find_ops(func.body, ("tt.mm.mma",))]
        self.reinit = len({init_key(m, self.accs[ops.fields(m).acc]) for m in mmas}) > 1
        self.packer_l1_acc = require_attr(func, "tt.options", "InsertDSTManagementTT").packer_l1_acc

    def _in0(self, mma) -> CircularBuffer:
        """The CB matmul reads A from: A's own CB, or with transpose_A the CB of its transposed tiles."""
        a = self.cbs[ops.fields(mma).cb_a]
        if not ops.fields(mma).trans_a:
            return a
        return next(e for e in self.cbs.values() if e.source == a.buffer)

    def _transpose_a(self, mma) -> list:
        """transpose_A: A's (k, m)-ordered tiles → transposed, in (m, k) order, into the intermediate CB."""
        a, at = self.cbs[ops.fields(mma).cb_a], self._in0(mma)
        mt, kt = ops.fields(mma).mt, ops.fields(mma).kt

        def one(m, k):
            return seq([
                extern("tile_regs_acquire"),
                extern("transpose_tile", cb_var(a), simplify(k * mt + m), 0),
                extern("tile_regs_commit"),
                extern("tile_regs_wait"),
                extern("pack_tile", 0, cb_var(at)),
                extern("tile_regs_release"),
            ])  # fmt: skip

        return [
            extern("transpose_init", cb_var(a)),
            extern("cb_reserve_back", cb_var(at), mt * kt),
            loop("mt", mt, lambda m: loop("kt", kt, lambda k: one(m, k))),
            extern("cb_push_back", cb_var(at), mt * kt),
            extern("cb_pop_front", cb_var(a), mt * kt),
            extern("cb_wait_front", cb_var(at), mt * kt),
            matmul_init(
                mma, self.accs[ops.fields(mma).acc], cb_var(at), cb_var(self.cbs[ops.fields(mma).cb_b])
            ),
        ]

    def _matmuls(self, mma, m0, n0, sh, sw, group=1):
        """The subblock's matmuls; with ``group`` > 1, over that many reader steps in the CBs, in K order.

        One matmul_block per K tile when the subblock's B tiles are contiguous (matmul_form), else one
        matmul_tiles per output tile and K tile. Each output tile sums over K in the same order either way.
        """
        cb_a, cb_b = cb_var(self._in0(mma)), cb_var(self.cbs[ops.fields(mma).cb_b])
        mt_all, nt_all, kt_all = (getattr(ops.fields(mma), f) for f in ("mt", "nt", "kt"))
        trans_b = ops.fields(mma).trans_b
        block = matmul_block_of(mma, self.accs[ops.fields(mma).acc])

        def a_index(step, m, kt):
            return simplify(step * mt_all * kt_all + m * kt_all + kt)

        def b_index(step, n, kt):
            return simplify(step * kt_all * nt_all + (n * kt_all + kt if trans_b else kt * nt_all + n))

        def over_k(product):
            if group == 1:
                return loop("kt", kt_all, lambda kt: product(0, kt))
            return loop("k_step", group, lambda step: loop("kt", kt_all, lambda kt: product(step, kt)))

        if block is not None:
            return over_k(
                lambda step, kt: extern(
                    "matmul_block",
                    cb_a,
                    cb_b,
                    a_index(step, m0, kt),
                    b_index(step, n0, kt),
                    0,
                    trans_b,
                    block.ct_dim,
                    block.rt_dim,
                    block.kt_dim,
                )
            )

        def tile(h, w):
            return over_k(
                lambda step, kt: extern(
                    "matmul_tiles",
                    cb_a,
                    cb_b,
                    a_index(step, m0 + h, kt),
                    b_index(step, n0 + w, kt),
                    simplify(h * sw + w),
                )
            )

        return loop("mt", sh, lambda h: loop("nt", sw, lambda w: tile(h, w)))

    def _pack(self, cb_entry, n):
        return seq(
            [
                extern("cb_reserve_back", cb_var(cb_entry), n),
                loop("i", n, lambda i: extern("pack_tile", i, cb_var(cb_entry))),
                extern("cb_push_back", cb_var(cb_entry), n),
            ]
        )

    def _wait_inputs(self, mma, op, group=1):
        mt, nt, kt = (getattr(ops.fields(mma), f) for f in ("mt", "nt", "kt"))
        a = self.cbs[ops.fields(mma).cb_a] if op == "cb_wait_front" else self._in0(mma)
        return [
            extern(op, cb_var(a), group * mt * kt),
            extern(op, cb_var(self.cbs[ops.fields(mma).cb_b]), group * kt * nt),
        ]

    def _with_loops(self, loops, body):
        for lp in reversed(loops):
            body = with_loop_body(lp, body)
        return body

    def accumulate(self, mma, loops, pack):
        acc = self.accs[ops.fields(mma).acc]
        out = self.cbs[ops.fields(pack).cb]
        sh, sw = acc.subblock
        mt, nt = acc.tiles
        header = [dsl_comment(ops.loc_of(mma))]
        if self.reinit:
            header.append(
                matmul_init(mma, acc, cb_var(self._in0(mma)), cb_var(self.cbs[ops.fields(mma).cb_b]))
            )
        if acc.residency == "dst":
            step = seq(
                self._wait_inputs(mma, "cb_wait_front")
                + [self._matmuls(mma, 0, 0, mt, nt)]
                + self._wait_inputs(mma, "cb_pop_front")
            )
            return seq(
                header
                + [
                    extern("tile_regs_acquire"),
                    self._with_loops(loops, step),
                    extern("tile_regs_commit"),
                    extern("tile_regs_wait"),
                    dsl_comment(ops.loc_of(pack)),
                    self._pack(out, mt * nt),
                    extern("tile_regs_release"),
                ]
            )
        spill = self.cbs.get(acc.spill_cb)
        group = acc.k_group
        if group > 1:  # one loop over groups of reader steps replaces the loop over steps
            (step_loop,) = loops
            groups = int(step_loop.extent.value) // group
            k_group = tirx.Var("k_group", step_loop.loop_var.ty)
            loops = [tirx.For(k_group, 0, groups, step_loop.kind, step_loop.body)] if groups > 1 else []
        first = tvm.tirx.const(True, "bool")
        last = tvm.tirx.const(True, "bool")
        for lp in loops:
            first = tirx.And(first, tirx.EQ(lp.loop_var, lp.min)) if spill else first
            last = tirx.And(last, tirx.EQ(lp.loop_var, simplify(lp.min + lp.extent - 1)))
        first, last = simplify(first), simplify(last)
        cb_a, cb_b = cb_var(self._in0(mma)), cb_var(self.cbs[ops.fields(mma).cb_b])
        n_sub = sh * sw
        # packer_l1_acc: the passes before the last pack into the spill CB adding to what it holds (the
        # first overwrites); freeing and reserving the pages again brings the pack back to the same pages,
        # since the CB holds exactly the accumulator. The last pass reloads the sums and packs the total.
        l1_acc = self.packer_l1_acc and spill is not None

        def subblock(bi, bj):
            stmts = [extern("tile_regs_acquire")]
            if spill is not None:
                reload = seq(
                    [
                        extern("copy_init", cb_var(spill)),
                        extern("cb_wait_front", cb_var(spill), n_sub),
                        loop("i", n_sub, lambda i: extern("copy_tile", cb_var(spill), i, i)),
                        extern("cb_pop_front", cb_var(spill), n_sub),
                        matmul_init(mma, acc, cb_a, cb_b),
                    ]
                )
                if l1_acc:
                    free = seq(
                        [
                            extern("cb_wait_front", cb_var(spill), n_sub),
                            extern("cb_pop_front", cb_var(spill), n_sub),
                        ]
                    )
                    stmts.append(tirx.IfThenElse(last, reload, tirx.IfThenElse(tirx.Not(first), free, None)))
                else:
                    stmts.append(tirx.IfThenElse(tirx.Not(first), reload, None))
            stmts += [
                self._matmuls(mma, bi * sh, bj * sw, sh, sw, group),
                extern("tile_regs_commit"),
                extern("tile_regs_wait"),
            ]
            if spill is None:
                stmts.append(self._pack(out, n_sub))
            elif l1_acc:
                accumulate = tirx.Select(first, tirx.const(0, "int32"), tirx.const(1, "int32"))
                to_out = seq([extern("pack_reconfig_l1_acc", 0), self._pack(out, n_sub)])
                to_spill = seq([extern("pack_reconfig_l1_acc", accumulate), self._pack(spill, n_sub)])
                stmts.append(tirx.IfThenElse(last, to_out, to_spill))
            else:
                stmts.append(tirx.IfThenElse(last, self._pack(out, n_sub), self._pack(spill, n_sub)))
            stmts.append(extern("tile_regs_release"))
            return seq(stmts)

        step = seq(
            self._wait_inputs(mma, "cb_wait_front", group)
            + (self._transpose_a(mma) if ops.fields(mma).trans_a else [])
            + [
                loop(
                    "m_subblock",
                    mt // sh,
                    lambda bi: loop("n_subblock", nt // sw, lambda bj: subblock(bi, bj)),
                )
            ]
            + self._wait_inputs(mma, "cb_pop_front", group)
        )
        return seq(header + [self._with_loops(loops, step)])

    def rewrite(self, stmt):
        if isinstance(stmt, tirx.SeqStmt):
            items, out, i = list(stmt.seq), [], 0
            while i < len(items):
                s = items[i]
                mma, loops = _mma_of(s)
                if mma is None:
                    if not ops.is_op(s, "tt.fpu.zero"):
                        out.append(self.rewrite(s))
                    i += 1
                    continue
                if i + 1 >= len(items) or not ops.is_op(items[i + 1], "tt.pack"):
                    raise TTCompileError.at(
                        ops.loc_of(mma),
                        "the gemm's accumulator must be copied out right after its reduction loop",
                    )
                out.append(self.accumulate(mma, loops, items[i + 1].value))
                i += 2
            return seq(out)
        if isinstance(stmt, tirx.For):
            return with_loop_body(stmt, self.rewrite(stmt.body))
        return stmt


def InsertDSTManagementTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.compute_schedule") == "tile_program":
            return func  # LowerTileProgramTT / ScheduleTileComputeTT own it
        if get_attr(func, "tt.kernel_role") != "compute":
            return func
        body = _Lowering(func).rewrite(func.body)
        leftover = find_ops(body, ("tt.mm.mma", "tt.pack", "tt.fpu.zero"))
        if leftover:
            raise TTCompileError.at(
                leftover[0].loc,
                "this tile operation is not in a form the compute kernel "
                "supports (zero → reduction loop with T.gemm → copy out)",
            )
        return func.with_body(body)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="InsertDSTManagementTT")
