// Tile element formats as kernels see them: the SDK's device-side global `DataFormat` enum (the host's
// tt::DataFormat, see tt_data_format.h) and the byte size of one 32x32 tile in each format.
#pragma once

#include <cstdint>

#include "tt_mock_device/tt_data_format.h"

using DataFormat = tt::DataFormat;

namespace tt_mock_device {

constexpr uint32_t tile_size_bytes(DataFormat format) {
    switch (format) {
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32:
        case DataFormat::Tf32:
            return 4096;
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::UInt16:
            return 2048;
        case DataFormat::Bfp8:
        case DataFormat::Bfp8_b:
            return 1088;
        case DataFormat::Bfp4:
        case DataFormat::Bfp4_b:
            return 576;
        case DataFormat::Bfp2:
        case DataFormat::Bfp2_b:
            return 320;
        case DataFormat::Int8:
        case DataFormat::UInt8:
        case DataFormat::Lf8:
            return 1024;
        default:
            return 0;
    }
}

}  // namespace tt_mock_device
