"""A01 · StageIndexTablesTT — tensors read one value at a time become tables the kernels hold in L1.

TileLang programs steer their tile operations with small integer tensors: a block-sparse GEMM skips the
blocks its bool mask clears (``if BlockMask[by, bx, k]: T.copy(...); T.gemm(...)``), a paged KV cache reads
the pages its block table names (``T.copy(K[table[b, i] * page, ...], K_s)``). They also read one value of a
float tensor per block into element-wise math (attention sinks: ``sinks[i] = Sinks[by]``). On Tenstorrent
those values are needed where the decisions are taken: by the reader, which fetches only the selected tiles
over the NOC and writes a read value into a tile for the compute kernel, and by the compute kernel, which
must take the same branches. The whole table is one DRAM page of 32-bit words (the host widens bool and
narrow integers, and converts floats to float32); see index_tables.py for how each kernel reads it.

Input expectations
    A PrimFunc from the DSL (after ResolveTensorViewsTT).
Output guarantees
    Every load of an integer or bool tensor parameter (an *index table*), and every load of a float tensor
    parameter that is only read inside ``T.Parallel`` at positions that do not depend on the element (a
    *scalar table*), is ``tt.table_value(table, index)`` — ``table`` the tensor's name, ``index`` the
    row-major element offset — int32, compared with 0 where the tensor is bool; float32, cast to the
    tensor's dtype, for floats. ``tt.index_tables`` lists them (IndexTable: name, dtype, shape, words, loc).
    A buffer of the kernel that one ``T.copy`` fills from an integer or bool tensor at a place fixed by the
    launch grid, and that nothing else writes or copies (``T.copy(BlockSparseMask[bz, by, bx, :],
    block_mask)``, then ``if block_mask[k]``), is read from the tensor in place: the copy and the buffer
    go. An int32 tensor the kernel writes and never reads is a tensor of integer tiles (integer_tiles.py),
    no table. Any other integer tensor stored to, copied as tiles, or read inside ``T.Parallel`` element by
    element is a TTCompileError at that use.
Example
    before: if BlockMask[by, bx, k]: T.tl.copy(A[...], A_s[...])          # BlockMask: (2, 2, 4) bool
    after:  if T.tt.table_value("BlockMask", by * 8 + bx * 4 + k) != 0: T.tl.copy(A[...], A_s[...])
            "tt.index_tables": [IndexTable(name="BlockMask", dtype="bool", shape=[2, 2, 4], words=16, ...)]
Test
    ./bazelw test //compiler/tests/passes:passes_test --test_arg=-k --test_arg=test_stage_index_tables_tt
"""

from __future__ import annotations

import math

import tvm
import tvm_ffi
from tvm import tirx

from .. import ops
from ..errors import TTCompileError
from ..index_tables import INDEX_TABLE_DTYPES, SCALAR_TABLE_DTYPES
from ..ir_utils import (
    cast_to,
    collect_vars,
    def_loc,
    find_ops,
    first_use_loc,
    parallel_loc,
    simplify,
    tensor_loads,
    tensor_params,
)
from ..records import IndexTable
from ..target import INTEGER_TILE_DTYPES


def _loads_of(node, names: set[str]) -> list[str]:
    found = []
    tvm_ffi.structural_walk(
        node,
        (
            tvm.ir.TensorLoad,
            lambda t: found.append(str(t.source.name)) if str(t.source.name) in names else None,
        ),
    )
    return found


def _first_op_loc(node) -> str:
    sites = find_ops(node, ops.TL_OPS)
    return ops.loc_of(sites[0].call) if sites else ""


