// Compile-time kernel arguments. The runtime compiles each kernel with -DKERNEL_COMPILE_TIME_ARGS=v0,v1,...
// and, for named args, -DKERNEL_COMPILE_TIME_ARG_MAP={"name",value},... so get_compile_time_arg_val(i)
// and get_named_compile_time_arg_val("name") are constant expressions, as in the SDK.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <utility>

#ifndef KERNEL_COMPILE_TIME_ARGS
#define KERNEL_COMPILE_TIME_ARGS
#endif

template <typename T, typename... Args>
constexpr std::array<T, sizeof...(Args)> make_array(Args... args) {
    return {T(args)...};
}

constexpr auto kernel_compile_time_args = make_array<std::uint32_t>(KERNEL_COMPILE_TIME_ARGS);

template <uint32_t Idx>
constexpr uint32_t get_ct_arg() {
    static_assert(Idx < kernel_compile_time_args.size(), "compile-time argument index out of range");
    return kernel_compile_time_args[Idx];
}

#define get_compile_time_arg_val(arg_idx) get_ct_arg<arg_idx>()

#ifdef KERNEL_COMPILE_TIME_ARG_MAP
constexpr std::pair<std::string_view, uint32_t> named_args_map[] = {KERNEL_COMPILE_TIME_ARG_MAP};

// A name the host did not set makes the constant evaluation (and so the kernel build) fail.
constexpr uint32_t get_named_ct_arg(std::string_view name) {
    for (const auto& [arg_name, arg_value] : named_args_map) {
        if (arg_name == name)
            return arg_value;
    }
    throw "named compile-time argument not set by the host";
}

#define get_named_compile_time_arg_val(name) get_named_ct_arg(name)
#endif
