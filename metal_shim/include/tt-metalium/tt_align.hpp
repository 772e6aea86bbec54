// tt::align: `addr` rounded up to a multiple of `alignment` (a power of two), as the SDK's tt_align.hpp.
#pragma once

#include <type_traits>

namespace tt {

template <typename T1, typename T2>
constexpr std::common_type_t<T1, T2> align(T1 addr, T2 alignment) {
    static_assert(std::is_integral_v<T1> && std::is_integral_v<T2>, "align() takes integers");
    using T = std::common_type_t<T1, T2>;
    const T a = static_cast<T>(alignment);
    return (static_cast<T>(addr) + a - 1) / a * a;
}

}  // namespace tt
