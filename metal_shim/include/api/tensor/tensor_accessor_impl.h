// TensorAccessor and TensorAccessorArgs<CTA_OFFSET>, for interleaved and sharded buffers.
//
// Argument encoding (agreed with the host API's TensorAccessorArgs(buffer).append_to(ct_args), the SDK's with
// every argument at compile time): the first compile-time word holds the SDK's ArgConfig flags (bit 0
// sharded, bit 1 the buffer is in DRAM; the Runtime* flags are not supported: a compile error). An
// interleaved buffer has that word alone. A sharded buffer's words go on: rank, number of banks (the shards'
// cores), the tensor's shape in pages (rank words), a shard's shape in pages (rank words), and the banks'
// NOC coordinates two to a word (x << 8 | y, the second bank in the upper half). No common runtime args are
// used. The bank base address and page size come from the TensorAccessor constructor, as in the SDK's
// examples:
//     constexpr auto s0_args = TensorAccessorArgs<0>();
//     const auto s0 = TensorAccessor(s0_args, src0_addr, get_tile_size(cb_in0));
//     constexpr auto s1_args = TensorAccessorArgs<s0_args.next_compile_time_args_offset()>();
// A sharded buffer's page p has coordinates p unflattened over the tensor's shape (row-major); the shards
// tile the tensor row-major, shard s sits on bank s % banks as that bank's (s / banks)-th shard, and a page's
// offset in its bank is (that index * shard volume + its row-major index in the shard) * aligned page size.
// get_noc_addr asks the runtime to check an interleaved page id against the page count of the buffer at
// the base address (and the page size against the buffer's); a sharded page id at or past the tensor's
// page count is an error here. Included by api/dataflow/dataflow_api.h after the address helpers it uses.
#pragma once

#include <cstddef>
#include <cstdint>

#include "api/compile_time_args.h"
#include "hostdevcommon/tensor_accessor/arg_config.hpp"
#include "runtime_mock/kernel_abi/noc.h"

namespace tensor_accessor {

constexpr std::size_t UNKNOWN = static_cast<std::size_t>(-1);

// Where a page of a sharded buffer lives: the bank (an index into the banks) and the page's index in it.
struct PageMapping {
    std::size_t bank_id;
    std::size_t bank_page_offset;
};

}  // namespace tensor_accessor

