// compute_kernel_api/common.h: where tt-metal kept this header until it moved to api/compute/common.h (the release this
// shim follows, SDK_RELEASE). It forwards there, as the SDK's own forwarding headers did while it moved them, so
// kernels written for the older API still compile.
#pragma once

#include "api/compute/common.h"
