// Tensix data formats (tt::DataFormat and their tile sizes, defined in runtime_mock/kernel_abi/data_format.h): names
// (defined in metal_shim/src/tt_backend_api_types.cpp), and the sizes of a datum and of a 32x32 tile.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <runtime_mock/kernel_abi/data_format.h>

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

// Bytes of one 32x32 tile: datums plus, for block-float formats, 64 shared-exponent bytes. Like the SDK, no
// size for Tf32 (its tiles are stored as Float32).
constexpr uint32_t tile_size(const DataFormat& format) {
    const uint32_t size = runtime_mock::kernel_abi::tile_size_bytes(format);
    if (size == 0 || format == DataFormat::Tf32)
        throw std::invalid_argument(std::string("tile_size: unsupported format ") + data_format_name(format));
    return size;
}

}  // namespace tt
