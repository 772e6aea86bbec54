// Tile reductions into DST (the SDK's api/compute/reduce.h).
//
// reduce_tile multiplies every element of A[itile] by the scaler tile's first element (the SDK's
// scaler generators fill the scaler tile with one value: 1 for SUM and MAX, 1/N for AVG) and reduces:
// REDUCE_ROW into column 0 of DST[idst] (out[h][0] over w), REDUCE_COL into row 0 (out[0][w] over h),
// REDUCE_SCALAR into [0][0]. SUM and AVG accumulate onto DST across calls; MAX keeps the running
// maximum, starting from the first tile reduced into DST[idst] since it was acquired. The defaults of
// the template arguments come from the host defines REDUCE_OP and REDUCE_DIM, as in the SDK.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/tile_math.h"

#ifndef REDUCE_OP
#define REDUCE_OP PoolType::SUM
#endif
#ifndef REDUCE_DIM
#define REDUCE_DIM ReduceDim::REDUCE_SCALAR
#endif

namespace ckernel {

template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_init(uint32_t icb, uint32_t icb_scaler, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)icb;
    (void)icb_scaler;
    (void)ocb;
    (void)call_line;
    runtime_mock::kernel_abi::ctx()->compute.unpack_transpose = 0;
}

ALWI void reduce_uninit(uint32_t icb = 0) {
    (void)icb;
}

template <PoolType reduce_type = REDUCE_OP, ReduceDim reduce_dim = REDUCE_DIM, bool enforce_fp32_accumulation = false>
ALWI void reduce_tile(uint32_t icb, uint32_t icb_scaler, uint32_t itile, uint32_t itile_scaler, uint32_t idst,
                      runtime_mock::kernel_abi::CallSite site = {}) {
    using namespace runtime_mock::kernel_abi;
    float* dst = dst_math_tile(idst, "reduce_tile", site);
    TileBuffer in, scaler;
    unpack_from_cb(icb, itile, in.v, "reduce_tile", site);
    unpack_from_cb(icb_scaler, itile_scaler, scaler.v, "reduce_tile", site);
    ComputeState& cs = ctx()->compute;
    const ReduceAxis axis = reduce_dim == REDUCE_ROW   ? ReduceAxis::Row
                            : reduce_dim == REDUCE_COL ? ReduceAxis::Col
                                                       : ReduceAxis::Scalar;
    const ReduceOp op = reduce_type == MAX ? ReduceOp::Max : ReduceOp::Sum;
    reduce_tile_values(dst, in.v, scaler.v[0], op, axis, !(cs.dst_written & (1u << idst)));
    cs.dst_written |= 1u << idst;
    record_compute("reduce_tile", 1, icb);
}

}  // namespace ckernel
