// compute_kernel_api/eltwise_binary.h: where tt-metal kept this header until it moved to api/compute/eltwise_binary.h
// (the release this shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it
// moved them, so kernels written for the older API still compile.
#pragma once

#include "api/compute/eltwise_binary.h"

// Names tt-metal 0.81 dropped: the common init (compute_kernel_hw_startup now), the _tiles_init spellings
// (add_init, ...), and binary_dest_reuse_tiles, which takes one operand from DST instead of a CB
// (DEST_TO_SRCA: DST op CB, DEST_TO_SRCB: CB op DST).
namespace ckernel {

ALWI void binary_op_init_common(uint32_t icb0, uint32_t icb1, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)icb0;
    (void)icb1;
    (void)ocb;
    (void)call_line;
    runtime_mock::kernel_abi::binary_init(false);
}

ALWI void mul_tiles_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, EltwiseBinaryType::ELWMUL>(icb0, icb1, false, call_line);
}

ALWI void add_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false,
                         uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, EltwiseBinaryType::ELWADD>(icb0, icb1, acc_to_dest, call_line);
}

ALWI void sub_tiles_init(uint32_t icb0, uint32_t icb1, bool acc_to_dest = false,
                         uint32_t call_line = __builtin_LINE()) {
    binary_tiles_init<true, EltwiseBinaryType::ELWSUB>(icb0, icb1, acc_to_dest, call_line);
}

template <EltwiseBinaryType eltwise_binary_type = EltwiseBinaryType::ELWADD,
          EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE>
ALWI void binary_dest_reuse_tiles_init(uint32_t icb0, uint32_t call_line = __builtin_LINE()) {
    (void)icb0;
    (void)call_line;
    runtime_mock::kernel_abi::binary_init(false);
}

template <EltwiseBinaryType eltwise_binary_type = EltwiseBinaryType::ELWADD,
          EltwiseBinaryReuseDestType binary_reuse_dest = EltwiseBinaryReuseDestType::NONE>
ALWI void binary_dest_reuse_tiles(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index,
                                  runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    static_assert(binary_reuse_dest != EltwiseBinaryReuseDestType::NONE, "choose DEST_TO_SRCA or DEST_TO_SRCB");
    static_assert(eltwise_binary_type == EltwiseBinaryType::ELWADD ||
                      eltwise_binary_type == EltwiseBinaryType::ELWSUB ||
                      eltwise_binary_type == EltwiseBinaryType::ELWMUL,
                  "binary_dest_reuse_tiles supports ELWADD, ELWSUB and ELWMUL");
    constexpr BinaryOp op = eltwise_binary_type == EltwiseBinaryType::ELWADD   ? BinaryOp::Add
                            : eltwise_binary_type == EltwiseBinaryType::ELWSUB ? BinaryOp::Sub
                                                                               : BinaryOp::Mul;
    float* dst = dst_math_tile(dst_tile_index, "binary_dest_reuse_tiles", site);
    TileBuffer cb_tile, dst_copy;
    unpack_from_cb(in_cb_id, in_tile_index, cb_tile.v, "binary_dest_reuse_tiles", site);
    for (uint32_t i = 0; i < kTileElements; i++)
        dst_copy.v[i] = dst[i];
    if (binary_reuse_dest == EltwiseBinaryReuseDestType::DEST_TO_SRCA) {
        binary_tile<op>(dst, dst_copy.v, cb_tile.v, Broadcast::None, false);
    } else {
        binary_tile<op>(dst, cb_tile.v, dst_copy.v, Broadcast::None, false);
    }
    ctx()->compute.dst_written |= 1u << dst_tile_index;
    record_compute("binary_dest_reuse_tiles", 1, in_cb_id);
}

}  // namespace ckernel
