// The SDK's division of work over a grid (tt-metalium/work_split.hpp): consecutive cores as at most three
// rectangles, and the split of units into a group of cores with one unit more and a group with the rest.
#include <tt-metalium/work_split.hpp>
#include <tt_stl/assert.hpp>

#include <vector>

namespace tt::tt_metal {

CoreRangeSet num_cores_to_corerangeset(const CoreCoord start_core, const uint32_t target_num_cores,
                                       const CoreCoord grid_size, const bool row_wise) {
    const size_t nx = grid_size.x;
    const size_t ny = grid_size.y;
    TT_FATAL(start_core.x < nx && start_core.y < ny, "Start core {} must be within grid size {}", start_core.str(),
             grid_size.str());
    const size_t available = row_wise ? (ny - 1 - start_core.y) * nx + (nx - start_core.x)
                                      : (nx - 1 - start_core.x) * ny + (ny - start_core.y);
    TT_FATAL(target_num_cores <= available,
             "Target number of cores {} is greater than total number of available cores {}", target_num_cores,
             available);

    std::vector<CoreRange> ranges;
    size_t left = target_num_cores;
    CoreCoord s = start_core;
    if (row_wise) {
        if (s.x != 0 && left > nx - s.x) {
            ranges.emplace_back(s, CoreCoord(nx - 1, s.y));
            left -= ranges.back().size();
            s = {0, s.y + 1};
        }
        if (left > nx) {
            const size_t rows = left / nx;
            ranges.emplace_back(s, CoreCoord(nx - 1, s.y + rows - 1));
            left -= ranges.back().size();
            s = {0, s.y + rows};
        }
        if (left > 0) {
            ranges.emplace_back(s, CoreCoord(s.x + left - 1, s.y));
        }
    } else {
        if (s.y != 0 && left > ny - s.y) {
            ranges.emplace_back(s, CoreCoord(s.x, ny - 1));
            left -= ranges.back().size();
            s = {s.x + 1, 0};
        }
        if (left > ny) {
            const size_t cols = left / ny;
            ranges.emplace_back(s, CoreCoord(s.x + cols - 1, ny - 1));
            left -= ranges.back().size();
            s = {s.x + cols, 0};
        }
        if (left > 0) {
            ranges.emplace_back(s, CoreCoord(s.x, s.y + left - 1));
        }
    }
    return CoreRangeSet(std::move(ranges));
}

CoreRangeSet num_cores_to_corerangeset(const uint32_t target_num_cores, const CoreCoord grid_size,
                                       const bool row_wise) {
    return num_cores_to_corerangeset({0, 0}, target_num_cores, grid_size, row_wise);
}

std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(
    const CoreCoord grid_size, const uint32_t units_to_divide, const bool row_wise) {
    if (units_to_divide == 0) {
        return {0, CoreRangeSet(), CoreRangeSet(), CoreRangeSet(), 0, 0};
    }
    const uint32_t nx = grid_size.x;
    const uint32_t ny = grid_size.y;
    const uint32_t max_cores = nx * ny;
    const uint32_t target = units_to_divide >= max_cores ? max_cores : units_to_divide;
    const CoreRangeSet all_cores = units_to_divide >= max_cores
                                       ? CoreRangeSet(CoreRange({0, 0}, {nx - 1, ny - 1}))
                                       : num_cores_to_corerangeset(target, grid_size, row_wise);
    const uint32_t units_1 = units_to_divide / target;
    const uint32_t cores_with_more_work = units_to_divide % target;
    if (cores_with_more_work == 0) {
        return {target, all_cores, all_cores, CoreRangeSet(), units_1, 0};
    }
    const CoreRangeSet group_1 = num_cores_to_corerangeset(cores_with_more_work, grid_size, row_wise);
    const CoreCoord last = group_1.ranges().back().end_coord;
    CoreCoord next;
    if (row_wise) {
        next = last.x != nx - 1 ? CoreCoord{last.x + 1, last.y} : CoreCoord{0, last.y + 1};
    } else {
        next = last.y != ny - 1 ? CoreCoord{last.x, last.y + 1} : CoreCoord{last.x + 1, 0};
    }
    const CoreRangeSet group_2 = num_cores_to_corerangeset(next, target - cores_with_more_work, grid_size, row_wise);
    return {target, all_cores, group_1, group_2, units_1 + 1, units_1};
}

}  // namespace tt::tt_metal
