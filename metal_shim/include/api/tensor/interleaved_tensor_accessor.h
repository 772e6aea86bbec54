// TensorAccessor and TensorAccessorArgs<CTA_OFFSET> for interleaved buffers.
//
// Argument encoding (agreed with the host API's TensorAccessorArgs(buffer).append_to(ct_args)): exactly
// one compile-time word per accessor, the SDK's ArgConfig flags: bit 0 = sharded (not supported by the
// mock device: a compile error), bit 1 = the buffer is in DRAM (clear: interleaved over the workers'
// L1). No common runtime args are used. The bank base address and page size come from the
// TensorAccessor constructor, as in the SDK's examples:
//     constexpr auto s0_args = TensorAccessorArgs<0>();
//     const auto s0 = TensorAccessor(s0_args, src0_addr, get_tile_size(cb_in0));
//     constexpr auto s1_args = TensorAccessorArgs<s0_args.next_compile_time_args_offset()>();
// get_noc_addr asks the runtime to check the page id against the page count of the buffer at the base
// address (and the page size against the buffer's), so a page past the tensor's end is an error.
// Included by api/dataflow/dataflow_api.h after the interleaved address helpers it uses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "api/compile_time_args.h"
#include "hostdevcommon/tensor_accessor/arg_config.hpp"
#include "runtime_mock/kernel_abi/noc.h"

namespace tensor_accessor {

constexpr std::size_t UNKNOWN = static_cast<std::size_t>(-1);

}  // namespace tensor_accessor

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
    static constexpr uint32_t config = get_compile_time_arg_val(CTA_OFFSET);
    static constexpr bool is_sharded = (config & uint32_t(tensor_accessor::ArgConfig::Sharded)) != 0;
    static constexpr bool is_dram = (config & uint32_t(tensor_accessor::ArgConfig::IsDram)) != 0;
    static_assert(!is_sharded, "sharded TensorAccessor buffers are not supported by the mock device");

    std::size_t crta_offset = CRTA_OFFSET == tensor_accessor::UNKNOWN ? 0 : CRTA_OFFSET;

    constexpr TensorAccessorArgs() = default;
    constexpr explicit TensorAccessorArgs(std::size_t crta_offset_) : crta_offset(crta_offset_) {}

    static constexpr uint32_t num_compile_time_args() { return 1; }
    static constexpr uint32_t next_compile_time_args_offset() { return CTA_OFFSET + num_compile_time_args(); }
    static constexpr uint32_t num_common_runtime_args() { return 0; }
    constexpr std::size_t next_common_runtime_args_offset() const { return crta_offset; }
};

template <typename Args>
struct TensorAccessor {
    static constexpr bool is_dram = Args::is_dram;
    uint32_t bank_base_address;
    uint32_t page_size;
    uint32_t aligned_page_size;

    TensorAccessor(const Args&, std::size_t bank_base_address_, uint32_t page_size_ = 0)
        : bank_base_address(uint32_t(bank_base_address_)),
          page_size(page_size_),
          aligned_page_size(
              runtime_mock::kernel_abi::align_up(page_size_, runtime_mock::kernel_abi::allocator_alignment(is_dram))) {}

    // Throws NocAccessError when page_id is at or past the page count of the buffer at bank_base_address.
    uint64_t get_noc_addr(const uint32_t page_id, const uint32_t offset = 0, uint8_t noc = 0,
                          runtime_mock::kernel_abi::CallSite site = {}) const {
        (void)noc;
        return runtime_mock::kernel_abi::interleaved_addr(is_dram, page_id, bank_base_address, aligned_page_size,
                                                          offset, "TensorAccessor::get_noc_addr", site);
    }
};
