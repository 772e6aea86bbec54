// SubDeviceId: the id of a sub-device (a partition of a chip's cores). The mock has none; the type exists
// for the signatures that name it (distributed::Finish).
#pragma once

#include <tt_stl/strong_type.hpp>

#include <cstdint>

namespace tt::tt_metal {

struct SubDeviceIdTag {};
using SubDeviceId = ttsl::StrongType<uint8_t, SubDeviceIdTag>;

}  // namespace tt::tt_metal
