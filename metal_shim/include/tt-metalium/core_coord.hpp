// Logical core coordinates of the compute grid: CoreCoord (a point), CoreRange (an inclusive
// rectangle, iterated row by row) and CoreRangeSet (disjoint rectangles). Defined in
// metal_shim/src/core_coord.cpp.
#pragma once

#include <fmt/format.h>
#include <tt_stl/assert.hpp>
#include <umd/device/types/xy_pair.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>
#if __cplusplus >= 202002L
#include <span>
#endif

namespace tt::tt_metal {

using CoreCoord = tt_xy_pair;

class CoreRangeSet;

class CoreRange {
public:
    CoreCoord start_coord;
    CoreCoord end_coord;

    CoreRange(const CoreCoord& point) : CoreRange(point, point) {}

    // Throws unless start is neither right of nor below end.
    CoreRange(const CoreCoord& start, const CoreCoord& end);

    size_t size() const { return (end_coord.x - start_coord.x + 1) * (end_coord.y - start_coord.y + 1); }

    CoreCoord grid_size() const { return {end_coord.x - start_coord.x + 1, end_coord.y - start_coord.y + 1}; }

    bool contains(const CoreCoord& core) const {
        return core.x >= start_coord.x && core.x <= end_coord.x && core.y >= start_coord.y && core.y <= end_coord.y;
    }

    bool contains(const CoreRange& other) const { return contains(other.start_coord) && contains(other.end_coord); }

    bool intersects(const CoreRange& other) const {
        return start_coord.x <= other.end_coord.x && other.start_coord.x <= end_coord.x &&
               start_coord.y <= other.end_coord.y && other.start_coord.y <= end_coord.y;
    }

    std::string str() const;  // "[(x=0,y=0) - (x=3,y=1)]"

    // Iterates the cores row by row: x fastest, then y.
    class CoreIterator {
    public:
        CoreIterator(const CoreCoord& current, const CoreRange& range) : current_(current), range_(&range) {}

        const CoreCoord& operator*() const { return current_; }

        CoreIterator& operator++() {
            if (current_.x < range_->end_coord.x) {
                ++current_.x;
            } else {
                current_ = {range_->start_coord.x, current_.y + 1};
            }
            return *this;
        }

        bool operator==(const CoreIterator& other) const { return current_ == other.current_; }
        bool operator!=(const CoreIterator& other) const { return !(*this == other); }

    private:
        CoreCoord current_;
        const CoreRange* range_;
    };

    CoreIterator begin() const { return CoreIterator(start_coord, *this); }
    CoreIterator end() const { return CoreIterator({start_coord.x, end_coord.y + 1}, *this); }
};

inline bool operator==(const CoreRange& a, const CoreRange& b) {
    return a.start_coord == b.start_coord && a.end_coord == b.end_coord;
}
inline bool operator!=(const CoreRange& a, const CoreRange& b) {
    return !(a == b);
}
bool operator<(const CoreRange& a, const CoreRange& b);  // by start, then end; (x, y) order

class CoreRangeSet {
public:
    CoreRangeSet() = default;
    CoreRangeSet(const CoreRange& range);
    // The constructors from several ranges or cores throw if two of them overlap. The SDK takes a vector of
    // ranges it may keep (an rvalue) or a span of them, which needs C++20 as its host API does; C++17 programs
    // copy a vector they keep.
    CoreRangeSet(std::vector<CoreRange>&& ranges);
#if __cplusplus >= 202002L
    CoreRangeSet(std::span<const CoreRange> ranges);
#else
    CoreRangeSet(const std::vector<CoreRange>& ranges) : CoreRangeSet(std::vector<CoreRange>(ranges)) {}
#endif
    CoreRangeSet(const std::set<CoreRange>& ranges);
    CoreRangeSet(const std::vector<CoreCoord>& cores);

    const std::vector<CoreRange>& ranges() const { return ranges_; }
    bool empty() const { return ranges_.empty(); }
    size_t size() const { return ranges_.size(); }

    uint32_t num_cores() const;
    bool contains(const CoreCoord& core) const;
    bool intersects(const CoreRange& other) const;

    // The union with more cores (a CoreCoord, CoreRange or CoreRangeSet); the result must stay disjoint.
    CoreRangeSet merge(const CoreRangeSet& other) const;

    // The smallest range holding every core; throws for an empty set.
    CoreRange bounding_box() const;

    std::string str() const;  // "{[...], [...]}"

private:
    void validate_no_overlap() const;

    std::vector<CoreRange> ranges_;
};

inline bool operator==(const CoreRangeSet& a, const CoreRangeSet& b) {
    return a.ranges() == b.ranges();
}
inline bool operator!=(const CoreRangeSet& a, const CoreRangeSet& b) {
    return !(a == b);
}

// The cores of a set, range by range; within a range row by row (row_wise) or column by column; at most
// max_cores of them.
std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs, std::optional<uint32_t> max_cores = std::nullopt,
                                          bool row_wise = false);

// The first num_cores cores of a grid_size_x by grid_size_y grid, row by row or column by column.
std::vector<CoreCoord> grid_to_cores(uint32_t num_cores, uint32_t grid_size_x, uint32_t grid_size_y,
                                     bool row_wise = false);

}  // namespace tt::tt_metal

using CoreCoord = tt::tt_metal::CoreCoord;
using CoreRange = tt::tt_metal::CoreRange;
using CoreRangeSet = tt::tt_metal::CoreRangeSet;

template <>
struct fmt::formatter<tt::tt_metal::CoreCoord> : fmt::formatter<std::string> {
    auto format(const tt::tt_metal::CoreCoord& core, format_context& ctx) const {
        return fmt::formatter<std::string>::format(core.str(), ctx);
    }
};

template <>
struct fmt::formatter<tt::tt_metal::CoreRange> : fmt::formatter<std::string> {
    auto format(const tt::tt_metal::CoreRange& range, format_context& ctx) const {
        return fmt::formatter<std::string>::format(range.str(), ctx);
    }
};

template <>
struct fmt::formatter<tt::tt_metal::CoreRangeSet> : fmt::formatter<std::string> {
    auto format(const tt::tt_metal::CoreRangeSet& set, format_context& ctx) const {
        return fmt::formatter<std::string>::format(set.str(), ctx);
    }
};
