"""A · ApplyTTDefaults — stamp the target, the options and each buffer's tile data format on the function.

Input expectations
    A PrimFunc parsed from the DSL (``tl.*`` tile ops, ``blockIdx`` launch threads, shared/fragment
    allocations). Parameters are 2-D buffers.
Output guarantees
    Function attributes ``tt.target`` (the device facts of ``target.py``), ``tt.options`` (partition_strategy,
    enable_double_buffer, enable_prefetch, math_fidelity, packer_l1_acc) and ``tt.data_formats`` (buffer name
    → tt::DataFormat name, for parameters and allocations; an index table, ``tt.index_tables``, is UInt32
    words). Every other dtype is one the target can hold in tiles ("float" is float32), and every buffer and
    launch-grid extent is a static, non-zero integer; otherwise TTCompileError at the first DSL line using the
    buffer (or at the launch). The body is unchanged.
Example
    before: def f(A: T.Buffer((64, 64), "bfloat16"), ...)
    after:  same body, T.func_attr({"tt.data_formats": {"A": "Float16_b", ...},
                                    "tt.target": TargetFacts(...), "tt.options": Options(...)})
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k \\
        --test_arg=test_apply_tt_defaults
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..ir_utils import def_loc, find_ops, first_use_loc, get_attr, region, storage_dtype, tensor_params
from ..options import PARTITION_STRATEGIES, check_math_fidelity
from ..pass_config import TT_APPROXIMATE_EXP
from ..records import Options
from ..target import DATA_FORMATS, TABLE_FORMAT, get_target


def _allocations(func: tirx.PrimFunc) -> list[tirx.Buffer]:
    found = []
    tvm_ffi.structural_walk(func.body, (tirx.AllocBuffer, lambda a: found.append(a.buffer)))
    return found


def _check_static_extents(func: tirx.PrimFunc, buffers: list[tirx.Buffer]) -> None:
    """Shapes and grid extents must be known, non-zero integers: the device program is sized by them."""
    for buf in buffers:
        for d, extent in enumerate(buf.shape):
            if not isinstance(extent, tirx.IntImm):
                raise TTCompileError.at(
                    first_use_loc(func, buf),
                    f"buffer {buf.name} has a symbolic dimension {extent} (dimension {d} of "
                    f"{tuple(buf.shape)}); Tenstorrent programs are compiled for static shapes: "
                    f"compile one kernel per shape",
                )
            if int(extent) <= 0:
                raise TTCompileError.at(
                    first_use_loc(func, buf),
                    f"buffer {buf.name} has shape {tuple(int(s) for s in buf.shape)}, with an empty "
                    f"dimension {d}; there is nothing to compute",
                )
    node = func.body
    while isinstance(node, tirx.AttrStmt) and node.attr_key == "thread_extent":
        extent = node.value
        if not isinstance(extent, tirx.IntImm) or int(extent) <= 0:
            raise TTCompileError.at(
                def_loc(func),
                f"launch grid axis {node.node.thread_tag} has extent {extent}; T.Kernel extents must be "
                f"positive integers",
            )
        node = node.body


def _formats(func: tirx.PrimFunc, target) -> dict[str, str]:
    buffers = tensor_params(func) + _allocations(func)
    _check_static_extents(func, buffers)
    tables = {t.name for t in get_attr(func, "tt.index_tables", [])}
    formats = {name: TABLE_FORMAT for name in tables}
    for buf in buffers:
        if str(buf.name) in tables:
            continue
        dtype = storage_dtype(func, buf)
        if dtype not in DATA_FORMATS or DATA_FORMATS[dtype][0] not in target.data_formats:
            raise TTCompileError.at(
                first_use_loc(func, buf),
                f"buffer {buf.name} has dtype {dtype}; {target.name} tiles support "
                f"{', '.join(d for d, (f, _) in DATA_FORMATS.items() if f in target.data_formats)}",
            )
        formats[str(buf.name)] = DATA_FORMATS[dtype][0]
    # Decode every tile region once here so a non-constant extent fails at the first pass, on its DSL line.
    for site in find_ops(func.body, ops.TL_OPS):
        for arg in site.call.args:
            if isinstance(arg, tvm.ir.TensorRegion):
                region(arg, site.loc, tile_view=False)
    return formats


def ApplyTTDefaults(
    target_device: str = "wormhole",
    partition_strategy: str = "row_major",  # noqa: N802
    enable_double_buffer: bool = True,
    enable_prefetch: bool = True,
    math_fidelity: str = "HiFi4",
    packer_l1_acc: bool = False,
) -> tvm.transform.Pass:
    target = get_target(target_device)
    if partition_strategy not in PARTITION_STRATEGIES:
        raise TTCompileError(
            f"unknown partition strategy {partition_strategy!r}; "
            f"choose one of {', '.join(PARTITION_STRATEGIES)}"
        )
    check_math_fidelity(math_fidelity)

    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        return func.with_attrs(
            {
                "tt.target": target.as_record(),
                "tt.options": Options(
                    partition_strategy=partition_strategy,
                    enable_double_buffer=bool(enable_double_buffer),
                    enable_prefetch=bool(enable_prefetch),
                    math_fidelity=math_fidelity,
                    packer_l1_acc=bool(packer_l1_acc),
                    approximate_exp=bool(func.attrs and func.attrs.get(TT_APPROXIMATE_EXP, False)),
                ),
                "tt.data_formats": _formats(func, target),
            }
        )

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="ApplyTTDefaults")
