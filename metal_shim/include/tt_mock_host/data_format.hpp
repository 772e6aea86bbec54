// The SDK's tt::DataFormat as the mock device takes it: tt_mock::DataFormat is the same enum, so this only
// refuses the formats the mock does not model.
#pragma once

#include <runtime_mock/program_spec.hpp>
#include <tt-metalium/tt_backend_api_types.hpp>
#include <tt_stl/assert.hpp>

namespace tt_mock_host {

inline tt_mock::DataFormat to_mock(tt::DataFormat format) {
    switch (format) {
        case tt::DataFormat::Float32:
        case tt::DataFormat::Float16:
        case tt::DataFormat::Bfp8:
        case tt::DataFormat::Bfp4:
        case tt::DataFormat::Float16_b:
        case tt::DataFormat::Bfp8_b:
        case tt::DataFormat::Bfp4_b:
        case tt::DataFormat::UInt32:
        case tt::DataFormat::UInt16:
        case tt::DataFormat::Int32:
        case tt::DataFormat::UInt8:
            return format;
        default:
            TT_THROW("Data format {} is not supported by the mock device", tt::data_format_name(format));
    }
}

}  // namespace tt_mock_host
