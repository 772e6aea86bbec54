// Dividing units of work (tiles, blocks) over the cores of a grid, as the SDK does: cores are taken
// column by column (or row by row with row_wise), and when the work does not divide evenly the first
// cores (group 1) get one unit more than the rest (group 2). Defined in metal_shim/src/work_split.cpp.
#pragma once

#include <tt-metalium/core_coord.hpp>

#include <cstdint>
#include <tuple>

namespace tt::tt_metal {

// target_num_cores consecutive cores of the grid starting at start_core, as at most three rectangles.
CoreRangeSet num_cores_to_corerangeset(const CoreCoord start_core, const uint32_t target_num_cores,
                                       const CoreCoord grid_size, const bool row_wise = false);

CoreRangeSet num_cores_to_corerangeset(const uint32_t target_num_cores, const CoreCoord grid_size,
                                       const bool row_wise = false);

// Returns (num_cores, all_cores, core_group_1, core_group_2, units_per_core_group_1, units_per_core_group_2).
std::tuple<uint32_t, CoreRangeSet, CoreRangeSet, CoreRangeSet, uint32_t, uint32_t> split_work_to_cores(
    const CoreCoord grid_size, const uint32_t units_to_divide, const bool row_wise = false);

}  // namespace tt::tt_metal
