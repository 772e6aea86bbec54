// compute_kernel_api/reconfig_data_format.h: where tt-metal kept this header until it moved to
// api/compute/reconfig_data_format.h (the release this shim follows, SDK_RELEASE). It forwards there, as the SDK's own
// forwarding headers did while it moved them, so kernels written for the older API still compile.
#pragma once

#include "api/compute/reconfig_data_format.h"
