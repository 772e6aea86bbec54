// tt::DataFormat, the SDK's numbering of Tensix data formats, defined once for the host API, the kernels
// and the simulator: the host's tt::DataFormat (tt-metalium/tt_backend_api_types.hpp), the kernels'
// global DataFormat (tt_mock_device/data_format.h) and tt_mock::DataFormat (runtime_mock/program_spec.hpp)
// all name this enum. C++17, no dependencies: kernels compile against it too.
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
