// Bounds-checked access to a view of one kernel's runtime args on one core
// (tt-metalium/runtime_args_data.hpp).
#include <tt-metalium/runtime_args_data.hpp>
#include <tt_stl/assert.hpp>

namespace tt::tt_metal {

std::uint32_t& RuntimeArgsData::at(std::size_t index) {
    TT_FATAL(index < rt_args_count, "Runtime arg index {} out of range: the kernel has {} args on this core", index,
             rt_args_count);
    return rt_args_data[index];
}

const std::uint32_t& RuntimeArgsData::at(std::size_t index) const {
    return const_cast<RuntimeArgsData*>(this)->at(index);
}

}  // namespace tt::tt_metal
