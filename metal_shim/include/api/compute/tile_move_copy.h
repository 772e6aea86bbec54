// Copying CB tiles into DST (the SDK's api/compute/tile_move_copy.h). copy_tile's index is
// relative to the CB's read pointer and the page must have been waited for.
#pragma once

#include "api/compute/common.h"
#include "runtime_mock/kernel_abi/tile_math.h"

namespace ckernel {

// Configures the unpacker for copy_tile from `cbid` (tt-metal 0.81's name; copy_tile_to_dst_init_short
// before, still declared there, deprecated). `transpose` transposes each tile as it is copied.
ALWI void copy_init(uint32_t cbid, uint32_t transpose = 0, uint32_t transpose_within_16x16_face = 0,
                    uint32_t call_line = __builtin_LINE()) {
    (void)cbid;
    (void)transpose_within_16x16_face;
    (void)call_line;
    runtime_mock::kernel_abi::ctx()->compute.unpack_transpose = transpose;
}

ALWI void copy_tile_to_dst_init_short(uint32_t cbid, uint32_t transpose = 0, uint32_t transpose_within_16x16_face = 0,
                                      uint32_t call_line = __builtin_LINE()) {
    copy_init(cbid, transpose, transpose_within_16x16_face, call_line);
}

ALWI void copy_tile_init(uint32_t cbid, uint32_t call_line = __builtin_LINE()) {
    copy_tile_to_dst_init_short(cbid, 0, 0, call_line);
}

ALWI void copy_tile_to_dst_init_short_with_dt(uint32_t old_cbid, uint32_t new_cbid, uint32_t transpose = 0) {
    (void)old_cbid;
    copy_tile_to_dst_init_short(new_cbid, transpose);
}

ALWI void copy_tile(uint32_t in_cb_id, uint32_t in_tile_index, uint32_t dst_tile_index,
                    runtime_mock::kernel_abi::CallSite site = {}) {
    float* dst = runtime_mock::kernel_abi::dst_math_tile(dst_tile_index, "copy_tile", site);
    runtime_mock::kernel_abi::ComputeState& cs = runtime_mock::kernel_abi::ctx()->compute;
    if (cs.unpack_transpose) {
        runtime_mock::kernel_abi::TileBuffer tile;
        runtime_mock::kernel_abi::unpack_from_cb(in_cb_id, in_tile_index, tile.v, "copy_tile", site);
        runtime_mock::kernel_abi::transpose_tile(dst, tile.v);
    } else {
        runtime_mock::kernel_abi::unpack_from_cb(in_cb_id, in_tile_index, dst, "copy_tile", site);
    }
    cs.dst_written |= 1u << dst_tile_index;
    runtime_mock::kernel_abi::record_compute("copy_tile", 1, in_cb_id);
}

}  // namespace ckernel
