// Moving tiles between circular buffers and DST: unpack (CB page -> fp32) and pack (fp32 -> CB page).
//
// Unpack reads page `index` after a CB's read pointer (it must have been waited for); pack writes the
// next sequential reserved page of the output CB (reset by cb_push_back) or, out of order, a given one.
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/dst.h"
#include "runtime_mock/kernel_abi/l1_fill.h"

namespace runtime_mock::kernel_abi {

inline DataFormat checked_format(uint32_t cb, const char* call, CallSite site) {
    const DataFormat format = DataFormat(ctx()->core->cbs[cb].format);
    if (!is_supported_tile_format(format)) {
        failf(ErrorKind::Protocol, call, site,
              "circular buffer %u has data format %u; the mock device computes on Float16_b, Float16, Float32, "
              "Int32 and block-float tiles only",
              cb, unsigned(format));
    }
    return format;
}

inline void unpack_from_cb(uint32_t cb, uint32_t index, float* out, const char* call, CallSite site) {
    const uint32_t addr = cb_front_page(cb, index, call, site);
    const DataFormat format = checked_format(cb, call, site);
    const void* tile = reinterpret_cast<const void*>(uintptr_t(addr));
    if (ctx()->poisoned_l1 && holds_only_poison(tile, tile_size_bytes(format))) {
        failf(ErrorKind::Protocol, call, site,
              "reads page %u of circular buffer %u (L1 0x%x), which nothing wrote in this program: every byte "
              "still holds the RUNTIME_MOCK_L1_FILL=poison fill",
              index, cb, addr);
    }
    unpack_tile(tile, format, out);
}

inline void pack_to_cb(const float* tile, uint32_t cb, uint32_t index, const char* call, CallSite site) {
    const uint32_t addr = cb_back_page(cb, index, call, site);
    const DataFormat format = checked_format(cb, call, site);
    void* page = reinterpret_cast<void*>(uintptr_t(addr));
    if (!ctx()->compute.pack_l1_acc) {
        pack_tile_data(tile, format, page);
        return;
    }
    // L1 accumulation: the packer adds DST to the values the page holds, in float32, then packs the sums.
    if (format == DataFormat::Int32) {
        failf(ErrorKind::Protocol, call, site,
              "accumulates into page %u of circular buffer %u under pack_reconfig_l1_acc(1), an Int32 buffer; the mock "
              "device accumulates float tiles only",
              index, cb);
    }
    if (ctx()->poisoned_l1 && holds_only_poison(page, tile_size_bytes(format))) {
        failf(ErrorKind::Protocol, call, site,
              "accumulates into page %u of circular buffer %u (L1 0x%x) under pack_reconfig_l1_acc(1), but nothing "
              "wrote that page in this program: every byte still holds the RUNTIME_MOCK_L1_FILL=poison fill",
              index, cb, addr);
    }
    float sums[kTileElements];
    unpack_tile(page, format, sums);
    for (uint32_t i = 0; i < kTileElements; ++i)
        sums[i] += tile[i];
    pack_tile_data(sums, format, page);
}

// Packs a DST tile into the next sequential page of `cb` (or page `index` when out_of_order).
inline void pack_dst(uint32_t idst, uint32_t cb, bool out_of_order, uint32_t index, const char* call, CallSite site) {
    const float* tile = dst_pack_tile(idst, call, site);
    CircularBuffer& b = circular_buffer(cb, call, site);
    const uint32_t page = out_of_order ? index : b.pack_index++;
    pack_to_cb(tile, cb, page, call, site);
    record_compute(call, 1, cb);
}

}  // namespace runtime_mock::kernel_abi
