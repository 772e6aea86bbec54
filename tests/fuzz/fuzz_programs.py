"""Seeded generators of DSL programs for the fuzz suite: valid GEMMs (some batched, on a 3-D grid) written
in TileLang's style with random shapes (some unbatched ones not multiples of the block or of 32: edge
tiles), blocks, dtypes and spellings, and malformed programs made by one mutation of a valid (unbatched)
one.

A program is Python source text written to a file and imported, so errors carry real file:line locations:

    program = valid_program(random.Random(3), config)  # Program(source, config, fault_line=None)
    program = malformed_program(random.Random(3))  # Program(source, config, fault_line=9, mutation=...)

``fault_line`` is the line the error must point at (None when any line of the program will do: the fault
is in a module-level constant that several statements use).
"""

from __future__ import annotations

import dataclasses
import random

BLOCKS = (32, 64, 128)
DTYPES = ("bfloat16", "float16", "float32")
PARTITIONS = ("row_major", "column_major", "block")
TARGETS = ("wormhole", "blackhole")


@dataclasses.dataclass(frozen=True)
class GemmConfig:
    """What the generated C++ depends on: two programs with equal configs share their builds."""

    M: int
    N: int
    K: int
    block_M: int
    block_N: int
    block_K: int
    dtype: str
    trans_b: bool
    stages: int
    c_shared: bool
    partition: str
    target: str
    batch: int = 1  # > 1: (batch, M, K) @ (batch, K, N) tensors, the batch on a third grid axis


def random_config(rng: random.Random, batched: bool = False) -> GemmConfig:
    """A random GEMM configuration; with ``batched``, some are batched GEMMs. Some unbatched ones have
    ragged M, N, K (short of a whole block by up to a block): their last blocks reach past the end."""
    bm, bn, bk = rng.choice(BLOCKS), rng.choice(BLOCKS), rng.choice((32, 64))
    config = GemmConfig(
        M=bm * rng.randint(1, 3),
        N=bn * rng.randint(1, 3),
        K=bk * rng.randint(1, 4),
        block_M=bm,
        block_N=bn,
        block_K=bk,
        dtype=rng.choice(DTYPES),
        trans_b=rng.random() < 0.3,
        stages=rng.randint(1, 3),
        c_shared=rng.random() < 0.5,
        partition=rng.choice(PARTITIONS),
        target=rng.choice(TARGETS),
        batch=rng.randint(2, 3) if batched and rng.random() < 0.4 else 1,
    )
    if config.batch > 1 or rng.random() < 0.6:
        return config
    return dataclasses.replace(
        config, M=config.M - rng.randrange(bm), N=config.N - rng.randrange(bn), K=config.K - rng.randrange(bk)
    )


@dataclasses.dataclass
class Program:
    source: str
    config: GemmConfig
    fault_line: int | None = None
    mutation: str = ""


class _Lines:
    """The program as named lines, so a mutation can rewrite one and the fault's line is known."""

    def __init__(self):
        self.lines: list[tuple[str, str]] = []

    def add(self, key: str, text: str) -> None:
        self.lines.append((key, text))

    def replace(self, key: str, text: str) -> None:
        self.lines = [(k, text if k == key else t) for k, t in self.lines]

    def insert_after(self, key: str, new_key: str, text: str) -> None:
        i = next(i for i, (k, _) in enumerate(self.lines) if k == key)
        self.lines.insert(i + 1, (new_key, text))

    def remove(self, key: str) -> None:
        self.lines = [(k, t) for k, t in self.lines if k != key]

    def text(self, key: str) -> str:
        return next(t for k, t in self.lines if k == key)

    def line_of(self, key: str) -> int:
        return next(i for i, (k, _) in enumerate(self.lines, 1) if k == key)

    def source(self) -> str:
        return "\n".join(t for _, t in self.lines) + "\n"


