"""Device descriptions: the facts of each Tenstorrent chip the compiler targets, in one place.

Numbers come from the SDK (dev_mem_map.h, soc descriptors, hal; see shared notes/metalium-api.md §4.2, §5.8,
§7). ``get_target("wormhole")`` returns a frozen ``TTTarget``; every pass reads facts from it, none hard-codes
them.

    >>> get_target("blackhole").grid
    (13, 10)
"""

from __future__ import annotations

import dataclasses

from .errors import TTCompileError
from .records import TargetFacts

__all__ = ["TTTarget", "TARGETS", "DEFAULT_TARGET", "get_target", "TILE", "DATA_FORMATS"]

TILE = 32

# dtype → (tt::DataFormat name, bytes per 32x32 tile)
DATA_FORMATS: dict[str, tuple[str, int]] = {
    "bfloat16": ("Float16_b", 2048),
    "float16": ("Float16", 2048),
    "float32": ("Float32", 4096),
}


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

    def as_record(self) -> TargetFacts:
        """The facts later passes read, as the ``tt.target`` function attribute."""
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
        )


TARGETS: dict[str, TTTarget] = {
    "grayskull": TTTarget(
        name="grayskull",
        arch="grayskull",
        grid=(12, 9),
        l1_bytes=1024 * 1024,
        l1_reserved_bytes=100 * 1024,
        dram_banks=8,
        dram_bank_bytes=1 << 30,
        dram_alignment=32,
        l1_alignment=16,
        num_circular_buffers=32,
        dst_tiles_16bit_full_sync=16,
        data_formats=("Float16_b", "Float16", "Float32", "Bfp8_b"),
    ),
    "wormhole": TTTarget(
        name="wormhole",
        arch="wormhole_b0",
        grid=(8, 8),
        l1_bytes=1464 * 1024,
        l1_reserved_bytes=100 * 1024,
        dram_banks=12,
        dram_bank_bytes=1 << 30,
        dram_alignment=32,
        l1_alignment=16,
        num_circular_buffers=32,
        dst_tiles_16bit_full_sync=16,
        data_formats=("Float16_b", "Float16", "Float32", "Bfp8_b", "Bfp4_b"),
    ),
    "blackhole": TTTarget(
        name="blackhole",
        arch="blackhole",
        grid=(13, 10),
        l1_bytes=1536 * 1024,
        l1_reserved_bytes=100 * 1024,
        dram_banks=8,
        dram_bank_bytes=4278190080,
        dram_alignment=64,
        l1_alignment=16,
        num_circular_buffers=64,
        dst_tiles_16bit_full_sync=16,
        data_formats=("Float16_b", "Float16", "Float32", "Bfp8_b", "Bfp4_b"),
    ),
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
