// The SDK's api/tensor/tensor_accessor.h: see tt_mock_device/tensor_accessor.h.
#pragma once

#include "api/dataflow/dataflow_api.h"