def _check_uses(func: tirx.PrimFunc, names: set[str]) -> dict[str, str]:
    """{table: DSL location of its first read}; TTCompileError at a use an index table cannot serve."""
    first: dict[str, str] = {}
    default = def_loc(func)

    def visit(node, loc: str):
        if isinstance(node, tirx.SeqStmt):
            for s in node.seq:
                visit(s, loc)
        elif parallel_loc(node) is not None:
            where = parallel_loc(node)
            stored = [s.buffer.name for s in _stores(node) if str(s.buffer.name) in names]
            positional = _positional_loads(node, names)
            if stored or positional:
                raise TTCompileError.at(
                    where,
                    f"{(stored or positional)[0]} is an integer tensor used element-wise inside T.Parallel; "
                    "integer tiles are not supported on Tenstorrent yet (integer and bool tensors serve as "
                    "index tables: values read in conditions and indices, or one value per block)",
                )
            for name in _loads_of(node, names):
                first.setdefault(name, where)
        elif isinstance(node, tirx.For):
            line = (node.annotations or {}).get("tl.serial_loc")
            loc = loc if line is None else str(getattr(line, "value", line))
            for e in (node.min, node.extent):
                for name in _loads_of(e, names):
                    first.setdefault(name, loc)
            visit(node.body, loc)
        elif isinstance(node, tirx.AttrStmt):
            visit(node.body, loc)
        elif isinstance(node, tirx.IfThenElse):
            for name in _loads_of(node.condition, names):
                first.setdefault(name, _first_op_loc(node) or loc)
            visit(node.then_case, loc)
            if node.else_case is not None:
                visit(node.else_case, loc)
        elif isinstance(node, tirx.Bind):
            for name in _loads_of(node.value, names):
                first.setdefault(name, loc)
        elif isinstance(node, tirx.BufferStore) and str(node.buffer.name) in names:
            raise TTCompileError.at(
                loc,
                f"a store to {node.buffer.name}: integer and bool tensors are read-only index tables on "
                "Tenstorrent yet (writing them is not supported)",
            )
        elif isinstance(node, tirx.Evaluate) and isinstance(node.value, tvm.ir.Call):
            call_loc = (
                ops.loc_of(node.value) if ops.SPECS.get(str(getattr(node.value.op, "name", ""))) else loc
            )
            for arg in node.value.args:
                if isinstance(arg, tvm.ir.TensorRegion) and str(arg.source.name) in names:
                    raise TTCompileError.at(
                        call_loc,
                        f"{arg.source.name} is an integer tensor used as tiles here; integer tiles are not "
                        "supported on Tenstorrent yet (integer and bool tensors serve as index tables: "
                        "values read outside T.Parallel, in conditions and indices)",
                    )
            for name in _loads_of(node.value, names):
                first.setdefault(name, call_loc)

    visit(func.body, default)
    return first


def _nest_vars(nest) -> list:
    loop_vars = []
    while isinstance(nest, tirx.For):
        loop_vars.append(nest.loop_var)
        nest = nest.body
    return loop_vars


def _positional_loads(nest, names: set[str]) -> list[str]:
    """Tensors of ``names`` a ``T.Parallel`` nest reads at an index that depends on the element (directly,
    or through a name the nest gives such a value: ``row_idx = by * bM + i``)."""
    element = {v.name for v in _nest_vars(nest)}

    def named(b):
        if any(v.name in element for v in collect_vars(b.value)):
            element.add(b.var.name)

    tvm_ffi.structural_walk(nest, (tirx.Bind, named))  # in program order: a name may use an earlier one
    found = []

    def visit(t):
        if str(t.source.name) in names and any(v.name in element for v in collect_vars(t)):
            found.append(str(t.source.name))

    tvm_ffi.structural_walk(nest, (tvm.ir.TensorLoad, visit))
    return found


