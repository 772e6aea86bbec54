"""Seeded generators of row-wise tile programs for the fuzz suite, drawn from the grammar of TileLang's 2026
element-wise constructs, with a numpy model of each valid one:

    with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:      # blk_m 1, 2, 8 or 32: sub-tile blocks
        x = T.alloc_fragment((blk_m, N), "float32"); y = ...; r = T.alloc_fragment((blk_m,), "float32")
        T.copy(A[bx * blk_m, 0], x)
        <2 to 5 statements>   assign | masked (if x[i, j] > c) | position (if j < k: ... else: ...)
                              | clamp | a value of the block index | row reduction then a broadcast
                              subtraction | a named value used after a store to what it read
                              | columns set at a loop's position (y[i, k] = r[i] + c) | values cut
                              into an int32 tile z and used as floats
        <store>               T.copy(y, C[bx * blk_m, 0]) | guarded element stores (if row < M)

and malformed ones: one statement replaced by a construct that must be a located TTCompileError (a
reduction across the rows of sub-tile blocks, a condition on a buffer its branch changed first, names
TileLang has and Tenstorrent does not, an element atomic add outside T.Parallel, a slice of a block's
rows, integer arithmetic on integer tiles). A program is source text written to a file and imported, so
errors carry real locations.

    program = valid_tile_program(random.Random(3))      # TileProgram(source, model, fault_line=None)
    program = malformed_tile_program(random.Random(3))  # TileProgram(source, None, fault_line=12, ...)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable

import numpy as np

# (DSL text, numpy function of (x, y)) of the values a statement may assign
VALUES = [
    ("x[i, j] * 2.0", lambda x, y: x * 2.0),
    ("x[i, j] + y[i, j]", lambda x, y: x + y),
    ("T.max(x[i, j], 0.25)", lambda x, y: np.maximum(x, 0.25)),
    ("T.exp(x[i, j] * 0.5)", lambda x, y: np.exp(x * 0.5)),
    ("T.abs(y[i, j]) - 1.0", lambda x, y: np.abs(y) - 1.0),
    ("y[i, j] * x[i, j]", lambda x, y: y * x),
    ("T.sin(x[i, j]) + T.erf(y[i, j])", lambda x, y: np.sin(x) + _erf(y)),
    ("T.if_then_else(x[i, j] > 0 and not (y[i, j] > 1), T.pow(y[i, j], 2.0), x[i, j])",
     lambda x, y: np.where((x > 0) & ~(y > 1), y**2, x)),
]  # fmt: skip


def _erf(x: np.ndarray) -> np.ndarray:
    return np.vectorize(math.erf)(x.astype(np.float64))


@dataclasses.dataclass
class TileProgram:
    source: str
    model: Callable[[np.ndarray], np.ndarray] | None  # A → C, for a valid program
    M: int
    N: int
    blk_m: int
    fault_line: int | None = None
    mutation: str = ""
    message: str = ""  # what the located error must say


class _Writer:
    def __init__(self):
        self.lines: list[str] = []

    def add(self, text: str, indent: int) -> int:
        """Append one line; its 1-based line number."""
        self.lines.append("    " * indent + text)
        return len(self.lines)

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"


def _header(w: _Writer, M: int, N: int, blk_m: int) -> None:
    for line in (
        "import tilelang_tt.language as T",
        "",
        "",
        "@T.prim_func",
        f'def main(A: T.Tensor(({M}, {N}), "float32"), C: T.Tensor(({M}, {N}), "float32")):',
    ):
        w.add(line, 0)
    w.add(f"with T.Kernel(T.ceildiv({M}, {blk_m}), threads=128) as bx:", 1)
    w.add(f'x = T.alloc_fragment(({blk_m}, {N}), "float32")', 2)
    w.add(f'y = T.alloc_fragment(({blk_m}, {N}), "float32")', 2)
    w.add(f'r = T.alloc_fragment(({blk_m},), "float32")', 2)
    w.add(f'z = T.alloc_fragment(({blk_m}, {N}), "int32")', 2)
    w.add(f"T.copy(A[bx * {blk_m}, 0], x)", 2)


def _statement(rng: random.Random, w: _Writer, N: int, blk_m: int, first: bool):
    """Write one statement; return its numpy model (x, y) → y."""
    value, model = rng.choice(VALUES if not first else [v for v in VALUES if "y[" not in v[0]])
    kinds = ["assign", "masked", "position", "clamp", "block", "reduce", "named", "columns", "integer"]
    kind = "assign" if first else rng.choice(kinds)
    loop = f"for i, j in T.Parallel({blk_m}, {N}):"
    if kind == "assign":
        w.add(loop, 2)
        w.add(f"y[i, j] = {value}", 3)
        return lambda x, y: model(x, y)
    if kind == "masked":
        c = round(rng.uniform(-0.5, 0.5), 2)
        w.add(loop, 2)
        w.add(f"if x[i, j] > {c}:", 3)
        w.add(f"y[i, j] = {value}", 4)
        return lambda x, y: np.where(x > c, model(x, y), y)
    if kind == "position":
        k = rng.randrange(1, N)
        w.add(loop, 2)
        w.add(f"if j < {k}:", 3)
        w.add(f"y[i, j] = {value}", 4)
        w.add("else:", 3)
        w.add("y[i, j] = y[i, j] * 0.5", 4)
        columns = np.arange(N)[None, :]
        return lambda x, y: np.where(columns < k, model(x, y), y * 0.5)
    if kind == "named":  # a name used after a store changes what it read: it keeps its value
        w.add(loop, 2)
        w.add(f"v = y[i, j] + {value}", 3)
        w.add("y[i, j] = v * 0.5", 3)
        w.add("y[i, j] = y[i, j] + v", 3)
        return lambda x, y: 1.5 * (y + model(x, y))
    if kind == "clamp":
        lo = round(rng.uniform(-1.5, 0), 2)
        hi = round(rng.uniform(0, 1.5), 2)
        w.add(loop, 2)
        w.add(f"y[i, j] = T.clamp(y[i, j], {lo}, {hi})", 3)
        return lambda x, y: np.clip(y, lo, hi)
    if kind == "block":  # a value known per grid point: the block index (coarsened: per row)
        period = rng.choice([2, 3, 5])
        w.add(loop, 2)
        w.add(f'y[i, j] = y[i, j] + T.Cast("float32", bx % {period}) * 0.5', 3)
        return lambda x, y: y + (np.arange(y.shape[0]) // blk_m % period)[:, None] * 0.5
    if kind == "columns":  # column k set at each step of a loop, the other columns kept (top-k's form)
        steps, c = rng.randint(1, 4), round(rng.uniform(-1, 1), 2)
        w.add("T.reduce_max(y, r, dim=1)", 2)
        w.add(f"for k in T.serial({steps}):", 2)
        w.add(f"for i in T.Parallel({blk_m}):", 3)
        w.add(f"y[i, k] = r[i] + {c}", 4)

        def columns(x, y):
            y = y.copy()
            y[:, :steps] = y.max(axis=1, keepdims=True) + np.float32(c)
            return y

        return columns
    if kind == "integer":  # values cut toward zero into an int32 tile, then used as floats
        scale = rng.choice([0.5, 3.0, 7.25])
        w.add(loop, 2)
        w.add(f'z[i, j] = T.max(T.Cast("int32", y[i, j] * {scale}), j - 40)', 3)
        w.add(loop, 2)
        w.add('y[i, j] = y[i, j] - T.Cast("float32", z[i, j])', 3)
        columns = np.arange(N)[None, :]
        return lambda x, y: y - np.maximum(np.trunc(y * np.float32(scale)), columns - 40)
    reduce_kind = rng.choice(["sum", "max"])
    w.add(f"T.reduce_{reduce_kind}(y, r, dim=1)", 2)
    w.add(loop, 2)
    w.add("y[i, j] = y[i, j] - r[i]", 3)
    reducer = np.sum if reduce_kind == "sum" else np.max
    return lambda x, y: y - reducer(y, axis=1, keepdims=True)


def _store(rng: random.Random, w: _Writer, M: int, N: int, blk_m: int) -> None:
    if rng.random() < 0.5:
        w.add(f"T.copy(y, C[bx * {blk_m}, 0])", 2)
        return
    w.add(f"for i, j in T.Parallel({blk_m}, {N}):", 2)
    w.add(f"row = bx * {blk_m} + i", 3)
    w.add(f"if row < {M}:", 3)
    w.add("C[row, j] = y[i, j]", 4)


def _shape(rng: random.Random) -> tuple[int, int, int]:
    blk_m = rng.choice([1, 2, 8, 32])
    return rng.randint(20, 80), rng.choice([32, 64, 96]), blk_m


def valid_tile_program(rng: random.Random) -> TileProgram:
    M, N, blk_m = _shape(rng)
    w = _Writer()
    _header(w, M, N, blk_m)
    steps = [_statement(rng, w, N, blk_m, first=k == 0) for k in range(rng.randint(2, 5))]
    _store(rng, w, M, N, blk_m)

    def model(a: np.ndarray) -> np.ndarray:
        x, y = a.astype(np.float32), np.zeros_like(a, np.float32)
        for step in steps:
            y = step(x, y).astype(np.float32)
        return y

    return TileProgram(w.source(), model, M, N, blk_m)


# (name, statement lines at indent 2 (relative indents as leading spaces), index of the faulty line,
#  the message the error must contain, the block heights it needs: None for any)
MUTATIONS = [
    ("reduce_across_rows", ["T.reduce_sum(y, r, dim=0)"], 0, "a reduction across the rows", (1, 2, 8)),
    (
        "condition_changed_first",
        ["for i, j in T.Parallel({blk_m}, {N}):", "    if y[i, j] > 0:", "        y[i, j] = x[i, j]",
         "        x[i, j] = y[i, j]"],
        0,
        "whose condition reads y, which a store of its branches changes",
        None,
    ),
    ("print", ["T.print(y)"], 0, "T.print is not supported on Tenstorrent yet", None),
    ("warp_shuffle", ["y[0, 0] = T.shfl_xor(y[0, 0], 1)"], 0, "T.shfl_xor is not supported", None),
    ("tma", ["T.tma_copy(A[0, 0], x)"], 0, "T.tma_copy is not supported on Tenstorrent yet", None),
    ("element_atomic_outside_parallel", ["T.atomic_add(C[0, 0], y[0, 0])"], 0, "outside T.Parallel", None),
    ("slice_of_block_rows", ["T.copy(A[bx * {blk_m}, 0], x[0:1, :])"], 0, "in a grid of blocks", (2, 8)),
    ("float8_tile", ["w = T.alloc_fragment(({blk_m}, {N}), T.float8_e4m3fn)"], 0, "T.float8_e4m3fn", None),
    (
        "integer_sum_of_tiles",
        ["for i, j in T.Parallel({blk_m}, {N}):", '    z[i, j] = T.max(T.Cast("int32", x[i, j]), j)',
         "for i, j in T.Parallel({blk_m}, {N}):", '    z[i, j] = z[i, j] * 2',
         "for i, j in T.Parallel({blk_m}, {N}):", '    y[i, j] = y[i, j] + T.Cast("float32", z[i, j])'],
        2,
        "is arithmetic on tile values",
        None,
    ),
]  # fmt: skip


def malformed_tile_program(rng: random.Random) -> TileProgram:
    """A valid program with one statement replaced by a construct that must be a located error."""
    name, lines, faulty, message, heights = rng.choice(MUTATIONS)
    M, N, blk_m = _shape(rng)
    if heights is not None and blk_m not in heights:
        blk_m = rng.choice(heights)
    w = _Writer()
    _header(w, M, N, blk_m)
    _statement(rng, w, N, blk_m, first=True)
    fault = None
    for k, line in enumerate(lines):
        text = line.format(blk_m=blk_m, N=N)
        stripped = text.lstrip(" ")
        number = w.add(stripped, 2 + (len(text) - len(stripped)) // 4)
        if k == faulty:
            fault = number
    _store(rng, w, M, N, blk_m)
    return TileProgram(w.source(), None, M, N, blk_m, fault, name, message)
