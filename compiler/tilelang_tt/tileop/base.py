"""``tilelang.tileop.base``: ``GemmWarpPolicy``, as TileLang's AMD examples import it (``T.GemmWarpPolicy``
itself: a hint a Tenstorrent GEMM accepts and ignores, it has no warps)."""

from ..tvmscript_language import GemmWarpPolicy

__all__ = ["GemmWarpPolicy"]
