// Data formats the mock device models (mock_data_format.hpp).
#include "mock_data_format.hpp"

#include <tt_stl/assert.hpp>

namespace tt::tt_metal::host_detail {

tt_mock::DataFormat to_mock(tt::DataFormat format) {
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

}  // namespace tt::tt_metal::host_detail
