"""VerifyTTIR: invariants and resource limits of the final module."""

import pytest
import tilelang_tt
import tvm
import tvm_ffi
from before_after import assert_pass
from gemm_kernels import final_kernels
from programs import gemm, lower
from tilelang_tt.errors import TTCompileError, TTResourceError
from tilelang_tt.passes import VerifyTTIR, verify_module
from tilelang_tt.records import replace
from tvm import tirx


def test_clean_module_passes():
    assert verify_module(lower(gemm(), "FinalizePersistentSignatureTT")) == ([], [])


def test_leftover_intrinsic_names_the_responsible_pass():
    mod = lower(gemm(), "InsertComputeInitTT")
    with pytest.raises(
        TTCompileError, match="after InsertDSTManagementTT: gemm_compute still contains tt.mm.mma"
    ):
        VerifyTTIR()(mod)


def test_dst_overflow_is_a_resource_error():
    mod = lower(gemm(M=128, N=128, bM=128, bN=128), "FinalizePersistentSignatureTT")
    func = mod["gemm_compute"]
    accs = list(func.attrs["tt.accumulators"])
    accs[0] = replace(accs[0], subblock=[4, 4])
    mod["gemm_compute"] = func.with_attr("tt.accumulators", accs)
    with pytest.raises(TTResourceError, match="holds 4x4 = 16 tiles in DST at once but wormhole DST holds 4"):
        VerifyTTIR()(mod)


def test_missing_kernel_is_reported():
    mod = lower(gemm(), "FinalizePersistentSignatureTT")
    del mod["gemm_writer"]
    assert any("lacks writer" in e for e in verify_module(mod)[1])


def test_final_gemm_kernels_are_returned_unchanged():
    """The GEMM's final reader, compute and writer kernels satisfy every invariant and limit."""
    assert_pass(VerifyTTIR(), final_kernels(), final_kernels())


def test_the_l1_a_sharded_tensor_takes_counts_against_the_cbs():
    """A sharded in L1 (64 KB a core, two shards): circular buffers that would fit the whole CB budget no
    longer fit beside it, and the error names what took the L1."""
    shard = {"memory": "L1", "layout": "sharded", "nd_shard": {"axes": [0], "grid": [2]}}
    func = tilelang_tt.annotate_tt_layout(gemm(M=256, N=64, K=256, bM=128, bN=64), {"A": shard})
    mod = lower(func, "FinalizePersistentSignatureTT")
    compute = mod["gemm_compute"]
    table = list(compute.attrs["tt.cb_table"])
    budget = compute.attrs["tt.target"].l1_cb_budget
    others = sum(e.total_bytes for e in table[1:])
    table[0] = replace(table[0], total_bytes=budget - others)  # the whole budget: fits only without A's shard
    mod["gemm_compute"] = compute.with_attr("tt.cb_table", table)
    with pytest.raises(
        TTResourceError, match=r"circular buffers need \d+ bytes .* \(after 65536 bytes of A\)"
    ):
        VerifyTTIR()(mod)


def test_a_tensor_named_cb_is_not_taken_for_a_circular_buffer():
    """Mamba's chunk scan names a tensor cb: its accessor's variables (cb_tile_bytes...) are the tensor's."""
    mod = lower(gemm(), "FinalizePersistentSignatureTT")
    reader = mod["gemm_reader"]
    accessors = [
        replace(a, accessor="cb") if a.accessor == "a" else a for a in reader.attrs["tt.accessor_args"]
    ]
    renamed = tvm_ffi.structural_map(
        reader.body,
        (tvm.ir.Var, lambda v: tirx.Var("cb" + str(v.name)[1:], v.ty) if str(v.name).startswith("a_") else v),
    )
    assert "cb_tile_bytes" in renamed.script(), "the test needs a variable named after the tensor"
    mod["gemm_reader"] = reader.with_body(renamed).with_attr("tt.accessor_args", accessors)
    assert verify_module(mod)[1] == []
