"""Tables on the device (StageIndexTablesTT): integer and bool tensors whose values steer the kernels, and
float tensors read one value per block.

A table is one DRAM page of 32-bit words. Before its work loop the reader copies the page into the table's
circular buffer; it reads the values straight from that L1 copy through a word pointer (``uint32_t*``, or
``float*`` for a float table, whose values the reader writes into tiles). When the compute kernel's
branches depend on the table too, the reader pushes the page, and the compute kernel waits for it, reads
values with ``read_tile_value`` (the SDK's way for a compute kernel to see CB contents) and pops it after
its work loop: both kernels take the same branches, block by block. The writer holds no copy.
"""

from __future__ import annotations

import tvm
import tvm_ffi
from tvm import tirx

from . import ops
from .errors import TTCompileError
from .ir_utils import cb_var, comment, extern, l1_word_pointer, l1_words_of, named, seq, uint_var
from .records import AccessorArgs, CircularBuffer

# Tensor dtypes a table holds: integers and bool as uint32 words (the host widens them), and floats read one
# value per block as float32 words (the host converts 16-bit floats exactly).
INDEX_TABLE_DTYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32")
SCALAR_TABLE_DTYPES = ("bfloat16", "float16", "float32")


def word_dtype(dtype: str) -> str:
    """The dtype of a table's words for a tensor of ``dtype``: float32 for a float, else uint32."""
    return "float32" if dtype in SCALAR_TABLE_DTYPES else "uint32"


def _words_name(entry: CircularBuffer) -> str:
    """The reader's pointer to its copy: ``<table>_words`` (uint32_t) or ``<table>_values`` (float)."""
    return f"{entry.name.removeprefix('cb_')}_{'values' if entry.dtype == 'float32' else 'words'}"


def lower_table_read(call, entry: CircularBuffer, acc: AccessorArgs) -> tirx.Stmt:
    """``tt.read_table(cb, accessor, words, shared)`` → the table's page copied into its CB (pushed when
    ``shared``: the compute kernel reads it too) and a word pointer to that copy (``<table>_words``) for the
    reader's own reads."""
    f = ops.fields(call)
    cb = cb_var(entry)
    l1 = uint_var(f"{entry.name.removeprefix('cb_')}_l1")
    also = "; the compute kernel reads the same copy" if f.shared else ""
    return seq(
        [
            comment(f"{entry.buffer}: a table of {f.words} values, copied to L1 once{also}"),
            extern("cb_reserve_back", cb, 1),
            tirx.Bind(l1, tirx.call_extern("int32", "get_write_ptr", cb)),
            extern(
                "noc_async_read",
                tirx.call_extern("int32", "get_noc_addr", 0, f.tensor),
                l1,
                named(acc.tile_bytes),
            ),
            extern("noc_async_read_barrier"),
            *([extern("cb_push_back", cb, 1)] if f.shared else []),
            tirx.Bind(l1_word_pointer(_words_name(entry), entry.dtype), l1_words_of(l1, entry.dtype)),
        ]
    )


def _map_values(body, value_of):
    def value(c):
        if not ops.is_op(c, "tt.table_value"):
            return c
        return value_of(ops.fields(c).table, ops.fields(c).index)

    return tvm_ffi.structural_map(body, (tvm.ir.Call, value), order="post")


def read_values_in_l1(body, cbs: dict[int, CircularBuffer]):
    """A data-movement kernel's ``tt.table_value(cb, index)`` → ``<table>_words[index]`` (or ``_values``)."""

    def load(cb, index):
        view = tirx.decl_buffer((1,), cbs[cb].dtype, _words_name(cbs[cb]))
        return tirx.BufferLoad(view, [index])

    return _map_values(body, load)


def read_values_in_compute(body, cbs: dict[int, CircularBuffer]):
    """The compute kernel's ``tt.table_value(cb, index)`` → ``read_tile_value(cb, 0, index)``."""
    return _map_values(
        body, lambda cb, index: tirx.call_extern("int32", "read_tile_value", cb_var(cbs[cb]), 0, index)
    )


def check_no_values(body, role: str, tables: list) -> None:
    """TTCompileError when a kernel that holds no copy of the tables (the writer) needs a table's value."""
    used = []
    tvm_ffi.structural_walk(
        body, (tvm.ir.Call, lambda c: used.append(c) if ops.is_op(c, "tt.table_value") else None)
    )
    if used:
        names = ", ".join(t.name for t in tables)
        raise TTCompileError.at(
            tables[0].loc if tables else "",
            f"a store to a global tensor depends on an index table's value ({names}); only reads and "
            f"compute may depend on index tables on Tenstorrent yet (the {role} holds no copy)",
        )
