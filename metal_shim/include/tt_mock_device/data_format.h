// Tile element formats as kernels see them: the SDK's device-side global `DataFormat` enum (same values
// as the host's tt::DataFormat) and the byte size of one 32x32 tile in each format.
#pragma once

#include <cstdint>

enum class DataFormat : uint8_t {
    Float32 = 0,
    Float16 = 1,
    Bfp8 = 2,
    Bfp4 = 3,
    Tf32 = 4,
    Float16_b = 5,
    Bfp8_b = 6,
    Bfp4_b = 7,
    Int32 = 8,
    UInt16 = 9,
    Lf8 = 10,
    Bfp2 = 11,
    Int8 = 14,
    Bfp2_b = 15,
    UInt32 = 24,
    UInt8 = 30,
    Invalid = 0xff,
};

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
