"""The one options dataclass: everything that changes what the compiler produces. Its fields key the
build cache, so two kernels with equal options and equal sources share a build."""

from __future__ import annotations

import dataclasses

from .errors import TTCompileError
from .target import DEFAULT_TARGET, get_target

PARTITION_STRATEGIES = ("auto", "row_major", "column_major", "z_order", "block", "balanced")
# The SDK's MathFidelity values: how many passes the matrix engine makes over each multiply's mantissa bits.
MATH_FIDELITIES = ("LoFi", "HiFi2", "HiFi3", "HiFi4")


def check_math_fidelity(value) -> None:
    """TTCompileError unless ``value`` is one of the SDK's MathFidelity names."""
    if value not in MATH_FIDELITIES:
        raise TTCompileError(f"unknown math fidelity {value!r}; choose one of {', '.join(MATH_FIDELITIES)}")


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    """``target``: grayskull | wormhole | blackhole; ``partition``: auto | row_major | column_major |
    z_order | block | balanced; ``out_idx``: indices of the parameters the kernel allocates and returns
    (negative from the end); ``math_fidelity``: LoFi | HiFi2 | HiFi3 | HiFi4, the compute kernels'
    matrix-engine fidelity; ``packer_l1_acc``: the SDK's option of that name (a GEMM whose accumulator does
    not fit DST keeps its partial sums in L1, where the packer adds each K block's sums, instead of reloading
    them into DST every block: faster, the sums added in another order)."""

    target: str = DEFAULT_TARGET
    partition: str = "auto"
    enable_double_buffer: bool = True
    enable_prefetch: bool = True
    out_idx: tuple[int, ...] = ()
    math_fidelity: str = "HiFi4"
    packer_l1_acc: bool = False

    @classmethod
    def make(
        cls,
        target=None,
        partition=None,
        out_idx=None,
        enable_double_buffer=True,
        enable_prefetch=True,
        math_fidelity=None,
        packer_l1_acc=False,
    ) -> CompileOptions:
        name = DEFAULT_TARGET if target in (None, "auto") else target
        name = get_target(name).name
        partition = partition or "auto"
        if partition not in PARTITION_STRATEGIES:
            raise TTCompileError(
                f"unknown partition {partition!r}; choose one of {', '.join(PARTITION_STRATEGIES)}"
            )
        if out_idx is None:
            idx: tuple[int, ...] = ()
        elif isinstance(out_idx, int):
            idx = (out_idx,)
        else:
            idx = tuple(int(i) for i in out_idx)
        fidelity = math_fidelity or "HiFi4"
        check_math_fidelity(fidelity)
        return cls(
            name,
            partition,
            bool(enable_double_buffer),
            bool(enable_prefetch),
            idx,
            fidelity,
            bool(packer_l1_acc),
        )

    def pipeline_kwargs(self) -> dict:
        return {
            "target_device": self.target,
            "partition_strategy": self.partition,
            "enable_double_buffer": self.enable_double_buffer,
            "enable_prefetch": self.enable_prefetch,
            "math_fidelity": self.math_fidelity,
            "packer_l1_acc": self.packer_l1_acc,
        }
