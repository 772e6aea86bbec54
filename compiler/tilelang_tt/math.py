"""Integer helpers TileLang exports as ``tilelang.cdiv`` / ``tilelang.math.next_power_of_2``, for block
sizes and grid extents computed in Python before a kernel is built.

    >>> cdiv(275, 64), next_power_of_2(48)
    (5, 64)
"""

from __future__ import annotations

__all__ = ["cdiv", "next_power_of_2"]


def cdiv(a: int, b: int) -> int:
    """⌈a / b⌉ of two Python ints (``T.ceildiv`` is the form that also takes symbolic extents)."""
    return (a + b - 1) // b


def next_power_of_2(x: int) -> int:
    """The smallest power of two ≥ ``x`` for ``x`` ≥ 1 (TileLang's formula, so 0 gives 2 as upstream)."""
    return 1 << (x - 1).bit_length()
