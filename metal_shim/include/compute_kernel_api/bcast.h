// compute_kernel_api/bcast.h: where tt-metal kept this header until it moved to api/compute/bcast.h (the release this
// shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it moved them, so
// kernels written for the older API still compile.
#pragma once

#include "api/compute/bcast.h"

// Names tt-metal 0.81 dropped: the full init, the _init_short spellings of the broadcast inits, and
// unary_bcast_init's output CB.
namespace ckernel {

template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void init_bcast(uint32_t icb0, uint32_t icb1, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)icb0;
    (void)icb1;
    (void)ocb;
    (void)call_line;
    runtime_mock::kernel_abi::binary_init(false);
}

ALWI void add_bcast_rows_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWADD, BroadcastType::ROW>(icb0, icb1, 0, call_line);
}

ALWI void add_bcast_cols_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWADD, BroadcastType::COL>(icb0, icb1, 0, call_line);
}

ALWI void add_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWADD, BroadcastType::SCALAR>(icb0, icb1, 0, call_line);
}

ALWI void sub_bcast_rows_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::ROW>(icb0, icb1, 0, call_line);
}

ALWI void sub_bcast_cols_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::COL>(icb0, icb1, 0, call_line);
}

ALWI void sub_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::SCALAR>(icb0, icb1, 0, call_line);
}

ALWI void mul_bcast_rows_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::ROW>(icb0, icb1, 0, call_line);
}

ALWI void mul_bcast_cols_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::COL>(icb0, icb1, 0, call_line);
}

ALWI void mul_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::SCALAR>(icb0, icb1, 0, call_line);
}

ALWI void add_tiles_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWADD, BroadcastType::SCALAR>(icb0, icb1, 0, call_line);
}

ALWI void sub_tiles_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::SCALAR>(icb0, icb1, 0, call_line);
}

ALWI void mul_tiles_bcast_scalar_init_short(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    init_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::SCALAR>(icb0, icb1, 0, call_line);
}

template <BroadcastType bcast_type>
ALWI void unary_bcast_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)ocb;
    (void)call_line;
    unary_bcast_init<bcast_type>(icb);
}

}  // namespace ckernel
