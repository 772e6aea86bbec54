// Runtime arguments and core identity, shared by data-movement and compute kernels.
//
// The runtime copies a kernel's unique and common runtime args into the core's L1 before it starts, so
// get_arg_addr() returns a dereferenceable L1 address; reading past the args the host set is an error.
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/circular_buffer.h"

namespace runtime_mock::kernel_abi {

inline const uint32_t* arg_slot(int index, bool common, CallSite site) {
    KernelContext* c = ctx();
    const uint32_t count = common ? c->num_common_args : c->num_args;
    const char* call = common ? "get_common_arg_val" : "get_arg_val";
    if (index < 0 || uint32_t(index) >= count) {
        failf(ErrorKind::Argument, call, site,
              "reads %s runtime argument %d but the host set only %u (SetRuntimeArgs%s)", common ? "common" : "unique",
              index, count, common ? "/SetCommonRuntimeArgs" : "");
    }
    return (common ? c->common_args : c->args) + index;
}

}  // namespace runtime_mock::kernel_abi

static inline uintptr_t get_arg_addr(int arg_idx, runtime_mock::kernel_abi::CallSite site = {}) {
    return reinterpret_cast<uintptr_t>(runtime_mock::kernel_abi::arg_slot(arg_idx, false, site));
}

static inline uintptr_t get_common_arg_addr(int arg_idx, runtime_mock::kernel_abi::CallSite site = {}) {
    return reinterpret_cast<uintptr_t>(runtime_mock::kernel_abi::arg_slot(arg_idx, true, site));
}

template <typename T>
inline T get_arg_val(int arg_idx, runtime_mock::kernel_abi::CallSite site = {}) {
    static_assert(sizeof(T) == 4, "runtime arguments are 32-bit words");
    return *reinterpret_cast<const T*>(runtime_mock::kernel_abi::arg_slot(arg_idx, false, site));
}

template <typename T>
inline T get_common_arg_val(int arg_idx, runtime_mock::kernel_abi::CallSite site = {}) {
    static_assert(sizeof(T) == 4, "runtime arguments are 32-bit words");
    return *reinterpret_cast<const T*>(runtime_mock::kernel_abi::arg_slot(arg_idx, true, site));
}

inline uint8_t get_absolute_logical_x() {
    return uint8_t(runtime_mock::kernel_abi::ctx()->core->logical_x);
}
inline uint8_t get_absolute_logical_y() {
    return uint8_t(runtime_mock::kernel_abi::ctx()->core->logical_y);
}
inline uint8_t get_relative_logical_x() {
    return uint8_t(runtime_mock::kernel_abi::ctx()->core->logical_x);
}
inline uint8_t get_relative_logical_y() {
    return uint8_t(runtime_mock::kernel_abi::ctx()->core->logical_y);
}
