// What every compute kernel header provides (the SDK's compute_kernel_api/common.h): runtime and
// compile-time args, core identity, CB synchronisation, DST register control and packing.
#pragma once

#include "api/compile_time_args.h"
#include "compute_kernel_api/cb_api.h"
#include "compute_kernel_api/common_globals.h"
#include "compute_kernel_api/pack.h"
#include "compute_kernel_api/reg_api.h"
#include "hostdevcommon/kernel_structs.h"
#include "runtime_mock/kernel_abi/dprint.h"
#include "runtime_mock/kernel_abi/kernel_args.h"
