// The SDK's api/tensor/tensor_accessor_args.h: see api/tensor/tensor_accessor_impl.h.
#pragma once

#include "api/dataflow/dataflow_api.h"
