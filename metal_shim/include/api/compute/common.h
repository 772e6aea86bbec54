// What every compute kernel header provides (the SDK's api/compute/common.h): runtime and
// compile-time args, core identity, CB synchronisation, DST register control and packing.
#pragma once

#include "api/compile_time_args.h"
#include "api/compute/cb_api.h"
#include "api/compute/common_globals.h"
#include "api/compute/compute_kernel_hw_startup.h"
#include "api/compute/pack.h"
#include "api/compute/reg_api.h"
#include "hostdevcommon/kernel_structs.h"
#include "runtime_mock/kernel_abi/dprint.h"
#include "runtime_mock/kernel_abi/kernel_args.h"
