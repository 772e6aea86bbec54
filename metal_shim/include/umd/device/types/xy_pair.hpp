// A point of a 2-D core grid (the SDK's tt_xy_pair, which CoreCoord aliases): x is the column,
// y the row. Ordered by x, then y (like UMD's), so it can key a std::map; hashable.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace tt {

struct xy_pair {
    constexpr xy_pair() : x{}, y{} {}
    constexpr xy_pair(std::size_t x, std::size_t y) : x(x), y(y) {}

    std::size_t x;
    std::size_t y;

    std::string str() const;  // "(x=1,y=2)"
};

constexpr bool operator==(const xy_pair& a, const xy_pair& b) {
    return a.x == b.x && a.y == b.y;
}
constexpr bool operator!=(const xy_pair& a, const xy_pair& b) {
    return !(a == b);
}
constexpr bool operator<(const xy_pair& a, const xy_pair& b) {
    return a.x != b.x ? a.x < b.x : a.y < b.y;
}

}  // namespace tt

using tt_xy_pair = tt::xy_pair;

namespace std {
template <>
struct hash<tt::xy_pair> {
    size_t operator()(const tt::xy_pair& p) const noexcept { return hash<size_t>{}(p.x) ^ (hash<size_t>{}(p.y) << 1); }
};
}  // namespace std
