// Tensix data formats (tt::DataFormat, defined in tt_mock_device/tt_data_format.h): names (defined in
// metal_shim/src/tt_backend_api_types.cpp), and the size of one 32x32 tile in each.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <tt_mock_device/tt_data_format.h>

namespace tt {

// The enumerator's name ("Float16_b"); "Unknown" for a value outside the enum.
const char* data_format_name(DataFormat format);

std::ostream& operator<<(std::ostream& os, const DataFormat& format);

// Bytes of one datum; block-float formats have no per-datum size.
constexpr uint32_t datum_size(const DataFormat& format) {
    switch (format) {
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::UInt16:
        case DataFormat::RawUInt16:
            return 2;
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32:
        case DataFormat::RawUInt32:
            return 4;
        case DataFormat::Int8:
        case DataFormat::Lf8:
        case DataFormat::UInt8:
        case DataFormat::Fp8_e4m3:
        case DataFormat::RawUInt8:
            return 1;
        default:
            throw std::invalid_argument(std::string("datum_size: no per-datum size for ") + data_format_name(format));
    }
}

// Bytes of one 32x32 tile: datums plus, for block-float formats, 64 shared-exponent bytes.
constexpr uint32_t tile_size(const DataFormat& format) {
    switch (format) {
        case DataFormat::Bfp2:
        case DataFormat::Bfp2_b:
            return (64 * 4) + (16 * 4);
        case DataFormat::Bfp4:
        case DataFormat::Bfp4_b:
            return (128 * 4) + (16 * 4);
        case DataFormat::Bfp8:
        case DataFormat::Bfp8_b:
            return (256 * 4) + (16 * 4);
        case DataFormat::Tf32:
        case DataFormat::Invalid:
            throw std::invalid_argument(std::string("tile_size: unsupported format ") + data_format_name(format));
        default:
            return 1024 * datum_size(format);
    }
}

}  // namespace tt
