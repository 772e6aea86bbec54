"""The sizes of one problem that a generated host program takes at run time, so that main.cpp is the same
text for every shape of a program structure and its built object is reused.

``tilelang_tt_run(kernel_dir, tensors, n, sizes, num_sizes)`` receives ``sizes``: first the named sizes in
the order the renderer asked for them (``HostSizes.size``), then the per-core work table: its core count,
then one row per core (``CORE_FIELDS``, plus the rectangle of a block partition and the window of each
tensor with halos, sharding.window). The plan records both
(``tt.plan.json`` "host_sizes"), and ``values(plan)`` flattens them for a call.

What stays a constant in main.cpp: block shapes, circular buffers, tile page sizes, the kernels' files and
compile-time arguments, and which helpers run (padding, dimension order, multicast): a change in any of
them is a new program structure.
"""

from __future__ import annotations

from . import sharding

CORE_FIELDS = ("x", "y", "start", "count")
RECT_FIELDS = ("row0", "col0", "cols")


class HostSizes:
    """The named sizes a host program reads, in the order it first reads them."""

    def __init__(self) -> None:
        self.entries: list[dict] = []  # {"name", "value", "meaning"}
        self._by_name: dict[str, int] = {}

    def size(self, name: str, value: int, meaning: str) -> str:
        """The C++ name of the size ``name`` (registered with ``value`` the first time)."""
        if name in self._by_name:
            if self._by_name[name] != value:
                raise ValueError(f"host size {name} given two values, {self._by_name[name]} and {value}")
            return name
        self._by_name[name] = int(value)
        self.entries.append({"name": name, "value": int(value), "meaning": meaning})
        return name

    @property
    def count(self) -> int:
        return len(self.entries)


WINDOW_FIELDS = ("row0", "col0", "page0")


def host_name(tensor: str) -> str:
    """The host program's C++ name stem for ``tensor`` (its buffer, sizes and work-table fields)."""
    return "".join(c if c.isalnum() else "_" for c in tensor).lower()


def window_field(tensor: str, field: str) -> str:
    """The work table's name for ``field`` of the window of ``tensor`` (a tensor with halos)."""
    return f"{host_name(tensor)}_halo_{field}"


def _haloed(plan: dict) -> list[dict]:
    return [t for t in plan["tensors"] if t.get("halo")]


def core_fields(plan: dict) -> tuple[str, ...]:
    """The words of one core's row of the work table."""
    windows = tuple(window_field(t["name"], f) for t in _haloed(plan) for f in WINDOW_FIELDS)
    return CORE_FIELDS + (RECT_FIELDS if plan["work_encoding"] == "rect" else ()) + windows


def core_rows(plan: dict) -> list[list[int]]:
    """The work table of the plan: one row of ``core_fields`` per used core."""
    rect = plan["work_encoding"] == "rect"
    grid = plan["target"]["grid"]
    rows = []
    for w in plan["core_work"]:
        windows = [
            v
            for t in _haloed(plan)
            for v in sharding.window(
                w["core"], t["tiles"], t["shard_grid"], t["shard_order"], grid, t["halo"]
            )
        ]
        rows.append([*w["core"], w["start"], w["count"], *(w["rect"] if rect else []), *windows])
    return rows


def values(plan: dict) -> list[int]:
    """The ``sizes`` of a call of the plan's host program."""
    rows = core_rows(plan)
    return [e["value"] for e in plan["host_sizes"]] + [len(rows)] + [v for row in rows for v in row]


def sequence_values(sizes: dict, plans: list[dict]) -> list[int]:
    """The ``sizes`` of a call of a sequence's host program (codegen.host.render_sequence_host): the buffers'
    named sizes, then each program's named sizes and work table."""
    out = [e["value"] for e in sizes["buffers"]]
    for entries, plan in zip(sizes["programs"], plans, strict=True):
        rows = core_rows(plan)
        out += [e["value"] for e in entries] + [len(rows)] + [v for row in rows for v in row]
    return out
