// The SDK's tt::DataFormat as the mock device takes it: tt_mock::DataFormat is the same enum, so this only
// refuses the formats the mock does not model.
#pragma once

#include <runtime_mock/program_spec.hpp>
#include <tt-metalium/tt_backend_api_types.hpp>

namespace tt::tt_metal::host_detail {

// The format as the mock device takes it; throws for a format the mock does not model.
tt_mock::DataFormat to_mock(tt::DataFormat format);

}  // namespace tt::tt_metal::host_detail
