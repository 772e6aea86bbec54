// Tensix data formats, defined once for the host API, the kernels and the simulator: tt::DataFormat (the
// SDK's numbering; the host's tt::DataFormat in tt-metalium/tt_backend_api_types.hpp and runtime_mock::DataFormat in
// runtime_mock/program_spec.hpp name this enum, and kernels see it as the SDK's device-side global
// `DataFormat`), the byte size of one 32x32 tile in each, and which of them the simulated device models.
// C++17, no dependencies: kernels compile against it too.
#pragma once

#include <cstdint>

namespace tt {

enum class DataFormat : uint8_t {
    Float32 = 0,
    Float16 = 1,
    Bfp8 = 2,
    Bfp4 = 3,
    Bfp2 = 11,
    Float16_b = 5,
    Bfp8_b = 6,
    Bfp4_b = 7,
    Bfp2_b = 15,
    Lf8 = 10,
    Fp8_e4m3 = 0x1A,
    Int8 = 14,
    Tf32 = 4,
    UInt8 = 30,
    UInt16 = 9,
    Int32 = 8,
    UInt32 = 24,
    RawUInt8 = 0xf0,
    RawUInt16 = 0xf1,
    RawUInt32 = 0xf2,
    Invalid = 0xff
};

}  // namespace tt

#if defined(KERNEL_BUILD)
using DataFormat = tt::DataFormat;  // the device side's global enum (the SDK's tensix_types.h)
#endif

namespace runtime_mock::kernel_abi {

using DataFormat = tt::DataFormat;

// Bytes of one 32x32 tile: its datums, plus 64 shared-exponent bytes for block-float formats; 0 for a format
// without a tile size (Invalid).
constexpr uint32_t tile_size_bytes(DataFormat format) {
    switch (format) {
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32:
        case DataFormat::RawUInt32:
        case DataFormat::Tf32:
            return 4096;
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::UInt16:
        case DataFormat::RawUInt16:
            return 2048;
        case DataFormat::Bfp8:
        case DataFormat::Bfp8_b:
            return 1024 + 64;
        case DataFormat::Bfp4:
        case DataFormat::Bfp4_b:
            return 512 + 64;
        case DataFormat::Bfp2:
        case DataFormat::Bfp2_b:
            return 256 + 64;
        case DataFormat::Int8:
        case DataFormat::UInt8:
        case DataFormat::Lf8:
        case DataFormat::Fp8_e4m3:
        case DataFormat::RawUInt8:
            return 1024;
        default:
            return 0;
    }
}

// Whether the simulated device models tiles of this format (tile_format.h packs and unpacks them); the host
// API refuses circular buffers of any other.
constexpr bool modelled_by_the_device(DataFormat format) {
    switch (format) {
        case DataFormat::Float32:
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::Bfp8_b:
        case DataFormat::Bfp4_b:
        case DataFormat::UInt32:
        case DataFormat::UInt16:
        case DataFormat::Int32:
        case DataFormat::UInt8:
            return true;
        default:
            return false;
    }
}

}  // namespace runtime_mock::kernel_abi