def _gemm_lines(rng: random.Random, c: GemmConfig) -> _Lines:
    """A TileLang GEMM for ``c``, with a random choice among equivalent spellings."""
    accum = "float32" if c.dtype == "float32" else rng.choice(("float", "float32"))
    b_shape = "(N, K)" if c.trans_b else "(K, N)"
    bs_shape = "(block_N, block_K)" if c.trans_b else "(block_K, block_N)"
    slices = rng.random() < 0.5
    named = False  # block offsets named before they are used (row = by * block_M)
    p = _Lines()
    p.add("import", "import tilelang_tt.language as T")
    p.add("import_tirx", "from tvm import tirx  # noqa: F401")
    p.add("blank0", "")
    batched = c.batch > 1
    lead = "batch, " if batched else ""  # leading dimension of every tensor
    at = "bz, " if batched else ""  # its index in every tile region
    p.add("sizes", f"M, N, K = {c.M}, {c.N}, {c.K}")
    if batched:
        p.add("batch", f"batch = {c.batch}")
    p.add("blocks", f"block_M, block_N, block_K = {c.block_M}, {c.block_N}, {c.block_K}")
    if rng.random() < 0.5:  # TileLang's dtype objects, or strings
        p.add("dtypes", f"dtype, accum_dtype = T.{c.dtype}, T.{'float' if accum == 'float' else accum}")
    else:
        p.add("dtypes", f'dtype, accum_dtype = "{c.dtype}", "{accum}"')
    p.add("blank1", "")
    p.add("blank2", "")
    p.add("decorator", "@T.prim_func")
    p.add("def", "def main(")
    p.add("param_a", f"    A: T.Tensor(({lead}M, K), dtype),")
    p.add("param_b", f"    B: T.Tensor(({lead}{b_shape[1:-1]}), dtype),")
    p.add("param_c", f"    C: T.Tensor(({lead}M, N), dtype),")
    p.add("def_end", "):")
    threads = rng.choice(("", ", threads=128", ", threads=256"))
    grid = "T.ceildiv(N, block_N), T.ceildiv(M, block_M)" + (", batch" if batched else "")
    ids = "(bx, by, bz)" if batched else "(bx, by)"
    p.add("kernel", f"    with T.Kernel({grid}{threads}) as {ids}:")
    p.add("alloc_a", "        A_shared = T.alloc_shared((block_M, block_K), dtype)")
    p.add("alloc_b", f"        B_shared = T.alloc_shared({bs_shape}, dtype)")
    p.add("alloc_c", "        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)")
    if c.c_shared:
        p.add("alloc_cs", "        C_shared = T.alloc_shared((block_M, block_N), dtype)")
    if rng.random() < 0.3:
        p.add("swizzle", f"        T.use_swizzle(panel_size={rng.choice((4, 8, 10))})")
    p.add("clear", rng.choice(("        T.clear(C_local)", "        T.fill(C_local, 0)")))
    if c.stages == 1 and rng.random() < 0.5:
        p.add("loop", "        for ko in T.serial(T.ceildiv(K, block_K)):")
    else:
        p.add("loop", f"        for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages={c.stages}):")
    if slices:
        p.add(
            "copy_a",
            f"            T.copy(A[{at}by * block_M : (by + 1) * block_M, "
            "ko * block_K : (ko + 1) * block_K], A_shared)",
        )
        b_index = (
            "bx * block_N : (bx + 1) * block_N, ko * block_K : (ko + 1) * block_K"
            if c.trans_b
            else "ko * block_K : (ko + 1) * block_K, bx * block_N : (bx + 1) * block_N"
        )
    else:  # the block offsets written out, or named first (row = by * block_M), as TileLang's examples do
        named = rng.random() < 0.3
        row, col = ("row", "col") if named else ("by * block_M", "bx * block_N")
        if named:
            p.insert_after("clear", "offsets", "        row, col = by * block_M, bx * block_N")
        p.add("copy_a", f"            T.copy(A[{at}{row}, ko * block_K], A_shared)")
        b_index = f"{col}, ko * block_K" if c.trans_b else f"ko * block_K, {col}"
    p.add("copy_b", f"            T.copy(B[{at}{b_index}], B_shared)")
    trans = ", transpose_B=True" if c.trans_b else ""
    p.add("gemm", f"            T.gemm(A_shared, B_shared, C_local{trans})")
    target = f"C[{at}row, col]" if named else f"C[{at}by * block_M, bx * block_N]"
    if c.c_shared:
        p.add("stage_c", "        T.copy(C_local, C_shared)")
        p.add("store", f"        T.copy(C_shared, {target})")
    else:
        p.add("store", f"        T.copy(C_local, {target})")
    return p


def valid_program(rng: random.Random, config: GemmConfig) -> Program:
    return Program(_gemm_lines(rng, config).source(), config)


# Each mutation turns a valid program into a malformed one and names the line its error must point at
# (None: any line of the program). It may replace the config (for the program's constants).
def _m_dtype(rng, p, c):
    p.replace(
        "dtypes", f'dtype, accum_dtype = "{rng.choice(("int8", "float64", "int32", "uint16"))}", "float"'
    )
    return "copy_a"


def _m_accum_dtype(rng, p, c):
    p.replace("dtypes", f'dtype, accum_dtype = "{c.dtype}", "{rng.choice(("int8", "float64", "int16"))}"')
    return "clear"


