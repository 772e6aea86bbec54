// The host tilize/untilize conversions (tt-metalium/tilize_utils.hpp) of the datum types host programs
// use, instantiated once here so that programs link them instead of compiling them.
#include <tt-metalium/tilize_utils.hpp>

namespace tt::tilize_detail {

template std::vector<uint16_t> convert(tt::stl::Span<const uint16_t>, uint32_t, uint32_t, bool, bool, const char*);
template std::vector<uint32_t> convert(tt::stl::Span<const uint32_t>, uint32_t, uint32_t, bool, bool, const char*);
template std::vector<float> convert(tt::stl::Span<const float>, uint32_t, uint32_t, bool, bool, const char*);
template std::vector<bfloat16> convert(tt::stl::Span<const bfloat16>, uint32_t, uint32_t, bool, bool, const char*);

}  // namespace tt::tilize_detail
