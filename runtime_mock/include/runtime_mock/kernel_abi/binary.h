// The FPU's element-wise binary operations, shared by eltwise_binary.h and bcast.h:
// DST[idst] = A[itile0] op broadcast(B[itile1]), plus DST[idst] when add/sub_tiles_init set acc_to_dest.
#pragma once

#include "runtime_mock/kernel_abi/compute_io.h"
#include "runtime_mock/kernel_abi/tile_math.h"

namespace runtime_mock::kernel_abi {

template <BinaryOp op>
inline void binary_tiles(uint32_t icb0, uint32_t icb1, uint32_t itile0, uint32_t itile1, uint32_t idst, Broadcast bcast,
                         const char* call, CallSite site) {
    float* dst = dst_math_tile(idst, call, site);
    TileBuffer a, b;
    unpack_from_cb(icb0, itile0, a.v, call, site);
    unpack_from_cb(icb1, itile1, b.v, call, site);
    ComputeState& cs = ctx()->compute;
    binary_tile<op>(dst, a.v, b.v, bcast, bcast == Broadcast::None && cs.binary_acc_to_dest);
    cs.dst_written |= 1u << idst;
    record_compute(call, 1, icb0);
}

inline void binary_init(bool acc_to_dest) {
    ComputeState& cs = ctx()->compute;
    cs.binary_acc_to_dest = acc_to_dest;
    cs.unpack_transpose = 0;
}

}  // namespace runtime_mock::kernel_abi
