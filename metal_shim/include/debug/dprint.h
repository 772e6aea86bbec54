// The SDK's kernel debug print header: see runtime_mock/kernel_abi/dprint.h.
#pragma once

#include "runtime_mock/kernel_abi/dprint.h"
