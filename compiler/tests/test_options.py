"""CompileOptions: one frozen dataclass, normalised, hashable (it keys the build cache)."""

import dataclasses

import pytest
from tilelang_tt.errors import TTCompileError
from tilelang_tt.options import CompileOptions


def test_defaults():
    assert CompileOptions.make() == CompileOptions("wormhole", "auto", True, True, ())


def test_auto_target_is_the_default():
    assert CompileOptions.make(target="auto").target == "wormhole"


def test_frozen_and_hashable():
    opts = CompileOptions.make(out_idx=[-1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.target = "blackhole"
    assert hash(opts) == hash(CompileOptions.make(out_idx=-1))


def test_unknown_partition():
    with pytest.raises(TTCompileError, match="unknown partition 'spiral'"):
        CompileOptions.make(partition="spiral")


def test_math_fidelity_defaults_to_hifi4_and_keys_the_cache():
    assert CompileOptions.make().math_fidelity == "HiFi4"
    assert CompileOptions.make(math_fidelity="LoFi") != CompileOptions.make()


def test_unknown_math_fidelity():
    with pytest.raises(TTCompileError, match="unknown math fidelity 'HiFi5'; choose one of LoFi, HiFi2"):
        CompileOptions.make(math_fidelity="HiFi5")


def test_math_fidelity_reaches_the_compute_config():
    """The option, or TileLang-TT's pass_configs key, becomes the compute kernel's ComputeConfig."""
    import tilelang_tt as tilelang
    from programs import gemm

    def fidelity(kernel) -> str:
        (compute,) = [k for k in kernel.plan["kernels"] if "compute_config" in k]
        return compute["compute_config"]["math_fidelity"]

    func = gemm(64, 64, 64, 32, 32, 32)
    assert fidelity(tilelang.compile(func, math_fidelity="LoFi")) == "LoFi"
    assert fidelity(tilelang.compile(func, pass_configs={"tl.tt.math_fidelity": "HiFi2"})) == "HiFi2"
    with pytest.raises(TTCompileError, match="disagree"):
        tilelang.compile(func, math_fidelity="LoFi", pass_configs={"tl.tt.math_fidelity": "HiFi2"})
