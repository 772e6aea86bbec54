// Names of the Tensix data formats (tt-metalium/tt_backend_api_types.hpp), for messages and streams.
#include <tt-metalium/tt_backend_api_types.hpp>

#include <ostream>

namespace tt {

const char* data_format_name(DataFormat format) {
    switch (format) {
        case DataFormat::Float32:
            return "Float32";
        case DataFormat::Float16:
            return "Float16";
        case DataFormat::Bfp8:
            return "Bfp8";
        case DataFormat::Bfp4:
            return "Bfp4";
        case DataFormat::Bfp2:
            return "Bfp2";
        case DataFormat::Float16_b:
            return "Float16_b";
        case DataFormat::Bfp8_b:
            return "Bfp8_b";
        case DataFormat::Bfp4_b:
            return "Bfp4_b";
        case DataFormat::Bfp2_b:
            return "Bfp2_b";
        case DataFormat::Lf8:
            return "Lf8";
        case DataFormat::Fp8_e4m3:
            return "Fp8_e4m3";
        case DataFormat::Int8:
            return "Int8";
        case DataFormat::Tf32:
            return "Tf32";
        case DataFormat::UInt8:
            return "UInt8";
        case DataFormat::UInt16:
            return "UInt16";
        case DataFormat::Int32:
            return "Int32";
        case DataFormat::UInt32:
            return "UInt32";
        case DataFormat::RawUInt8:
            return "RawUInt8";
        case DataFormat::RawUInt16:
            return "RawUInt16";
        case DataFormat::RawUInt32:
            return "RawUInt32";
        case DataFormat::Invalid:
            return "Invalid";
    }
    return "Unknown";
}

std::ostream& operator<<(std::ostream& os, const DataFormat& format) {
    return os << data_format_name(format);
}

}  // namespace tt
