// For the race and schedule test kernels: writes `word` into page 0 of the interleaved DRAM buffer at
// `dst_addr` through circular buffer c_1. Compile-time args: TensorAccessorArgs of the destination.
#pragma once

#include <cstdint>

inline void store_word(uint32_t word, uint32_t dst_addr) {
    constexpr auto dst_args = TensorAccessorArgs<0>();
    const auto dst = TensorAccessor(dst_args, dst_addr, 32);
    cb_reserve_back(1, 1);
    *reinterpret_cast<volatile tt_l1_ptr uint32_t*>(get_write_ptr(1)) = word;
    noc_async_write_page(0, dst, get_write_ptr(1));
    noc_async_write_barrier();
    cb_push_back(1, 1);
}
