"""The names a Python function's code uses: what it can reach as globals (and the attribute names it
reads, which share the same table), its nested functions and lambdas included. The kernel cache follows
them to key a factory by what it depends on; the profiler to tell torch reference programs from numpy ones.

    names_used(func.__code__)   # "T", "alloc_shared", "helper", ...
"""

from __future__ import annotations

import types

__all__ = ["names_used"]


def names_used(code: types.CodeType):
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from names_used(const)
