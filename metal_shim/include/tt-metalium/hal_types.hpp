// Device address type of buffers (bank-relative byte address, 64-bit as in the SDK).
#pragma once

#include <cstdint>

namespace tt::tt_metal {

using DeviceAddr = std::uint64_t;

}  // namespace tt::tt_metal
