// Element-wise binary operations with B broadcast (the SDK's api/compute/bcast.h).
//
// BroadcastType::ROW uses B's first row for every row, COL B's first column for every column, SCALAR
// B[0][0] for every element: DST[idst] = A[itile0] op broadcast(B[itile1]). unary_bcast copies a
// broadcast CB tile into DST.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/binary.h"

namespace ckernel {

namespace detail {

constexpr runtime_mock::kernel_abi::Broadcast to_broadcast(BroadcastType type) {
    return type == BroadcastType::ROW      ? runtime_mock::kernel_abi::Broadcast::Row
           : type == BroadcastType::COL    ? runtime_mock::kernel_abi::Broadcast::Col
           : type == BroadcastType::SCALAR ? runtime_mock::kernel_abi::Broadcast::Scalar
                                           : runtime_mock::kernel_abi::Broadcast::None;
}

constexpr runtime_mock::kernel_abi::BinaryOp to_binary_op(EltwiseBinaryType type) {
    return type == EltwiseBinaryType::ELWADD   ? runtime_mock::kernel_abi::BinaryOp::Add
           : type == EltwiseBinaryType::ELWSUB ? runtime_mock::kernel_abi::BinaryOp::Sub
                                               : runtime_mock::kernel_abi::BinaryOp::Mul;
}

}  // namespace detail

template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void any_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    static_assert(tBcastOp == EltwiseBinaryType::ELWADD || tBcastOp == EltwiseBinaryType::ELWSUB ||
                      tBcastOp == EltwiseBinaryType::ELWMUL,
                  "broadcast operations support ELWADD, ELWSUB and ELWMUL");
    (void)bcast_row_idx;
    runtime_mock::kernel_abi::binary_tiles<detail::to_binary_op(tBcastOp)>(
        icb0, icb1, itile0, itile1, idst, detail::to_broadcast(tBcastDim), "bcast", site);
}

template <BroadcastType tBcastDim>
ALWI void add_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, site);
}

ALWI void add_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx,
                                                                   site);
}

ALWI void add_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst, 0, site);
}

ALWI void add_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                                 runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWADD, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst, 0, site);
}

template <BroadcastType tBcastDim>
ALWI void sub_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, site);
}

ALWI void sub_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx,
                                                                   site);
}

ALWI void sub_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst, 0, site);
}

ALWI void sub_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                                 runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWSUB, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst, 0, site);
}

template <BroadcastType tBcastDim>
ALWI void mul_tiles_bcast(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                          uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, tBcastDim>(icb0, icb1, itile0, itile1, idst, bcast_row_idx, site);
}

ALWI void mul_tiles_bcast_rows(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               uint32_t bcast_row_idx = 0, runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::ROW>(icb0, icb1, itile0, itile1, idst, bcast_row_idx,
                                                                   site);
}

ALWI void mul_tiles_bcast_cols(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                               runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::COL>(icb0, icb1, itile0, itile1, idst, 0, site);
}

ALWI void mul_tiles_bcast_scalar(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst,
                                 runtime_mock::kernel_abi::CallSite site = {}) {
    any_tiles_bcast<EltwiseBinaryType::ELWMUL, BroadcastType::SCALAR>(icb0, icb1, itile0, itile1, idst, 0, site);
}

// The broadcast inits of tt-metal 0.81 (compute_kernel_hw_startup must have run at the start of the kernel).
template <EltwiseBinaryType tBcastOp, BroadcastType tBcastDim>
ALWI void bcast_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    (void)icb0;
    (void)icb1;
    (void)call_line;
    runtime_mock::kernel_abi::binary_init(false);
}

ALWI void add_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWADD, BroadcastType::ROW>(icb0, icb1, call_line);
}

ALWI void add_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWADD, BroadcastType::COL>(icb0, icb1, call_line);
}

ALWI void add_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWADD, BroadcastType::SCALAR>(icb0, icb1, call_line);
}

ALWI void sub_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWSUB, BroadcastType::ROW>(icb0, icb1, call_line);
}

ALWI void sub_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWSUB, BroadcastType::COL>(icb0, icb1, call_line);
}

ALWI void sub_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWSUB, BroadcastType::SCALAR>(icb0, icb1, call_line);
}

ALWI void mul_bcast_rows_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWMUL, BroadcastType::ROW>(icb0, icb1, call_line);
}

ALWI void mul_bcast_cols_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWMUL, BroadcastType::COL>(icb0, icb1, call_line);
}

ALWI void mul_bcast_scalar_init(uint32_t icb0, uint32_t icb1, uint32_t call_line = __builtin_LINE()) {
    bcast_init<EltwiseBinaryType::ELWMUL, BroadcastType::SCALAR>(icb0, icb1, call_line);
}

// No output CB since tt-metal 0.81 (the two-argument form is in compute_kernel_api/bcast.h).
template <BroadcastType bcast_type>
ALWI void unary_bcast_init(uint32_t icb) {
    (void)icb;
    runtime_mock::kernel_abi::binary_init(false);
}

template <BroadcastType bcast_type>
ALWI void unary_bcast(uint32_t icb, uint32_t in_tile_index, uint32_t dst_tile_index,
                      runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    float* dst = dst_math_tile(dst_tile_index, "unary_bcast", site);
    TileBuffer in, zero{};
    unpack_from_cb(icb, in_tile_index, in.v, "unary_bcast", site);
    binary_tile<BinaryOp::Add>(dst, zero.v, in.v, detail::to_broadcast(bcast_type), false);
    ctx()->compute.dst_written |= 1u << dst_tile_index;
    record_compute("unary_bcast", 1, icb);
}

template <BroadcastType bcast_type>
ALWI void unary_bcast_uninit(uint32_t icb) {
    (void)icb;
}

}  // namespace ckernel
