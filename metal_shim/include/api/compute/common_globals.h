// Globals of compute kernels (the SDK's api/compute/common_globals.h) and the enums of the
// compute engines. The mock device runs the UNPACK, MATH and PACK sections of a compute kernel on one
// thread, so all three section macros keep their argument.
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/kernel_context.h"

#define ALWI inline __attribute__((always_inline))
#define MATH(x) x
#define PACK(x) x
#define UNPACK(x) x

namespace ckernel {

enum class DstSync { SyncHalf, SyncFull };
enum class BroadcastType { NONE, COL, ROW, SCALAR };
enum class EltwiseBinaryType { ELWMUL, ELWDIV, ELWADD, ELWSUB, ELWLESS };
enum class EltwiseBinaryReuseDestType { NONE, DEST_TO_SRCA, DEST_TO_SRCB };
enum PoolType { SUM, AVG, MAX };
enum ReduceDim { REDUCE_ROW, REDUCE_COL, REDUCE_SCALAR };
enum VectorMode { None = 0, R = 1, C = 2, RC = 4, RC_custom = 5 };

}  // namespace ckernel

using namespace ckernel;
