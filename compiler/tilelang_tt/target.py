"""Device descriptions: the facts of each Tenstorrent chip the compiler targets.

The numbers live in one place for the compiler and the simulator alike: the ``"chip"`` section of each
architecture's data file, ``runtime_mock/arch/<arch>.json`` (runtime_mock/python/runtime_mock/arch/; sources
named in the file). ``get_target("wormhole")`` returns a frozen ``TTTarget`` built from it; every pass reads
facts from the target, none hard-codes them.

    >>> get_target("blackhole").grid
    (13, 10)
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

from .errors import TTCompileError

__all__ = [
    "TTTarget",
    "TARGETS",
    "DEFAULT_TARGET",
    "get_target",
    "TILE",
    "FACE",
    "DATA_FORMATS",
    "BLOCK_FLOAT_DTYPES",
    "compute_dtype",
    "INTEGER_TILE_DTYPES",
    "tile_compute_dtype",
    "TABLE_FORMAT",
    "TABLE_WORD_BYTES",
]

TILE = 32
FACE = 16  # a tile is four 16x16 faces in row-major face order, each row-major

# dtype → (tt::DataFormat name, bytes per 32x32 tile)
DATA_FORMATS: dict[str, tuple[str, int]] = {
    "bfloat16": ("Float16_b", 2048),
    "float16": ("Float16", 2048),
    "float32": ("Float32", 4096),
    "bfloat8_b": ("Bfp8_b", 1024 + 64),  # a byte per value and a shared exponent per 16 (a face row)
    "bfloat4_b": ("Bfp4_b", 512 + 64),
    "int32": ("Int32", 4096),
}

# Storage dtypes beyond TVM's (a Tenstorrent extension of the dtype strings): a tensor stored in a block-float
# format holds tiles only, and kernels compute on its values as the dtype given here (the unpacker's output).
BLOCK_FLOAT_DTYPES: dict[str, str] = {"bfloat8_b": "bfloat16", "bfloat4_b": "bfloat16"}


def compute_dtype(dtype: str) -> str:
    """The dtype kernels compute in for values stored as ``dtype`` (a block-float format's is bfloat16)."""
    return BLOCK_FLOAT_DTYPES.get(dtype, dtype)


# Integer tiles: the matrix and vector engines compute on them as float32 (integers exact to 2^24, which
# the compiler checks: integer_tiles.py); only a tensor's tiles in DRAM, and the CB its writer drains, hold
# int32 words, the SFPU's typecast converting on the way out.
INTEGER_TILE_DTYPES = ("int32",)


def tile_compute_dtype(dtype: str) -> str:
    """The dtype of the tiles a tile buffer of ``dtype`` is held in between the compute engines."""
    return "float32" if dtype in INTEGER_TILE_DTYPES else dtype


# An index table (StageIndexTablesTT) holds one 32-bit word per value, whatever its declared integer dtype.
TABLE_FORMAT = "UInt32"
TABLE_WORD_BYTES = 4


@dataclasses.dataclass(frozen=True)
class TTTarget:
    """One chip. ``dst_tiles(fp32)`` is the DST capacity in the default half-sync mode."""

    name: str
    arch: str  # the SDK's arch name
    grid: tuple[int, int]  # compute grid (x = columns, y = rows) usable by programs
    l1_bytes: int  # L1 per Tensix core
    l1_reserved_bytes: int  # firmware, kernel binaries, runtime args: not available to CBs
    dram_banks: int
    dram_bank_bytes: int
    dram_alignment: int
    l1_alignment: int
    num_circular_buffers: int
    dst_tiles_16bit_full_sync: int
    data_formats: tuple[str, ...]
    max_runtime_args: int = 341

    def dst_tiles(self, fp32_dest_acc: bool, full_sync: bool = False) -> int:
        """DST tiles available to one acquire: halved for fp32 accumulation and for half-sync."""
        tiles = self.dst_tiles_16bit_full_sync
        if fp32_dest_acc:
            tiles //= 2
        if not full_sync:
            tiles //= 2
        return tiles

    @property
    def num_cores(self) -> int:
        return self.grid[0] * self.grid[1]

    @property
    def l1_cb_budget(self) -> int:
        return self.l1_bytes - self.l1_reserved_bytes

    def as_record(self):
        """The facts later passes read, as the ``tt.target`` function attribute (a records.TargetFacts;
        imported here so that naming a target needs no TVM)."""
        from .records import TargetFacts

        return TargetFacts(
            name=self.name,
            arch=self.arch,
            grid=list(self.grid),
            l1_bytes=self.l1_bytes,
            l1_cb_budget=self.l1_cb_budget,
            dram_banks=self.dram_banks,
            num_circular_buffers=self.num_circular_buffers,
            dst_tiles_fp32_half_sync=self.dst_tiles(True),
            dst_tiles_16bit_half_sync=self.dst_tiles(False),
            max_runtime_args=self.max_runtime_args,
            l1_alignment=self.l1_alignment,
            dram_alignment=self.dram_alignment,
        )


def _chip_facts(arch: str) -> dict:
    """The ``"chip"`` section of the arch's data file, read where the runtime_mock package lies (without
    importing the simulator, which a compile-only user never loads)."""
    spec = importlib.util.find_spec("runtime_mock")
    if spec is None or spec.origin is None:
        raise TTCompileError("runtime_mock, the package that holds the chips' data files, is not installed")
    return json.loads((Path(spec.origin).parent / "arch" / f"{arch}.json").read_text())["chip"]


def _target(name: str, arch: str) -> TTTarget:
    chip = _chip_facts(arch)
    return TTTarget(
        name=name,
        arch=arch,
        **{**chip, "grid": tuple(chip["grid"]), "data_formats": tuple(chip["data_formats"])},
    )


TARGETS: dict[str, TTTarget] = {
    "grayskull": _target("grayskull", "grayskull"),
    "wormhole": _target("wormhole", "wormhole_b0"),
    "blackhole": _target("blackhole", "blackhole"),
}

DEFAULT_TARGET = "wormhole"

_ALIASES = {"wormhole_b0": "wormhole", "wh": "wormhole", "bh": "blackhole", "gs": "grayskull"}


def get_target(name: str | TTTarget | None) -> TTTarget:
    """The description named ``name`` (default wormhole); unknown names raise TTCompileError."""
    if isinstance(name, TTTarget):
        return name
    key = _ALIASES.get(name or DEFAULT_TARGET, name or DEFAULT_TARGET)
    if key not in TARGETS:
        raise TTCompileError(f"unknown target {name!r}; known targets: {', '.join(sorted(TARGETS))}")
    return TARGETS[key]