def _m_block_not_tile_multiple(rng, p, c):
    # neither a multiple nor a divisor of 32 (16 rows: two grid points share a tile, CoarsenSubTileRowsTT)
    block = rng.choice((48, 80))
    p.replace("sizes", f"M, N, K = {block * 2}, {c.N}, {c.K}")
    p.replace("blocks", f"block_M, block_N, block_K = {block}, {c.block_N}, {c.block_K}")
    return None


def _m_copy_past_the_end(rng, p, c):
    p.replace("copy_a", "            T.copy(A[by * block_M + block_M, ko * block_K], A_shared)")
    return "copy_a"


def _m_store_past_the_end(rng, p, c):
    source = "C_shared" if c.c_shared else "C_local"
    p.replace("store", f"        T.copy({source}, C[by * block_M, bx * block_N + block_N])")
    return "store"


def _m_misspelled_name(rng, p, c):
    name = rng.choice(("cpy", "Copy", "copyy", "coppy"))
    p.replace("copy_b", p.text("copy_b").replace("T.copy(", f"T.{name}("))
    return "copy_b"


def _m_misspelled_alloc(rng, p, c):
    p.replace("alloc_a", p.text("alloc_a").replace("alloc_shared", rng.choice(("alloc_shard", "alloc_smem"))))
    return "alloc_a"


def _m_undefined_variable(rng, p, c):
    p.replace("copy_b", p.text("copy_b").replace("B_shared)", "B_shard)"))
    return "copy_b"


def _m_too_many_arguments(rng, p, c):
    p.replace("gemm", "            T.gemm(A_shared, B_shared, C_local, False, False, None, False, 1, 0, 7)")
    return "gemm"


def _m_missing_operand(rng, p, c):
    p.replace("copy_a", "            T.copy(A[by * block_M, ko * block_K])")
    return "copy_a"


def _m_empty_dimension(rng, p, c):
    sizes = [c.M, c.N, c.K]
    sizes[rng.randrange(3)] = 0
    p.replace("sizes", "M, N, K = {}, {}, {}".format(*sizes))
    return None


def _m_symbolic_dimension(rng, p, c):
    p.replace("sizes", f'M, N, K = tirx.Var("m", "int32"), {c.N}, {c.K}')
    return None


def _m_three_d_tensor(rng, p, c):
    p.replace("param_a", "    A: T.Tensor((2, M, K), dtype),")
    return "copy_a"


def _m_three_d_grid(rng, p, c):
    p.replace(
        "kernel", "    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), 2, 2) as (bx, by, bz):"
    )
    return "kernel"


def _m_grid_too_large(rng, p, c):
    p.replace("kernel", "    with T.Kernel(T.ceildiv(N, block_N) * 2, T.ceildiv(M, block_M)) as (bx, by):")
    return "copy_b"  # the first region indexed by bx


def _m_copy_extent_mismatch(rng, p, c):
    p.replace(
        "copy_a", "            T.copy(A[by * block_M : (by + 1) * block_M, 0 : block_K + 32], A_shared)"
    )
    return "copy_a"


def _m_non_constant_extent(rng, p, c):
    p.replace(
        "copy_a",
        "            T.copy(A[by * block_M : by * block_M + ko + 1, "
        "ko * block_K : (ko + 1) * block_K], A_shared)",
    )
    return "copy_a"


def _m_diagonal_parallel_index(rng, p, c):
    # Indented like the K loop, so it follows that loop; an element-wise read of the diagonal is not lowered.
    p.insert_after("gemm", "parallel", "        for i, j in T.Parallel(block_M, block_N):")
    p.insert_after("parallel", "parallel_body", "            C_local[i, j] = C_local[j, j] * 2")
    return "parallel"


def _m_reduce_into_a_tile(rng, p, c):
    p.insert_after(
        "gemm", "reduce", f"        T.{rng.choice(('reduce_sum', 'reduce_max'))}(C_local, C_local, dim=1)"
    )
    return "reduce"


def _m_scalar_parameter(rng, p, c):
    p.insert_after("param_c", "param_alpha", "    alpha: T.float32,")
    return "def"


def _m_no_store(rng, p, c):
    p.remove("store")
    return "def"


def _m_gemm_operand_mismatch(rng, p, c):
    p.replace("alloc_b", "        B_shared = T.alloc_shared((block_K + 32, block_N + 32), dtype)")
    return None


def _m_wrong_transpose(rng, p, c):
    # block_N = 128 differs from block_K (32 or 64), so the transposed operand cannot fit.
    p.replace("sizes", f"M, N, K = {c.M}, 128, {c.K}")
    p.replace("blocks", f"block_M, block_N, block_K = {c.block_M}, 128, {c.block_K}")
    p.replace("gemm", f"            T.gemm(A_shared, B_shared, C_local, transpose_B={not c.trans_b})")
    return "gemm"


