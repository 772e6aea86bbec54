// Tilize and untilize between circular buffers.
//
// Row-major data for a block of n tiles is 32 rows of n*32 elements (n pages of the CB); tilized data
// is n tiles in the four-face layout. Both sides may use different formats (each CB's own).
#pragma once

#include "runtime_mock/kernel_abi/compute_io.h"
#include "runtime_mock/kernel_abi/tile_math.h"

namespace runtime_mock::kernel_abi {

// The format of a CB holding row-major data: a tile format with one value per element (a block-float
// format shares exponents between a face row's values, so it only holds tiles).
inline DataFormat checked_row_major_format(uint32_t cb, const char* call, CallSite site) {
    const DataFormat format = checked_format(cb, call, site);
    if (is_block_float(format)) {
        failf(ErrorKind::Protocol, call, site,
              "circular buffer %u holds row-major data but has the block-float data format %u, which only "
              "holds tiles; give it Float16_b, Float16 or Float32",
              cb, unsigned(format));
    }
    return format;
}

// Converts n row-major tiles' worth of data at page `in_page` of icb into n tiles at page `out_page`
// (out of order) of ocb.
inline void tilize_pages(uint32_t icb, uint32_t n, uint32_t ocb, uint32_t in_page, uint32_t out_page, const char* call,
                         CallSite site) {
    if (n == 0)
        return;
    const DataFormat in_format = checked_row_major_format(icb, call, site);
    const uint32_t in_addr = cb_front_page(icb, in_page, call, site);
    for (uint32_t page = 1; page < n; page++)  // each checked, and seen by race detection
        cb_front_page(icb, in_page + page, call, site);
    const uint8_t* rows = reinterpret_cast<const uint8_t*>(uintptr_t(in_addr));
    const uint32_t row_bytes = n * kTileDim * element_bytes(in_format);
    for (uint32_t t = 0; t < n; t++) {
        TileBuffer tile;
        for (uint32_t r = 0; r < kTileDim; r++) {
            load_elements(rows + r * row_bytes + t * kTileDim * element_bytes(in_format), in_format,
                          tile.v + r * kTileDim, kTileDim);
        }
        pack_to_cb(tile.v, ocb, out_page + t, call, site);
    }
}

// Converts n tiles at the front of icb into row-major data at the start of ocb's reservation.
inline void untilize_pages(uint32_t icb, uint32_t n, uint32_t ocb, const char* call, CallSite site) {
    if (n == 0)
        return;
    const DataFormat out_format = checked_row_major_format(ocb, call, site);
    const uint32_t out_addr = cb_back_page(ocb, 0, call, site);
    for (uint32_t page = 1; page < n; page++)  // each checked, and seen by race detection
        cb_back_page(ocb, page, call, site);
    uint8_t* rows = reinterpret_cast<uint8_t*>(uintptr_t(out_addr));
    const uint32_t row_bytes = n * kTileDim * element_bytes(out_format);
    for (uint32_t t = 0; t < n; t++) {
        TileBuffer tile;
        unpack_from_cb(icb, t, tile.v, call, site);
        for (uint32_t r = 0; r < kTileDim; r++) {
            store_elements(tile.v + r * kTileDim, out_format,
                           rows + r * row_bytes + t * kTileDim * element_bytes(out_format), kTileDim);
        }
    }
}

}  // namespace runtime_mock::kernel_abi
