"""D2 · ConfigureTensorAccessorTT — bind each data-movement kernel's tensor accessors to argument slots.

Input expectations
    Split kernels (SplitDeviceKernel) whose ``tt.read_to_cb`` / ``tt.write_from_cb`` name tensors by
    parameter index; ``tt.tensor_accessors`` and ``tt.cb_table``.
Output guarantees
    Reader and writer kernels get ``tt.accessor_args``: in order of first use, ``AccessorArgs`` (param,
    tensor, accessor, args, addr, tile_bytes, cb, ct_offset, tiles, memory, and a sharded tensor's shard
    grid, order and halo, for LowerCBIntrinsics' window reads): the accessor's
    ``TensorAccessorArgs`` start at compile-time argument ``ct_offset`` (one word each for interleaved
    tensors, chained with ``next_compile_time_args_offset()``), its base address is the runtime argument named
    ``addr`` (indexed by FinalizePersistentSignatureTT), its page size is read from CB ``cb`` with
    get_tile_size. The parameter index argument of each intrinsic is replaced by the accessor variable.
    Compute kernels are unchanged.
Example
    before: T.tt.read_to_cb(0, 0, by * 2, k, 2, 1, loc)
    after:  T.tt.read_to_cb(0, a, by * 2, k, 2, 1, loc)
            "tt.accessor_args": [AccessorArgs(param=0, tensor="A", accessor="a", args="a_args",
                                              addr="a_addr", tile_bytes="a_tile_bytes", cb=0, ...)]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_configure_tensor_accessor_tt
"""

from __future__ import annotations

import re

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..ir_utils import collect_vars, cpp_identifier, find_ops, get_attr, named, require_attr
from ..records import AccessorArgs

DM_OPS = (
    "tt.read_to_cb",
    "tt.write_from_cb",
    "tt.read_row",
    "tt.write_row",
    "tt.read_im2col",
    "tt.read_table",
)


def _identifier(tensor: str, taken: set[str]) -> str:
    base = re.sub(r"\W", "_", tensor).lower() or "t"
    if cpp_identifier(base) != base:  # a C++ keyword: dO's accessor is do_tensor
        base = f"{base}_tensor"
    name = base if base not in taken else f"{base}_tensor"
    taken.add(name)
    return name


def ConfigureTensorAccessorTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        if get_attr(func, "tt.kernel_role") not in ("reader", "writer"):
            return func
        tensors = require_attr(func, "tt.tensor_accessors", "ConfigureTensorAccessorTT")
        taken = {str(v.name) for v in collect_vars(func.body)} | {"mt", "nt", "kt", "block_id"}
        entries: dict[int, AccessorArgs] = {}
        for site in find_ops(func.body, DM_OPS):
            param = ops.fields(site.call).tensor
            if param in entries:
                continue
            t = tensors[param]
            acc = _identifier(t.name, taken)
            entries[param] = AccessorArgs(
                param=param,
                tensor=t.name,
                accessor=acc,
                args=f"{acc}_args",
                addr=f"{acc}_addr",
                tile_bytes=f"{acc}_tile_bytes" if t.page_layout == "tile" else f"{acc}_page_bytes",
                cb=ops.fields(site.call).cb,
                ct_offset=len(entries),
                tiles=t.tiles,
                memory=t.memory,
                page_layout=t.page_layout,
                page_size=t.page_size,
                **(
                    {"shard_grid": t.shard_grid, "shard_order": t.shard_order, "halo": t.halo}
                    if t.halo
                    else {}
                ),
            )
        accessor_vars = {p: named(e.accessor) for p, e in entries.items()}

        def bind(ev):
            if any(ops.is_op(ev, n) for n in DM_OPS):
                call = ev.value
                args = list(call.args)
                args[ops.SPECS[str(call.op.name)].fields.index("tensor")] = accessor_vars[
                    ops.fields(call).tensor
                ]
                return tirx.Evaluate(tvm.ir.Call(call.op, args, ret_ty="void"))
            return ev

        body = tvm_ffi.structural_map(func.body, (tirx.Evaluate, bind), order="post")
        return func.with_body(body).with_attr("tt.accessor_args", list(entries.values()))

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="ConfigureTensorAccessorTT")
