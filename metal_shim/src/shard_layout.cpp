#include "shard_layout.hpp"

namespace tt::tt_metal::host_detail {

std::vector<ShardPage> shard_placement(const ShardSpecBuffer& spec, TensorMemoryLayout layout, uint32_t num_pages) {
    const auto [shard_rows, shard_cols] = spec.shape();
    const auto [page_rows, page_cols] = spec.page_shape;
    TT_FATAL(page_rows > 0 && page_cols > 0 && shard_rows % page_rows == 0 && shard_cols % page_cols == 0 &&
                 shard_rows > 0 && shard_cols > 0,
             "ShardSpecBuffer: the shard shape [{}, {}] must be a positive whole number of pages of [{}, {}]",
             shard_rows, shard_cols, page_rows, page_cols);
    const uint32_t h = shard_rows / page_rows, w = shard_cols / page_cols;
    const auto [tensor_rows, tensor_cols] = spec.tensor2d_shape_in_pages;
    TT_FATAL(uint64_t(tensor_rows) * tensor_cols == num_pages,
             "ShardSpecBuffer: the tensor is [{}, {}] pages ({}), but the buffer has {} pages", tensor_rows,
             tensor_cols, uint64_t(tensor_rows) * tensor_cols, num_pages);
    const bool row_major = spec.orientation() == ShardOrientation::ROW_MAJOR;
    const std::vector<CoreCoord> cores = corerange_to_cores(spec.grid(), std::nullopt, row_major);
    const uint32_t shard_pages = h * w;
    const uint32_t shards = layout == TensorMemoryLayout::HEIGHT_SHARDED
                                ? (num_pages + shard_pages - 1) / shard_pages
                                : ((tensor_rows + h - 1) / h) * ((tensor_cols + w - 1) / w);
    TT_FATAL(shards <= cores.size(),
             "ShardSpecBuffer: {} sharding of [{}, {}] pages in shards of [{}, {}] pages needs {} cores; its grid {} "
             "has {}",
             layout, tensor_rows, tensor_cols, h, w, shards, spec.grid(), cores.size());

    std::vector<ShardPage> placement(num_pages);
    if (layout == TensorMemoryLayout::HEIGHT_SHARDED) {
        for (uint32_t page = 0; page < num_pages; page++)
            placement[page] = {cores[page / shard_pages], page % shard_pages};
        return placement;
    }
    const uint32_t shards_per_row = (tensor_cols + w - 1) / w;
    for (uint32_t row = 0; row < tensor_rows; row++) {
        for (uint32_t col = 0; col < tensor_cols; col++) {
            const uint32_t shard = (row / h) * shards_per_row + col / w;
            placement[row * tensor_cols + col] = {cores[shard], (row % h) * w + col % w};
        }
    }
    return placement;
}

}  // namespace tt::tt_metal::host_detail