def _scalar_tables(func: tirx.PrimFunc) -> set[str]:
    """Float tensor parameters read only inside ``T.Parallel`` nests (or a one-value store, which becomes
    one), one value per block (every index free of the nest's variables), and never copied or stored."""
    floats = {str(p.name) for p in tensor_params(func) if str(p.dtype) in SCALAR_TABLE_DTYPES}
    used, excluded = set(), set()

    def visit(node):
        if isinstance(node, tirx.SeqStmt):
            for s in node.seq:
                visit(s)
        elif parallel_loc(node) is not None:
            used.update(_loads_of(node, floats))
            excluded.update(_positional_loads(node, floats))
            excluded.update(str(s.buffer.name) for s in _stores(node))
        elif isinstance(node, tirx.For | tirx.AttrStmt):
            excluded.update(
                _loads_of(tirx.Evaluate(node.extent), floats) if isinstance(node, tirx.For) else []
            )
            visit(node.body)
        elif isinstance(node, tirx.IfThenElse):
            excluded.update(_loads_of(node.condition, floats))
            visit(node.then_case)
            if node.else_case is not None:
                visit(node.else_case)
        elif _one_value_store(node):  # ``D_local[0] = D[bz]`` (Mamba's chunk scan): an element statement
            used.update(_loads_of(node, floats))
        else:  # tile operations (regions), scalar stores, named values
            excluded.update(_loads_of(node, floats))
            excluded.update(str(s.buffer.name) for s in _stores(node))
            regions = []
            tvm_ffi.structural_walk(node, (tvm.ir.TensorRegion, lambda r: regions.append(str(r.source.name))))
            excluded.update(regions)

    visit(func.body)
    return used - excluded


def _one_value_store(node) -> bool:
    """A store outside any loop into a one-element tile buffer, of a value that reads no tile buffer:
    VectorizeElementLoopsTT makes it a one-element ``T.Parallel`` statement."""
    if not isinstance(node, tirx.BufferStore) or math.prod(int(x) for x in node.buffer.ty.shape) != 1:
        return False
    return str(node.buffer.ty.storage_scope) != "global" and all(
        str(t.source.ty.storage_scope) == "global" for t in tensor_loads(node.value)
    )


def _stores(node) -> list:
    found = []
    tvm_ffi.structural_walk(node, (tirx.BufferStore, found.append))
    return found


def _flat_index(load: tvm.ir.TensorLoad):
    """The row-major element offset of a load of a table, as int32."""
    shape = [int(s) for s in load.source.shape]
    offset = tirx.const(0, "int32")
    for d, index in enumerate(load.indices):
        offset = offset + cast_to(index, "int32") * math.prod(shape[d + 1 :])
    return simplify(offset)


def _launch_vars(func: tirx.PrimFunc) -> list:
    """The launch-grid variables (blockIdx.*) of the kernel, whatever their extents."""
    found, node = [], func.body
    while isinstance(node, tirx.AttrStmt):
        if node.attr_key == "thread_extent":
            found.append(node.node.var)
        node = node.body
    return found


