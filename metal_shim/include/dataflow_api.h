// The SDK's pre-2025-12 include path of the data-movement API.
#pragma once

#include "api/dataflow/dataflow_api.h"
