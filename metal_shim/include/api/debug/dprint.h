// The SDK's kernel debug print header: see tt_mock_device/dprint.h.
#pragma once

#include "tt_mock_device/dprint.h"
