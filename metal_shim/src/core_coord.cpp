// CoreRange and CoreRangeSet (tt-metalium/core_coord.hpp): validation of ranges and sets (a range's start
// is not past its end; a set's ranges are disjoint), their text forms, and the enumeration of a set's cores
// in the SDK's orders.
#include <tt-metalium/core_coord.hpp>
#include <tt_stl/assert.hpp>

#include <algorithm>
#include <tuple>

namespace tt::tt_metal {

CoreRange::CoreRange(const CoreCoord& start, const CoreCoord& end) : start_coord(start), end_coord(end) {
    TT_FATAL(end.x >= start.x && end.y >= start.y, "Invalid core range: start {} must not be past end {}", start.str(),
             end.str());
}

std::string CoreRange::str() const {
    return "[" + start_coord.str() + " - " + end_coord.str() + "]";
}

bool operator<(const CoreRange& a, const CoreRange& b) {
    return std::tie(a.start_coord.x, a.start_coord.y, a.end_coord.x, a.end_coord.y) <
           std::tie(b.start_coord.x, b.start_coord.y, b.end_coord.x, b.end_coord.y);
}

CoreRangeSet::CoreRangeSet(const CoreRange& range) : ranges_{range} {}

CoreRangeSet::CoreRangeSet(std::vector<CoreRange>&& ranges) : ranges_(std::move(ranges)) {
    validate_no_overlap();
}

CoreRangeSet::CoreRangeSet(std::span<const CoreRange> ranges) : ranges_(ranges.begin(), ranges.end()) {
    validate_no_overlap();
}

CoreRangeSet::CoreRangeSet(const std::set<CoreRange>& ranges) : ranges_(ranges.begin(), ranges.end()) {
    validate_no_overlap();
}

CoreRangeSet::CoreRangeSet(const std::vector<CoreCoord>& cores) {
    ranges_.reserve(cores.size());
    for (const CoreCoord& core : cores) {
        ranges_.emplace_back(core);
    }
    validate_no_overlap();
}

uint32_t CoreRangeSet::num_cores() const {
    uint32_t count = 0;
    for (const CoreRange& range : ranges_) {
        count += static_cast<uint32_t>(range.size());
    }
    return count;
}

bool CoreRangeSet::contains(const CoreCoord& core) const {
    return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.contains(core); });
}

bool CoreRangeSet::intersects(const CoreRange& other) const {
    return std::any_of(ranges_.begin(), ranges_.end(), [&](const CoreRange& r) { return r.intersects(other); });
}

CoreRangeSet CoreRangeSet::merge(const CoreRangeSet& other) const {
    std::vector<CoreRange> merged = ranges_;
    merged.insert(merged.end(), other.ranges_.begin(), other.ranges_.end());
    return CoreRangeSet(std::move(merged));
}

CoreRange CoreRangeSet::bounding_box() const {
    TT_FATAL(!ranges_.empty(), "bounding_box of an empty CoreRangeSet");
    CoreCoord lo = ranges_.front().start_coord;
    CoreCoord hi = ranges_.front().end_coord;
    for (const CoreRange& r : ranges_) {
        lo = {std::min(lo.x, r.start_coord.x), std::min(lo.y, r.start_coord.y)};
        hi = {std::max(hi.x, r.end_coord.x), std::max(hi.y, r.end_coord.y)};
    }
    return CoreRange(lo, hi);
}

std::string CoreRangeSet::str() const {
    std::string out = "{";
    for (size_t i = 0; i < ranges_.size(); ++i) {
        out += (i == 0 ? "" : ", ") + ranges_[i].str();
    }
    return out + "}";
}

void CoreRangeSet::validate_no_overlap() const {
    for (size_t i = 0; i < ranges_.size(); ++i) {
        for (size_t j = i + 1; j < ranges_.size(); ++j) {
            TT_FATAL(!ranges_[i].intersects(ranges_[j]), "CoreRangeSet: ranges {} and {} overlap", ranges_[i].str(),
                     ranges_[j].str());
        }
    }
}

std::vector<CoreCoord> corerange_to_cores(const CoreRangeSet& crs, std::optional<uint32_t> max_cores, bool row_wise) {
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

std::vector<CoreCoord> grid_to_cores(uint32_t num_cores, uint32_t grid_size_x, uint32_t grid_size_y, bool row_wise) {
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
