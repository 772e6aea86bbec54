// Logical core coordinates of the compute grid: CoreCoord (a point), CoreRange (an inclusive
// rectangle, iterated row by row) and CoreRangeSet (disjoint rectangles).
#pragma once

#include <fmt/format.h>
#include <tt_stl/assert.hpp>
#include <umd/device/types/xy_pair.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tt::tt_metal {

using CoreCoord = tt_xy_pair;

class CoreRangeSet;

class CoreRange {
public:
    CoreCoord start_coord;
    CoreCoord end_coord;

    CoreRange(const CoreCoord& point) : CoreRange(point, point) {}

    CoreRange(const CoreCoord& start, const CoreCoord& end) : start_coord(start), end_coord(end) {
        TT_FATAL(end.x >= start.x && end.y >= start.y, "Invalid core range: start {} must not be past end {}",
                 start.str(), end.str());
    }

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

    std::string str() const { return "[" + start_coord.str() + " - " + end_coord.str() + "]"; }

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
inline bool operator<(const CoreRange& a, const CoreRange& b) {
    return std::tie(a.start_coord.x, a.start_coord.y, a.end_coord.x, a.end_coord.y) <
           std::tie(b.start_coord.x, b.start_coord.y, b.end_coord.x, b.end_coord.y);
}

class CoreRangeSet {
public:
    CoreRangeSet() = default;
    CoreRangeSet(const CoreRange& range) : ranges_{range} {}
    CoreRangeSet(std::vector<CoreRange> ranges) : ranges_(std::move(ranges)) { validate_no_overlap(); }
    CoreRangeSet(const std::set<CoreRange>& ranges) : ranges_(ranges.begin(), ranges.end()) { validate_no_overlap(); }
    CoreRangeSet(const std::vector<CoreCoord>& cores) {
        ranges_.reserve(cores.size());
        for (const CoreCoord& core : cores) {
            ranges_.emplace_back(core);
        }
        validate_no_overlap();
    }

    const std::vector<CoreRange>& ranges() const { return ranges_; }
    bool empty() const { return ranges_.empty(); }
    size_t size() const { return ranges_.size(); }

    uint32_t num_cores() const {
        uint32_t count = 0;
        for (const CoreRange& range : ranges_) {
            count += static_cast<uint32_t>(range.size());
        }
        return count;
    }

    bool contains(const CoreCoord& core) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.contains(core); });
    }

    bool intersects(const CoreRange& other) const {
        return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.intersects(other); });
    }

    // The union with more cores (a CoreCoord, CoreRange or CoreRangeSet); the result must stay disjoint.
    CoreRangeSet merge(const CoreRangeSet& other) const {
        std::vector<CoreRange> merged = ranges_;
        merged.insert(merged.end(), other.ranges_.begin(), other.ranges_.end());
        return CoreRangeSet(std::move(merged));
    }

    CoreRange bounding_box() const {
        TT_FATAL(!ranges_.empty(), "bounding_box of an empty CoreRangeSet");
        CoreCoord lo = ranges_.front().start_coord;
        CoreCoord hi = ranges_.front().end_coord;
        for (const CoreRange& r : ranges_) {
            lo = {std::min(lo.x, r.start_coord.x), std::min(lo.y, r.start_coord.y)};
            hi = {std::max(hi.x, r.end_coord.x), std::max(hi.y, r.end_coord.y)};
        }
        return CoreRange(lo, hi);
    }

    std::string str() const {
        std::string out = "{";
        for (size_t i = 0; i < ranges_.size(); ++i) {
            out += (i == 0 ? "" : ", ") + ranges_[i].str();
        }
        return out + "}";
    }

private:
    void validate_no_overlap() const {
        for (size_t i = 0; i < ranges_.size(); ++i) {
            for (size_t j = i + 1; j < ranges_.size(); ++j) {
                TT_FATAL(!ranges_[i].intersects(ranges_[j]), "CoreRangeSet: ranges {} and {} overlap", ranges_[i].str(),
                         ranges_[j].str());
            }
        }
    }

    std::vector<CoreRange> ranges_;
};

inline bool operator==(const CoreRangeSet& a, const CoreRangeSet& b) {
    return a.ranges() == b.ranges();
}
inline bool operator!=(const CoreRangeSet& a, const CoreRangeSet& b) {
    return !(a == b);
}

// The cores of a set, range by range; within a range row by row (row_wise) or column by column.
inline std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs,
                                                 std::optional<uint32_t> max_cores = std::nullopt,
                                                 bool row_wise = false) {
    std::vector<CoreCoord> cores;
    const uint32_t limit = max_cores.value_or(crs.num_cores());
    for (const CoreRange& r : crs.ranges()) {
        const size_t outer_begin = row_wise ? r.start_coord.y : r.start_coord.x;
        const size_t outer_end = row_wise ? r.end_coord.y : r.end_coord.x;
        const size_t inner_begin = row_wise ? r.start_coord.x : r.start_coord.y;
        const size_t inner_end = row_wise ? r.end_coord.x : r.end_coord.y;
        for (size_t outer = outer_begin; outer <= outer_end; ++outer) {
            for (size_t inner = inner_begin; inner <= inner_end; ++inner) {
                if (cores.size() == limit) {
                    return cores;
                }
                cores.push_back(row_wise ? CoreCoord{inner, outer} : CoreCoord{outer, inner});
            }
        }
    }
    return cores;
}

// The first num_cores cores of a grid_size_x by grid_size_y grid, row by row or column by column.
inline std::vector<CoreCoord> grid_to_cores(uint32_t num_cores, uint32_t grid_size_x, uint32_t grid_size_y,
                                            bool row_wise = false) {
    TT_FATAL(num_cores <= grid_size_x * grid_size_y, "grid_to_cores: {} cores do not fit a {}x{} grid", num_cores,
             grid_size_x, grid_size_y);
    std::vector<CoreCoord> cores;
    cores.reserve(num_cores);
    for (uint32_t i = 0; i < num_cores; ++i) {
        cores.push_back(row_wise ? CoreCoord{i % grid_size_x, i / grid_size_x}
                                 : CoreCoord{i / grid_size_y, i % grid_size_y});
    }
    return cores;
}

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
