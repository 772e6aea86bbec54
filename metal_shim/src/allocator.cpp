#include <runtime_mock/arch.hpp>
#include <tt-metalium/allocator.hpp>
#include <tt_stl/assert.hpp>

namespace tt::tt_metal {

uint32_t Allocator::get_alignment(BufferType buffer_type) const {
    TT_FATAL(buffer_type == BufferType::DRAM || buffer_type == BufferType::L1,
             "Allocator: the mock device has DRAM and L1 buffers, not {}", buffer_type);
    return buffer_type == BufferType::DRAM ? arch_.dram_alignment : arch_.l1_alignment;
}

uint32_t Allocator::get_num_banks(const BufferType& buffer_type) const {
    TT_FATAL(buffer_type == BufferType::DRAM || buffer_type == BufferType::L1,
             "Allocator: the mock device has DRAM and L1 buffers, not {}", buffer_type);
    return buffer_type == BufferType::DRAM ? arch_.dram_banks : arch_.grid_x * arch_.grid_y;
}

}  // namespace tt::tt_metal
