"""``tilelang.utils.tensor``: ``TensorSupplyType``, ``get_tensor_supply`` and ``torch_assert_close``, as
TileLang's examples import them.

    supply = get_tensor_supply(TensorSupplyType.Auto)
    a = supply(param)      # a torch tensor of param's shape and dtype, drawn as tensor_supply.py says

``param`` is anything with a ``shape`` and a ``dtype`` (a numpy array, a torch tensor, TileLang's
KernelParam) or a kernel's parameter record (``kernel.params[i]``: a dict with "shape" and "dtype").
Tensors come from numpy's generator (seeded once per supply) and are handed over as torch tensors.
"""

from __future__ import annotations

import numpy as np

from .. import torch_interop
from ..arguments import caller_shape
from ..dtypes import canonical
from ..tensor_supply import TensorSupplyType, make_tensor
from ..testing import torch_assert_close

__all__ = ["TensorSupplyType", "get_tensor_supply", "torch_assert_close"]


def _shape_and_dtype(param) -> tuple[tuple, str]:
    if isinstance(param, dict):
        return caller_shape(param), param["dtype"]
    return tuple(int(d) for d in param.shape), canonical(str(param.dtype).removeprefix("torch."))


def get_tensor_supply(supply_type: TensorSupplyType = TensorSupplyType.Integer, seed: int = 0):
    """A function making one torch tensor per call for a parameter (see the module docstring)."""
    rng = np.random.default_rng(seed)

    def get_tensor(param):
        import torch  # noqa: F401 -- the tensors handed back are torch's

        shape, dtype = _shape_and_dtype(param)
        return torch_interop.from_numpy(make_tensor(supply_type, shape, dtype, rng))

    return get_tensor
