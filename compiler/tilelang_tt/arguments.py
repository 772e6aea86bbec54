"""A kernel call's arguments: which parameters are outputs, and how Python values become device arrays.

The device takes one C-contiguous, writable numpy array per tensor parameter, in the parameter's dtype
(bfloat16 / float16 / float32; float32 for a block-float tensor, which the host packs into its tiles). The
caller may give more freely — lists, read-only arrays, other real dtypes, strided or Fortran-ordered arrays
— and gets either exactly the semantics of a NumPy in-place operation or a TTArgumentError naming the
parameter; never an output silently left untouched:

    call = bind_arguments(params, out_idx, args, kernel_name)   # → CallArrays
    run(call.device)                                            # device writes the output arrays
    result = call.finish()                                      # copies back into caller-given outputs

torch CPU tensors are taken as numpy views of their own memory (``torch_interop``), so they follow the same
rules, and a call given any torch tensor returns torch tensors: the caller's own tensor for an output it
passed, else a tensor sharing the device array's memory.
"""

from __future__ import annotations

import dataclasses

import ml_dtypes
import numpy as np

from . import torch_interop
from .errors import TTArgumentError, TTCompileError

__all__ = ["NUMPY_DTYPES", "CallArrays", "bind_arguments", "output_indices"]

NUMPY_DTYPES = {
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float16": np.dtype(np.float16),
    "float32": np.dtype(np.float32),
    "bfloat8_b": np.dtype(np.float32),
    "bfloat4_b": np.dtype(np.float32),
    # index tables (StageIndexTablesTT)
    **{name: np.dtype(name) for name in ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32")},
}
_WRITTEN = ("write", "read_write")


def output_indices(params: list[dict], out_idx, kernel_name: str) -> list[int]:
    """``out_idx`` (negative from the end) → sorted parameter indices; each must name a written tensor."""
    n = len(params)
    names = ", ".join(p["name"] for p in params)
    chosen = set()
    for i in out_idx:
        if not -n <= i < n:
            raise TTCompileError(
                f"out_idx {i} is out of range: {kernel_name} has {n} tensor parameters ({names}), "
                f"so out_idx must lie in [{-n}, {n - 1}]"
            )
        p = params[i % n]
        if p["access"] not in _WRITTEN:
            what = "only reads" if p["access"] == "read" else "never uses"
            raise TTCompileError(
                f"out_idx {i} names {p['name']}, which {kernel_name} {what}; out_idx must name tensors the "
                f"kernel writes ({', '.join(q['name'] for q in params if q['access'] in _WRITTEN) or 'none'})"
            )
        chosen.add(i % n)
    return sorted(chosen)


@dataclasses.dataclass
class CallArrays:
    """The device arrays of one call, and how to hand the results back."""

    device: list[np.ndarray]  # one per parameter, as the device takes them
    outputs: list[int]  # parameter indices the call returns (out_idx)
    copy_back: list[tuple[np.ndarray, np.ndarray]]  # (caller's array, device array) written after the run
    torch_given: dict[int, object] | None = (
        None  # parameter → the caller's torch tensor, when torch was given
    )

    def finish(self):
        """Copy results into caller-given outputs that the device could not write in place; the return
        value of the call (None, one array or a list; torch tensors when the caller gave torch)."""
        for caller, device in self.copy_back:
            np.copyto(caller, device, casting="unsafe")
        if self.torch_given is None:
            results = [self.device[i] for i in self.outputs]
        else:
            results = [
                self.torch_given.get(i) if i in self.torch_given else torch_interop.from_numpy(self.device[i])
                for i in self.outputs
            ]
        if not results:
            return None
        return results[0] if len(results) == 1 else results


def caller_shape(p: dict) -> tuple:
    """The shape a caller passes for tensor parameter ``p`` (the device may hold a 1-D tensor as 2-D)."""
    return tuple(p.get("declared_shape", p["shape"]))


def _real_array(value, p: dict) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise TTArgumentError(f"{p['name']} cannot be made into a numpy array: {err}") from None
    if arr.dtype.kind == "c":
        raise TTArgumentError(
            f"{p['name']} is complex ({arr.dtype}); the kernel takes real {p['dtype']} values "
            f"(pass .real explicitly if that is what you mean)"
        )
    if arr.dtype.kind not in "biuf" and arr.dtype not in NUMPY_DTYPES.values():
        raise TTArgumentError(f"{p['name']} has dtype {arr.dtype}; the kernel takes numbers ({p['dtype']})")
    if tuple(arr.shape) != caller_shape(p):
        raise TTArgumentError(f"{p['name']} must have shape {caller_shape(p)}, got {tuple(arr.shape)}")
    return arr


def _output_target(value, p: dict) -> np.ndarray:
    """A caller-given output must be a writable array of a floating dtype to receive the result."""
    if not isinstance(value, np.ndarray):
        raise TTArgumentError(
            f"{p['name']} receives the kernel's output, so it must be a numpy array; got "
            f"{type(value).__name__} (pass only the inputs to get the outputs returned)"
        )
    if not value.flags.writeable:
        raise TTArgumentError(f"{p['name']} receives the kernel's output but is read-only")
    if value.dtype.kind != "f" and value.dtype != NUMPY_DTYPES["bfloat16"]:
        raise TTArgumentError(
            f"{p['name']} receives {p['dtype']} results but has dtype {value.dtype}; use a floating dtype"
        )
    return value


def bind_arguments(params: list[dict], out_idx: list[int], args, kernel_name: str) -> CallArrays:
    """Match ``args`` (the inputs only, or every tensor) to ``params`` and build the device arrays."""
    n = len(params)
    inputs = [i for i in range(n) if i not in out_idx]
    if len(args) not in (len(inputs), n):
        names = ", ".join(params[i]["name"] for i in inputs)
        raise TTArgumentError(
            f"{kernel_name} takes {len(inputs)} inputs ({names}) or all {n} tensors, got {len(args)}"
        )
    given = dict(zip(inputs if len(args) == len(inputs) else range(n), args, strict=True))
    torch_given = {i: v for i, v in given.items() if torch_interop.is_tensor(v)}
    for i, tensor in torch_given.items():
        given[i] = torch_interop.as_numpy(tensor, params[i]["name"], params[i]["access"] in _WRITTEN)
    device: list[np.ndarray] = []
    copy_back = []
    for i, p in enumerate(params):
        dtype = NUMPY_DTYPES[p["dtype"]]
        if i not in given:
            device.append(np.zeros(caller_shape(p), dtype))
            continue
        value = given[i]
        caller = _output_target(value, p) if p["access"] in _WRITTEN else None
        arr = _real_array(value, p)
        if caller is not None and arr.dtype == dtype and arr.flags.c_contiguous:
            device.append(arr)  # written in place
            continue
        converted = np.array(
            arr, dtype=dtype, order="C", copy=not (arr.dtype == dtype and arr.flags.c_contiguous)
        )
        if not converted.flags.writeable:  # a read-only input: the device wants its own copy
            converted = converted.copy()
        device.append(converted)
        if caller is not None:
            copy_back.append((caller, converted))
    return CallArrays(device, list(out_idx), copy_back, torch_given or None)
