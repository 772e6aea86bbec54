// Packing DST tiles into circular buffers (the SDK's api/compute/pack.h).
//
// pack_tile writes the next sequential reserved page of the CB (reset by cb_push_back) unless
// out_of_order_output, in which case it writes page output_tile_index after the write pointer.
#pragma once

#include "api/compute/common_globals.h"
#include "runtime_mock/kernel_abi/compute_io.h"

namespace ckernel {

template <bool out_of_order_output = false>
ALWI void pack_tile(uint32_t ifrom_dst, uint32_t icb, std::uint32_t output_tile_index = 0,
                    runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::pack_dst(ifrom_dst, icb, out_of_order_output, output_tile_index, "pack_tile", site);
}

// With l1_acc_en 1 every later pack adds the DST tile to the values already in the destination page (the
// matmul's partial sums stay in L1 across K blocks instead of being reloaded into DST); 0 overwrites.
ALWI void pack_reconfig_l1_acc(const std::uint32_t l1_acc_en, runtime_mock::kernel_abi::CallSite site = {}) {
    if (l1_acc_en > 1) {
        runtime_mock::kernel_abi::failf(runtime_mock::kernel_abi::ErrorKind::Protocol, "pack_reconfig_l1_acc", site,
                                        "l1_acc_en is %u; it must be 0 (overwrite) or 1 (accumulate)", l1_acc_en);
    }
    runtime_mock::kernel_abi::ctx()->compute.pack_l1_acc = l1_acc_en;
}

ALWI void pack_reconfig_data_format(const uint32_t new_cb_id) {
    (void)new_cb_id;
}
ALWI void pack_reconfig_data_format(const uint32_t old_cb_id, const uint32_t new_cb_id) {
    (void)old_cb_id;
    (void)new_cb_id;
}

}  // namespace ckernel
