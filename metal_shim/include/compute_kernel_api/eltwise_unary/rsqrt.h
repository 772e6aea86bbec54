// compute_kernel_api/eltwise_unary/rsqrt.h: where tt-metal kept this header until it moved to
// api/compute/eltwise_unary/rsqrt.h (the release this shim follows, SDK_RELEASE). It forwards there, as the SDK's own
// forwarding headers did while it moved them, so kernels written for the older API still compile.
#pragma once

#include "api/compute/eltwise_unary/rsqrt.h"