template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
    static constexpr uint32_t config = get_compile_time_arg_val(CTA_OFFSET);
    static constexpr bool is_sharded = (config & uint32_t(tensor_accessor::ArgConfig::Sharded)) != 0;
    static constexpr bool is_dram = (config & uint32_t(tensor_accessor::ArgConfig::IsDram)) != 0;
    static constexpr uint32_t kRuntimeFlags = uint32_t(tensor_accessor::ArgConfig::RuntimeRank) |
                                              uint32_t(tensor_accessor::ArgConfig::RuntimeNumBanks) |
                                              uint32_t(tensor_accessor::ArgConfig::RuntimeTensorShape) |
                                              uint32_t(tensor_accessor::ArgConfig::RuntimeShardShape) |
                                              uint32_t(tensor_accessor::ArgConfig::RuntimeBankCoords);
    static_assert((config & kRuntimeFlags) == 0,
                  "the mock device's TensorAccessor takes every argument at compile time (ArgConfig::None)");

    // Sharded buffers only (the words after the config word; an interleaved accessor has none).
    static constexpr uint32_t rank = is_sharded ? kernel_compile_time_args[CTA_OFFSET + 1] : 0;
    static constexpr uint32_t num_banks = is_sharded ? kernel_compile_time_args[CTA_OFFSET + 2] : 0;
    static constexpr uint32_t tensor_dim(uint32_t i) { return kernel_compile_time_args[CTA_OFFSET + 3 + i]; }
    static constexpr uint32_t shard_dim(uint32_t i) { return kernel_compile_time_args[CTA_OFFSET + 3 + rank + i]; }
    // NOC (x, y) of bank `bank`, packed x << 8 | y.
    static constexpr uint32_t bank_noc_xy(uint32_t bank) {
        return (kernel_compile_time_args[CTA_OFFSET + 3 + 2 * rank + bank / 2] >> (bank % 2 * 16)) & 0xffff;
    }

    std::size_t crta_offset = CRTA_OFFSET == tensor_accessor::UNKNOWN ? 0 : CRTA_OFFSET;

    constexpr TensorAccessorArgs() = default;
    constexpr explicit TensorAccessorArgs(std::size_t crta_offset_) : crta_offset(crta_offset_) {}

    static constexpr uint32_t num_compile_time_args() { return is_sharded ? 3 + 2 * rank + (num_banks + 1) / 2 : 1; }
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

    // Interleaved: throws NocAccessError when page_id is at or past the page count of the buffer at
    // bank_base_address. Sharded: the page's bank and offset as the top of the file says.
    uint64_t get_noc_addr(const uint32_t page_id, const uint32_t offset = 0, uint8_t noc = 0,
                          runtime_mock::kernel_abi::CallSite site = {}) const {
        (void)noc;
        if constexpr (Args::is_sharded) {
            return bank_noc_addr(get_bank_and_offset(page_id, site), offset);
        } else {
            return runtime_mock::kernel_abi::interleaved_addr(is_dram, page_id, bank_base_address, aligned_page_size,
                                                              offset, "TensorAccessor::get_noc_addr", site);
        }
    }

    // Sharded buffers: the bank and in-bank page index of page `page_id`.
    tensor_accessor::PageMapping get_bank_and_offset(uint32_t page_id,
                                                     runtime_mock::kernel_abi::CallSite site = {}) const {
        static_assert(Args::is_sharded, "get_bank_and_offset is for sharded buffers");
        if (page_id >= tensor_volume()) {
            runtime_mock::kernel_abi::failf(
                runtime_mock::kernel_abi::ErrorKind::NocAccess, "TensorAccessor::get_noc_addr", site,
                "page %u is past the end of the sharded tensor, which has %u pages", page_id, tensor_volume());
        }
        std::size_t shard_id = 0, in_shard = 0, grid_stride = 1, shard_stride = 1;
        for (uint32_t i = Args::rank; i-- > 0;) {
            const uint32_t coord = page_id % Args::tensor_dim(i);
            page_id /= Args::tensor_dim(i);
            shard_id += coord / Args::shard_dim(i) * grid_stride;
            in_shard += coord % Args::shard_dim(i) * shard_stride;
            grid_stride *= (Args::tensor_dim(i) + Args::shard_dim(i) - 1) / Args::shard_dim(i);
            shard_stride *= Args::shard_dim(i);
        }
        return {shard_id % Args::num_banks, shard_id / Args::num_banks * shard_volume() + in_shard};
    }

    // Sharded buffers: the NOC address of shard `shard_id`'s first page.
    uint64_t get_shard_noc_addr(uint32_t shard_id, uint32_t offset = 0, uint8_t noc = 0) const {
        static_assert(Args::is_sharded, "get_shard_noc_addr is for sharded buffers");
        (void)noc;
        return bank_noc_addr({shard_id % Args::num_banks, shard_id / Args::num_banks * shard_volume()}, offset);
    }

    static constexpr uint32_t tensor_volume() {
        uint32_t volume = 1;
        for (uint32_t i = 0; i < Args::rank; i++)
            volume *= Args::tensor_dim(i);
        return volume;
    }

    static constexpr uint32_t shard_volume() {
        uint32_t volume = 1;
        for (uint32_t i = 0; i < Args::rank; i++)
            volume *= Args::shard_dim(i);
        return volume;
    }

private:
    uint64_t bank_noc_addr(tensor_accessor::PageMapping page, uint32_t offset) const {
        const uint32_t xy = Args::bank_noc_xy(uint32_t(page.bank_id));
        return runtime_mock::kernel_abi::noc_unicast_addr(
            xy >> 8, xy & 0xff, uint64_t(bank_base_address) + page.bank_page_offset * aligned_page_size + offset);
    }
};
