"""The facts of each simulated architecture, read from its data file (``arch/<name>.json``).

Each file is the one home of its architecture's numbers: ``"chip"`` (grid, L1, DRAM banks, alignments, CB
count, DST size, data formats, runtime-arg limit), ``"clock_ghz"``, the timing model's constants
(``"compute"``, ``"overhead"``, ``"noc"``) and ``"sources"``, which names where each constant comes from
(a published report, or ``"estimate: ..."`` with the reasoning). The simulator compiles the same files in
(runtime_mock/gen_arch_data.py); the compiler's target descriptions read them through :func:`arch_facts`.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

_ALIASES = {
    "wormhole": "wormhole_b0",
    "wormhole_b0": "wormhole_b0",
    "blackhole": "blackhole",
    "grayskull": "grayskull",  # chip facts only (``"simulated": false``): a target the compiler writes for
}


def canonical_arch(name: str) -> str:
    """The data file's name for ``name`` (wormhole, wormhole_b0, blackhole or grayskull); ValueError
    otherwise."""
    try:
        return _ALIASES[name]
    except KeyError:
        raise ValueError(
            f"unknown Tenstorrent arch {name!r} (expected one of: {', '.join(sorted(_ALIASES))})"
        ) from None


@functools.cache
def _load(canonical: str) -> dict:
    return json.loads((Path(__file__).parent / "arch" / f"{canonical}.json").read_text())


def arch_facts(name: str) -> dict:
    """A fresh copy of architecture ``name``'s data file as a dict (see the module docstring)."""
    return copy.deepcopy(_load(canonical_arch(name)))
