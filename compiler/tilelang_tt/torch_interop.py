"""torch tensors at the kernel's edge: CPU tensors in as numpy views of their memory, results out as torch
tensors sharing the device arrays' memory, and reference programs that want torch.

torch is optional: nothing here imports it. A value can only be a torch tensor once the caller's program
has imported torch, so ``sys.modules`` says whether to look at all.

    is_tensor(value)                      # a torch.Tensor?
    view = as_numpy(t, "A", written=True)  # the tensor's own memory as numpy (bf16: ml_dtypes.bfloat16)
    t2 = from_numpy(array)                 # a torch tensor over a numpy array's memory
    wants_torch(ref_program)               # does the function's code use torch?
    call_reference(ref_program, arrays)    # run it on arrays, as torch tensors where it wants them

Views are zero-copy where numpy can describe the tensor (DLPack): every dtype we support, any strides.
A written tensor must be one the kernel can write without losing the write or breaking autograd, else a
TTArgumentError names it and says what to pass instead.
"""

from __future__ import annotations

import functools
import sys
import types

import ml_dtypes
import numpy as np

from .code_names import names_used
from .errors import TTArgumentError

__all__ = ["as_numpy", "call_reference", "from_numpy", "is_tensor", "to_numpy", "wants_torch"]


def _torch():
    """The torch module when the program has imported it, else None."""
    return sys.modules.get("torch")


def is_tensor(value) -> bool:
    torch = _torch()
    return torch is not None and isinstance(value, torch.Tensor)


def as_numpy(tensor, name: str, written: bool) -> np.ndarray:
    """``tensor``'s memory as a numpy array of the same shape, strides and dtype (bfloat16 as
    ml_dtypes.bfloat16), without a copy. ``written``: the kernel writes the parameter ``name``."""
    torch = _torch()
    if tensor.device.type != "cpu":
        raise TTArgumentError(
            f"{name} is on {tensor.device}; the mock device reads host memory, so pass a CPU tensor "
            f"({name}.cpu()) and copy the result back yourself"
        )
    if written and tensor.requires_grad:
        raise TTArgumentError(
            f"{name} receives the kernel's output but requires grad: an in-place write would bypass "
            f"autograd; pass a tensor that does not require grad (torch.empty(...) or {name}.detach())"
        )
    if written and any(s == 0 and n > 1 for s, n in zip(tensor.stride(), tensor.shape, strict=True)):
        raise TTArgumentError(
            f"{name} receives the kernel's output but its elements overlap in memory (an expanded view, "
            f"strides {tuple(tensor.stride())}); pass a tensor with memory of its own ({name}.contiguous())"
        )
    if tensor.is_conj() or tensor.is_neg():
        raise TTArgumentError(f"{name} is a lazily conjugated or negated view; the kernel takes real tensors")
    # Reading a tensor that requires grad is what a forward pass does; the kernel is no autograd op.
    tensor = tensor.detach()
    if tensor.dtype == torch.bfloat16:  # numpy has no bfloat16: reinterpret the 16-bit words
        return np.from_dlpack(tensor.view(torch.int16)).view(ml_dtypes.bfloat16)
    if tensor.dtype == torch.bool:
        return np.from_dlpack(tensor.view(torch.uint8)).view(np.bool_)
    try:
        return np.from_dlpack(tensor)
    except (BufferError, TypeError, RuntimeError) as err:
        raise TTArgumentError(f"{name} is a torch {tensor.dtype} tensor numpy cannot view: {err}") from None


def from_numpy(array: np.ndarray):
    """A torch tensor sharing ``array``'s memory (bfloat16 arrays become torch.bfloat16)."""
    torch = _torch()
    if array.dtype == ml_dtypes.bfloat16:
        return torch.from_numpy(array.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(array)


def to_numpy(value):
    """A torch tensor (any device, with or without grad) as a numpy array for comparing results; other
    values unchanged."""
    if not is_tensor(value):
        return value
    tensor = value.detach().cpu()
    if tensor.dtype == _torch().bfloat16:
        return tensor.float().numpy()
    return tensor.resolve_conj().resolve_neg().numpy()


def wants_torch(func, _seen: set | None = None) -> bool:
    """Whether ``func`` is torch code: its code, or that of a Python function it calls by a global name,
    names a global bound to torch or one of its modules (``torch``, ``F`` = torch.nn.functional, a function
    imported from them) — how a reference program written for upstream TileLang reads (``torch.softmax``,
    ``F.scaled_dot_product_attention``...). Any other callable is taken as numpy code."""
    while isinstance(func, functools.partial):  # partial(ref_program, is_causal=True)
        func = func.func
    func = getattr(func, "__func__", func)
    code, scope = getattr(func, "__code__", None), getattr(func, "__globals__", None)
    seen = set() if _seen is None else _seen
    if code is None or scope is None or _torch() is None or code in seen:
        return False
    seen.add(code)
    for name in names_used(code):
        value = scope.get(name)
        module = value if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
        module_name = module.__name__ if isinstance(module, types.ModuleType) else module
        if isinstance(module_name, str) and (module_name == "torch" or module_name.startswith("torch.")):
            return True
        if isinstance(value, types.FunctionType) and wants_torch(value, seen):
            return True
    return False


def call_reference(func, arrays: list):
    """``func(*arrays)``, with torch tensors over the arrays' memory when ``func`` is torch code
    (``wants_torch``). Code that says so only through its arguments' methods (``A.view(N // M, M)``, a torch
    call numpy reads as a dtype) fails on arrays: when it does and the program has imported torch, it runs
    again on torch tensors over copies of the arrays as they were. An error there too raises the first."""
    if _torch() is None or wants_torch(func):
        return func(*_as_torch(arrays))
    before = [a.copy() if isinstance(a, np.ndarray) else a for a in arrays]
    try:
        return func(*arrays)
    except (TypeError, ValueError, AttributeError) as numpy_error:
        try:
            return func(*_as_torch(before))
        except Exception:
            raise numpy_error from None


def _as_torch(arrays: list) -> list:
    if _torch() is None:
        return arrays
    return [from_numpy(a) if isinstance(a, np.ndarray) else a for a in arrays]
