// Where the SDK puts each page of a sharded buffer (its legacy ShardSpecBuffer layouts), for host writes
// and reads of the buffer.
//
// The tensor is a 2-D grid of pages (tensor2d_shape_in_pages, H x W); a shard is shard_h x shard_w pages
// (the shard shape over the page shape). The grid's cores are taken in the orientation's order (ROW_MAJOR:
// row by row), shard i on the i-th core, at the same L1 address on every core. HEIGHT_SHARDED: shard i is
// pages i * shard_h * shard_w onwards, in order. WIDTH_ and BLOCK_SHARDED: the shards tile the page grid
// row by row, ceil(W / shard_w) to a row of shards, and a shard's pages sit row by row in its core's L1
// (page (r, c) of the shard at index r * shard_w + c); shards at the tensor's edge are partial.
#pragma once

#include <tt-metalium/buffer.hpp>

#include <vector>

namespace tt::tt_metal::host_detail {

// The placement of pages 0..num_pages-1. Throws for a shard shape that is not whole pages, a tensor that
// does not have num_pages pages, or more shards than the grid has cores.
std::vector<ShardPage> shard_placement(const ShardSpecBuffer& spec, TensorMemoryLayout layout, uint32_t num_pages);

}  // namespace tt::tt_metal::host_detail
