"""``tilelang.carver``: of upstream's hardware-aware scheduling package, the device queries its examples
import (``from tilelang.carver.arch import driver``; ``carver/arch/driver.py``), and the names of its GPU
models, templates and rasterization plans, which import and are a located error when used
(``carver/gpu_only.py``)."""
