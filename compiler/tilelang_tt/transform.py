"""``tilelang.transform``: of upstream's module of TVM passes, the name its examples import from it,
``PassConfigKey`` (``from tilelang.transform import PassConfigKey``; pass_config.py). Its passes run on
upstream's own IR and have no counterpart here."""

from .pass_config import PassConfigKey

__all__ = ["PassConfigKey"]
