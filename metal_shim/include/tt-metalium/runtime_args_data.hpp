// A view of one kernel's runtime args on one core, as GetRuntimeArgs returns it: indexable and
// assignable in place (`GetRuntimeArgs(program, kernel, core)[0] = new_address;`). An index out of
// range throws (metal_shim/src/runtime_args_data.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iostream>  // as the SDK's header: host programs use std::cout through <tt-metalium/host_api.hpp>

namespace tt::tt_metal {

struct RuntimeArgsData {
    std::uint32_t* rt_args_data = nullptr;
    std::size_t rt_args_count = 0;

    std::uint32_t& operator[](std::size_t index) { return at(index); }
    const std::uint32_t& operator[](std::size_t index) const { return at(index); }

    std::uint32_t& at(std::size_t index);
    const std::uint32_t& at(std::size_t index) const;

    std::size_t size() const { return rt_args_count; }
    std::uint32_t* data() { return rt_args_data; }
    const std::uint32_t* data() const { return rt_args_data; }
};

}  // namespace tt::tt_metal
