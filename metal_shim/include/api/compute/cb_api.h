// Circular-buffer calls of compute kernels (the SDK's api/compute/cb_api.h): the consumer side
// (cb_wait_front, cb_pop_front) belongs to UNPACK, the producer side to PACK; see
// runtime_mock/kernel_abi/circular_buffer.h for the protocol.
#pragma once

#include "api/compute/common_globals.h"
#include "runtime_mock/kernel_abi/circular_buffer.h"

namespace ckernel {

ALWI void cb_wait_front(uint32_t cbid, uint32_t ntiles, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_wait(cbid, ntiles, site);
}

ALWI void cb_pop_front(uint32_t cbid, uint32_t ntiles, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_pop(cbid, ntiles, site);
}

ALWI void cb_reserve_back(uint32_t cbid, uint32_t ntiles, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_reserve(cbid, ntiles, site);
}

ALWI void cb_push_back(uint32_t cbid, uint32_t ntiles, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_push(cbid, ntiles, site);
}

// L1 address of tile `tile_index` after the read pointer of a CB (in 16-byte units, like the SDK).
ALWI uint32_t get_tile_address(uint32_t cb_id, uint32_t tile_index, runtime_mock::kernel_abi::CallSite site = {}) {
    return runtime_mock::kernel_abi::cb_front_page(cb_id, tile_index, "get_tile_address", site) >> 4;
}

ALWI uint32_t read_tile_value(uint32_t cb_id, uint32_t tile_index, uint32_t element_offset,
                              runtime_mock::kernel_abi::CallSite site = {}) {
    const uint32_t addr = runtime_mock::kernel_abi::cb_front_page(cb_id, tile_index, "read_tile_value", site);
    return reinterpret_cast<const volatile uint32_t*>(uintptr_t(addr))[element_offset];
}

}  // namespace ckernel
