// The SDK's api/tensor/tensor_accessor.h: see api/tensor/interleaved_tensor_accessor.h.
#pragma once

#include "api/dataflow/dataflow_api.h"
