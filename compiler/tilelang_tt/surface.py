"""Where each public name of upstream ``tilelang.language`` stands on Tenstorrent.

Every name TileLang exports (``upstream_language_names.txt``, read from a TileLang checkout by
``tools/tilelang_names.py``) is one of:

- ``LOWERED``: ``T.<name>`` is ours and compiles to Tenstorrent code (or is a dtype, a type, a helper that
  computes an index);
- ``IGNORED``: a GPU hint that means nothing on a Tenstorrent core; accepted, returns None, changes nothing;
- ``REJECTED``: using ``T.<name>`` is a TTCompileError at the user's line, "T.<name> is not supported on
  Tenstorrent yet: <reason>".

``standing(name)`` answers for one name; ``language.__getattr__`` raises the rejection. A TileLang name
missing here is a failing test (``compiler/tests/test_surface.py``), so a new upstream name cannot reach a
user as a traceback.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from .tile_ops import SFPU_UNARY

# TileLang's fast-math spellings (``T.__exp``) of the functions the SFPU computes one way.
FAST_MATH = ("__exp", "__log", "__log2", "__sin", "__cos", "__tan", "__exp10", "__log10")

LOWERED, IGNORED, REJECTED = "lowered", "ignored", "rejected"

UPSTREAM_NAMES_FILE = Path(__file__).with_name("upstream_language_names.txt")


@dataclasses.dataclass(frozen=True)
class Standing:
    status: str  # LOWERED, IGNORED or REJECTED
    reason: str  # what it becomes (lowered), why it is safe to drop (ignored), why not (rejected)


_TABLE: dict[str, Standing] = {}


def _names(status: str, reason: str, names: str) -> None:
    for name in names.split():
        if name in _TABLE:
            raise ValueError(f"{name} is listed twice in the TileLang surface table")
        _TABLE[name] = Standing(status, reason)


# ---- lowered: TileLang's tile language
_names(
    LOWERED,
    "TileLang's tile language, lowered to reader, compute and writer kernels",
    """
    prim_func Kernel Tensor dtype Parallel Pipelined serial Serial grid
    alloc_shared alloc_fragment alloc_local alloc_reducer alloc_var finalize_reducer
    copy im2col c2d_im2col gemm fill clear transpose
    reduce_sum reduce_max reduce_min reduce_abssum reduce_absmax atomic_add atomic_max atomic_min
    const dynamic empty GemmWarpPolicy clamp Persistent cumsum cummax reshape view alloc_global
    all_of any_of
    """,
)
_names(LOWERED, "a TVMScript macro: its body is inlined where it is called", "macro")
_names(
    LOWERED,
    "a grid-wide barrier: the kernel is split there into programs that run one after another on one "
    "device, sharing their tensors (stages.py)",
    "sync_grid",
)
_names(
    LOWERED,
    "a sequential loop on a Tenstorrent core (unrolling and vectorising are the kernel compiler's choice)",
    "unroll Unroll vectorized Vectorized",
)
_names(
    LOWERED,
    "the launch grid and SIMT thread indices and extents of the enclosing T.Kernel",
    """
    get_thread_binding get_thread_bindings get_thread_extent get_thread_extents
    get_block_binding get_block_bindings get_block_extent get_block_extents index_to_coordinates
    """,
)
_names(
    LOWERED,
    "index and scalar arithmetic, selects, casts and constants of TVMScript",
    """
    ceildiv cdiv floordiv floormod truncdiv truncmod max min if_then_else Select cast
    infinity max_value min_value likely IntImm PrimExpr StringImm
    """,
)
_names(
    LOWERED,
    "an element-wise function with an SFPU lowering (tile_ops.SFPU_UNARY)",
    " ".join(sorted(SFPU_UNARY)),
)
_names(
    LOWERED,
    "element-wise from SFPU functions: isinf and isfinite compare |x| with infinity, pow takes a constant "
    "exponent",
    "isinf isfinite pow",
)
_names(
    LOWERED,
    "the fast-math spelling of an SFPU function (the SFPU has one accuracy for each)",
    " ".join(FAST_MATH),
)
_names(
    LOWERED,
    "a dtype object (tensor storage dtypes are checked where a tensor is declared)",
    """
    bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 int uint short long
    float16 bfloat16 float32 float64 float half double AnyDType get_tvm_dtype
    """,
)
# ---- ignored: GPU hints
_names(
    IGNORED,
    "a GPU scheduling or layout hint: a Tenstorrent core's tile layout and block order are fixed by the "
    "compiler (partition= chooses the block order)",
    "use_swizzle annotate_layout Layout Fragment annotate_l2_hit_ratio annotate_min_blocks_per_sm",
)
_names(
    IGNORED,
    "a GPU register-allocation hint: Tenstorrent cores have no warp-group register file",
    """
    disable_warp_group_reg_alloc annotate_consumer_reg_alloc annotate_producer_reg_dealloc
    set_max_nreg inc_max_nreg dec_max_nreg no_set_max_nreg
    """,
)
_names(
    IGNORED,
    "a GPU compiler hint (nvcc flags, pointer aliasing, TileLang's CUDA pass options)",
    "annotate_compile_flags annotate_pass_configs annotate_restrict_buffers assume",
)
_names(
    IGNORED,
    "a block-wide barrier: a block's statements run in order on one core, so the barrier is implied",
    "sync_threads",
)
_names(
    IGNORED,
    "CUDA programmatic dependent launch: Tenstorrent programs on a command queue already run in order",
    "pdl_trigger pdl_sync",
)
# ---- rejected: not yet
_names(
    REJECTED,
    "TileLang surface not lowered for Tenstorrent yet",
    """
    PersistentTileScheduler BaseTileScheduler
    reduce reduce_bitand reduce_bitor reduce_bitxor reducer_init reducer_update
    atomic_addx2 atomic_addx4 atomic_load atomic_store atomic_or
    loop_break async_copy annotate_safe_value gemm_sp symbolic
    print device_assert inline meta_class import_source has_let_value get_let_value
    parallel thread_binding KernelLaunchFrame JITFunc PrimFunc Any Ref
    allocate alloc_barrier make_tensor make_tensor_from_addr StridedTensor ptr
    SharedBuffer FragmentBuffer LocalBuffer
    """,
)
_names(
    REJECTED,
    "no SFPU lowering of this function in tile_ops yet",
    """
    atan2 clz copysign fmod hypot ldexp nextafter popcount fast_rcp
    bitwise_and bitwise_not bitwise_or bitwise_xor shift_left shift_right reinterpret
    ieee_add ieee_sub ieee_mul ieee_fdiv ieee_fmaf ieee_frcp ieee_frsqrt ieee_fsqrt
    """,
)
_names(
    REJECTED,
    "a CUDA packed-pair or vector intrinsic: a Tenstorrent core computes whole 32x32 tiles",
    """
    abs2 add2 sub2 mul2 fma2 max2 min2 vectorcombine vectorhigh vectorlow vscale extract_lane Shuffle
    """,
)
_names(
    REJECTED,
    "a SIMT warp or thread-group primitive: a Tenstorrent core has no warps, it computes whole tiles",
    """
    activemask all_sync any_sync ballot ballot_sync get_lane_idx get_warp_idx get_warp_idx_sync
    get_warp_group_idx match_all_sync match_any_sync shfl_down shfl_sync shfl_up shfl_xor shuffle_elect
    sync_warp sync_global syncthreads_and syncthreads_count syncthreads_or
    warp_reduce_bitand warp_reduce_bitor warp_reduce_max warp_reduce_min warp_reduce_sum
    WarpSpecialize WarpSpecializeFrame ws ws_op WSID WSInstr WSOpRef WSPipeline WSRole WSSchedule WSScope
    WSSync WSSyncKind annotate_ws_schedule named_barrier_arrive
    """,
)
_names(
    REJECTED,
    "an NVIDIA memory-system feature (TMA, mbarriers, clusters, tensor memory, cp.async, vector "
    "loads): Tenstorrent moves data with its reader and writer kernels over the NOC",
    """
    tma_copy tma_gather4 tma_gather4_bytes tma_load tma_load_2sm tma_scatter4 tma_store_arrive
    tma_store_wait create_tma_descriptor fence_proxy_async barrier_arrive barrier_wait create_barriers
    mbarrier_arrive mbarrier_arrive_expect_tx mbarrier_expect_tx mbarrier_wait_parity
    alloc_cluster_barrier block_rank_in_cluster clc_get_first_ctaid_x clc_get_first_ctaid_y
    clc_get_first_ctaid_z clc_is_canceled clc_try_cancel clc_try_cancel_multicast cluster_arrive
    cluster_arrive_relaxed cluster_sync cluster_wait ClusterKernel copy_cluster
    alloc_tmem deallocate_tmem alloc_descriptor increase_descriptor_offset access_ptr address_of
    ldg32 ldg64 ldg128 ldg256 lds32 lds64 lds128 stg32 stg64 stg128 stg256 sts32 sts64 sts128 __ldg
    cp_async_barrier_noinc ptx_arrive_barrier ptx_arrive_barrier_expect_tx ptx_arrive_cluster_barrier
    ptx_commit_group ptx_cp_async ptx_cp_async_barrier ptx_cp_async_bulk ptx_fence_barrier_init
    ptx_init_barrier_thread_count ptx_wait_barrier ptx_wait_group
    """,
)
_names(
    REJECTED,
    "an NVIDIA tensor-core instruction (mma, wgmma, tcgen05): a Tenstorrent core multiplies tiles with "
    "T.gemm",
    """
    mma_fill mma_store mma_store_index_map mma_gemm_blockscaled ptx_ldmatrix ptx_mma ptx_mma_block_scale
    ptx_mma_sm70 ptx_mma_sp ptx_tcgen05_mma_blockscaled_ss ptx_tcgen05_mma_ss ptx_tcgen05_mma_ts
    ptx_wgmma_rs ptx_wgmma_sp_rs ptx_wgmma_sp_ss ptx_wgmma_ss wgmma_gemm wgmma_gemm_sp wgmma_mma
    wait_wgmma warpgroup_arrive warpgroup_commit_batch warpgroup_fence_operand warpgroup_wait
    tcgen05_after_thread_sync tcgen05_before_thread_sync tcgen05_cp_warpx4 tcgen05_gemm
    tcgen05_gemm_blockscaled tcgen05_gemm_sp tcgen05_mma tcgen05_mma_arrive tcgen05_mma_blockscaled
    tcgen05_sf_warp_transpose alloc_tcgen05_instr_desc alloc_tcgen05_instruction_desc
    alloc_tcgen05_smem_desc alloc_wgmma_desc compute_gmma_descriptor compute_umma_descriptor
    initialize_tcgen05_descriptor initialize_wgmma_descriptor TCGEN05DescriptorParams
    WGMMADescriptorParams TensorCoreIntrinEmitter TensorCoreIntrinEmitterSM120
    TensorCoreIntrinEmitterWithLadderTransform TCGEN05TensorCoreIntrinEmitter
    SparseTensorCoreIntrinEmitter WGMMATensorCoreIntrinEmitter WGSparseTensorCoreIntrinEmitter
    get_ldmatrix_offset get_mma_micro_size get_swizzle_layout make_mma_swizzle_layout
    make_blockscaled_gemm_layout
    """,
)
_names(
    REJECTED,
    "a CUDA-only facility (raw CUDA source kernels, curand, intrinsics by bit position)",
    "CUDASourceCodeKernel rng_init rng_rand rng_rand_float __ffs __fns",
)
_names(
    REJECTED,
    "a TVM host or LLVM intrinsic, not tile code",
    """
    TVMBackendAllocWorkspace TVMBackendFreeWorkspace anylist_getitem anylist_resetitem
    anylist_setitem_call_cpacked anylist_setitem_call_packed call_cpacked call_cpacked_lowered call_extern
    call_intrin call_llvm_intrin call_llvm_pure_intrin call_packed call_packed_lowered call_pure_extern
    isnullptr lookup_param q_multiply_shift q_multiply_shift_per_axis ret undef align_up
    start_profile_intrinsic end_profile_intrinsic tvm_access_ptr tvm_bmma_sync tvm_fill_fragment
    tvm_load_matrix_sync tvm_mma_sync tvm_stack_alloca tvm_stack_make_array tvm_stack_make_shape
    tvm_storage_sync tvm_store_matrix_sync tvm_struct_get tvm_struct_set tvm_thread_allreduce
    tvm_thread_invariant tvm_throw_last_error tvm_tuple tvm_warp_activemask tvm_warp_shuffle
    tvm_warp_shuffle_down tvm_warp_shuffle_up
    """,
)
_names(
    REJECTED,
    "a GPU number format or its helper (float4/6/8, tfloat32, int4): Tenstorrent tensors here store "
    "bfloat16, float16 and float32",
    "is_f8f6f4_family is_float4 is_float4_e2m1_unpacked is_float4_e2m1fn validate_gemm_ab_dtypes int4 "
    "tfloat32",
)

_GPU_FLOAT_PREFIXES = ("float4_", "float6_", "float8_")
_VECTOR_LANES = ("x2", "x4", "x8", "x16", "x32", "x64")


def standing(name: str) -> Standing | None:
    """The standing of TileLang name ``name``; None for a name this table does not know."""
    if name in _TABLE:
        return _TABLE[name]
    if name.startswith(_GPU_FLOAT_PREFIXES):
        return Standing(
            REJECTED, "a GPU float format: Tenstorrent tensors here store bfloat16, float16 and float32"
        )
    if name.endswith(_VECTOR_LANES) and name.rstrip("0123456789").endswith("x"):
        return Standing(REJECTED, "a vector dtype: a Tenstorrent core computes whole 32x32 tiles of scalars")
    return None


def names_with(status: str) -> list[str]:
    """The names of the table with ``status`` (dtype families aside), sorted."""
    return sorted(n for n, entry in _TABLE.items() if entry.status == status)


def rejection(name: str) -> str | None:
    """The error message for using ``T.<name>``, or None when the name is not rejected."""
    entry = standing(name)
    if entry is None or entry.status != REJECTED:
        return None
    return f"T.{name} is not supported on Tenstorrent yet: {entry.reason}"


def upstream_names() -> list[str]:
    """The names of the snapshot of upstream ``tilelang.language`` (comments skipped)."""
    lines = UPSTREAM_NAMES_FILE.read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]
