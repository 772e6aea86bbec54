"""``tilelang.carver``: of upstream's hardware-aware scheduling package, the device queries its examples
import (``from tilelang.carver.arch import driver``; ``carver/arch/driver.py``)."""
