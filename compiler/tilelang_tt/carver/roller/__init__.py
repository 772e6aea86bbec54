"""``tilelang.carver.roller``: upstream's GPU tiling search; only its rasterization plans' names import
(``rasterization.py``)."""