def _m_grid_barrier_in_the_k_loop(rng, p, c):
    p.insert_after("copy_b", "barrier", "            T.sync_grid()")
    return "barrier"


def _m_l1_overflow(rng, p, c):
    p.replace("sizes", "M, N, K = 1024, 1024, 1024")
    p.replace("blocks", "block_M, block_N, block_K = 512, 512, 512")
    p.replace("dtypes", 'dtype, accum_dtype = "float32", "float32"')
    return None


MUTATIONS = {name[3:]: f for name, f in list(globals().items()) if name.startswith("_m_")}

# What each mutation must be rejected with: the error class and a pattern its message matches.
EXPECTED = {
    "dtype": (
        "TTCompileError",
        # float64 has no tile format; an integer tensor copied into a tile buffer is integer tiles
        r"buffer A has dtype \w+; \w+ tiles support bfloat16, float16, float32"
        r"|A is an integer tensor used as tiles",
    ),
    "accum_dtype": ("TTCompileError", r"buffer C_local has dtype \w+; \w+ tiles support"),
    "block_not_tile_multiple": (
        "TTCompileError",
        r"block size \d+ of \w+ is not a multiple of the 32x32 tile",
    ),
    "copy_past_the_end": (
        "TTCompileError",
        r"reads A\[\d+:\d+, :\] when by = \d+, which starts past the end of A's",
    ),
    "store_past_the_end": (
        "TTCompileError",
        r"writes C\[:, \d+:\d+\] when bx = \d+, which starts past the end of C's",
    ),
    "misspelled_name": (
        "TTCompileError",
        r"T\.\w+ is not part of the TileLang-TT language; did you mean T\.copy",
    ),
    "misspelled_alloc": (
        "TTCompileError",
        r"is not part of the TileLang-TT language; did you mean T\.alloc_shared",
    ),
    "undefined_variable": ("TTCompileError", r"Undefined variable: B_shard"),
    "too_many_arguments": ("TTCompileError", r"gemm\(\) takes from 3 to \d+ positional arguments but 10"),
    "missing_operand": ("TTCompileError", r"copy\(\) missing 1 required positional argument"),
    "empty_dimension": ("TTCompileError", r"has shape \(.*\), with an empty dimension \d; there is nothing"),
    "symbolic_dimension": ("TTCompileError", r"buffer A has a symbolic dimension m"),
    "three_d_tensor": (
        "TTCompileError",
        r"shape mismatch in T\.copy: A|past the end of A's \d+ entries of dimension"
        r"|tile region of A spans \d+ entries of dimension",
    ),
    "three_d_grid": ("TTCompileError", r"T\.Kernel takes one to three grid extents, got 4"),
    "grid_too_large": ("TTCompileError", r"reads B\[.*\] when bx = \d+, which starts past the end of B's"),
    "copy_extent_mismatch": (
        "TTCompileError",
        r"shape mismatch in T\.copy: A\(\d+, \d+\) → A_shared",
    ),
    "non_constant_extent": ("TTCompileError", r"tile extents must be constants, got ko \+ 1 for A"),
    "diagonal_parallel_index": ("TTCompileError", r"by the T\.Parallel variables in order"),
    "reduce_into_a_tile": (
        "TTCompileError",
        r"T\.reduce_\w+ over dim 1 of C_local\(\d+, \d+\) gives \d+ values",
    ),
    "scalar_parameter": ("TTCompileError", r"parameter alpha is a scalar"),
    "no_store": ("TTCompileError", r"the kernel stores nothing to a global tensor"),
    "gemm_operand_mismatch": (
        "TTCompileError",
        r"shape mismatch in T\.(copy|gemm)|reads B\[.*past the end of B's",
    ),
    "wrong_transpose": ("TTCompileError", r"shape mismatch in T\.gemm: A_shared"),
    "l1_overflow": ("TTResourceError", r"circular buffers need \d+ bytes of L1 per core but \w+ has \d+"),
    "grid_barrier_in_the_k_loop": (
        "TTCompileError",
        r"T\.sync_grid is supported at the top level of a T\.Kernel",
    ),
}
assert set(EXPECTED) == set(MUTATIONS), "every mutation names the error it must produce"


def malformed_program(rng: random.Random) -> Program:
    config = random_config(rng)
    lines = _gemm_lines(rng, config)
    name = rng.choice(sorted(MUTATIONS))
    key = MUTATIONS[name](rng, lines, config)
    return Program(lines.source(), config, lines.line_of(key) if key else None, name)
