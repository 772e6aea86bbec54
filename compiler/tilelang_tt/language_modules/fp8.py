"""``tilelang.language.fp8``: TileLang's choice of a GPU's float8 dtype (E4M3FN on CUDA, FNUZ on some AMD
GPUs). Tenstorrent has no float8 tensors here, so each helper is a located TTCompileError at its call,
with the reason ``T.float8_e4m3fn`` gives."""

from __future__ import annotations

from ..errors import TTUnsupportedNameError, caller_location
from ..surface import standing

__all__ = ["determine_fp8_type", "determine_torch_fp8_type"]


def _unsupported(name: str) -> TTUnsupportedNameError:
    reason = standing("float8_e4m3fn").reason
    return TTUnsupportedNameError(
        f"tilelang.language.fp8.{name} is not supported on Tenstorrent yet: it picks {reason}",
        *caller_location(),
    )


def determine_fp8_type(fp8_format: str = "e4m3"):
    """TileLang: the float8 dtype string of ``fp8_format`` on this GPU. Here: TTUnsupportedNameError."""
    raise _unsupported("determine_fp8_type")


def determine_torch_fp8_type(fp8_format: str = "e4m3"):
    """TileLang: the torch float8 dtype of ``fp8_format`` on this GPU. Here: TTUnsupportedNameError."""
    raise _unsupported("determine_torch_fp8_type")
