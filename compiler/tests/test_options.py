"""CompileOptions: one frozen dataclass, normalised, hashable (it keys the build cache)."""

import dataclasses

import pytest
from tilelang_tt.errors import TTCompileError
from tilelang_tt.options import CompileOptions


def test_defaults():
    assert CompileOptions.make() == CompileOptions("wormhole", "row_major", True, True, ())


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