def _read_in_place(func: tirx.PrimFunc, integers: set[str]) -> tirx.PrimFunc:
    """``func`` where each buffer that a ``T.copy`` fills from an integer or bool tensor at a place fixed by
    the launch grid (``T.copy(BlockSparseMask[bz, by, bx, :], block_mask)``) and nothing else writes is
    read from the tensor itself (``block_mask[k]`` → ``BlockSparseMask[bz, by, bx, k]``), the copy gone:
    its values are then read one at a time from the index table, as the program reads them."""
    grid = _launch_vars(func)
    copies = {}  # buffer → [(copy call, the tensor's region)] of the copies filling it
    for site in find_ops(func.body, ("tl.copy",)):
        src, dst = ops.fields(site.call).src, ops.fields(site.call).dst
        if str(src.source.name) in integers and str(dst.source.name) not in integers:
            copies.setdefault(dst.source, []).append((site.call, src))
    written = {str(s.buffer.name) for s in _stores(func.body)}
    regions = []
    tvm_ffi.structural_walk(func.body, (tvm.ir.TensorRegion, regions.append))
    aliases = {}
    for buf, found in copies.items():
        call, src = found[0]
        extents = [simplify(r.extent) for r in src.region]
        mins = [simplify(r.min) for r in src.region]
        spanned = [d for d, e in enumerate(extents) if not (isinstance(e, tirx.IntImm) and int(e) == 1)]
        shape = [int(s) for s in buf.shape]
        fixed = all(any(v.same_as(g) for g in grid) for m in mins for v in collect_vars(m))
        uses = sum(1 for r in regions if r.source.same_as(buf))  # the copy's own region counts once
        if (
            len(found) == 1
            and fixed
            and str(buf.name) not in written
            and uses == 1
            and [int(extents[d]) for d in spanned] == [n for n in shape if n != 1]
        ):
            aliases[buf] = (call, src.source, mins, spanned)
    if not aliases:
        return func

    def load(t):
        if t.source not in aliases:
            return t
        _, tensor, mins, spanned = aliases[t.source]
        own = [i for i, n in zip(t.indices, t.source.shape, strict=True) if int(n) != 1]
        index = list(mins)
        for d, i in zip(spanned, own, strict=True):
            index[d] = simplify(mins[d] + i)
        return tirx.BufferLoad(tensor, index)

    dropped = [call for call, *_ in aliases.values()]

    def drop(stmt):
        return tirx.Evaluate(0) if any(stmt.value.same_as(c) for c in dropped) else stmt

    def unallocated(alloc):
        return tirx.Evaluate(0) if alloc.buffer in aliases else alloc

    body = tvm_ffi.structural_map(
        func.body,
        [(tvm.ir.TensorLoad, load), (tirx.Evaluate, drop), (tirx.AllocBuffer, unallocated)],
        order="post",
    )
    return func.with_body(body)


def integer_results(func: tirx.PrimFunc) -> set[str]:
    """The int32 tensor parameters the kernel writes and never reads (top-k's indices): tiles of integers
    the compute kernel produces, not index tables."""
    ints = {str(p.name) for p in tensor_params(func) if str(p.dtype) in INTEGER_TILE_DTYPES}
    read = set(_loads_of(func.body, ints))
    read.update(str(ops.fields(site.call).src.source.name) for site in find_ops(func.body, ("tl.copy",)))
    return ints - read


def StageIndexTablesTT() -> tvm.transform.Pass:  # noqa: N802
    def transform(func: tirx.PrimFunc, mod, ctx) -> tirx.PrimFunc:
        results = integer_results(func)
        func = _read_in_place(
            func,
            {str(p.name) for p in tensor_params(func) if str(p.dtype) in INDEX_TABLE_DTYPES} - results,
        )
        scalars = _scalar_tables(func)
        tables = {
            str(p.name): p
            for p in tensor_params(func)
            if (str(p.dtype) in INDEX_TABLE_DTYPES and str(p.name) not in results) or str(p.name) in scalars
        }
        if not tables:
            return func
        first = _check_uses(func, set(tables) - scalars)
        first.update({name: first_use_loc(func, name) for name in scalars})

        def value(load: tvm.ir.TensorLoad):
            name, dtype = str(load.source.name), str(load.source.dtype)
            if name not in tables:
                return load
            if name in scalars:
                word = ops.call("tt.table_value", table=name, index=_flat_index(load), dtype="float32")
                return cast_to(word, dtype)
            word = ops.call("tt.table_value", table=name, index=_flat_index(load), dtype="int32")
            return tirx.NE(word, 0) if dtype == "bool" else word

        body = tvm_ffi.structural_map(func.body, (tvm.ir.TensorLoad, value), order="post")
        records = [
            IndexTable(
                name=name,
                dtype=str(p.dtype),
                shape=[int(s) for s in p.shape],
                words=math.prod(int(s) for s in p.shape),
                loc=first.get(name, def_loc(func)),
            )
            for name, p in tables.items()
        ]
        return func.with_body(body).with_attr("tt.index_tables", records)

    return tirx.transform.prim_func_pass(transform, opt_level=0, name="StageIndexTablesTT")
