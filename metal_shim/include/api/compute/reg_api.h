// DST register hand-over between MATH and PACK (the SDK's api/compute/reg_api.h); the state
// machine is described in runtime_mock/kernel_abi/dst.h.
#pragma once

#include "api/compute/common_globals.h"
#include "runtime_mock/kernel_abi/dst.h"

namespace ckernel {

ALWI void tile_regs_acquire(runtime_mock::kernel_abi::CallSite site = {}) {
    using runtime_mock::kernel_abi::DstState;
    runtime_mock::kernel_abi::dst_transition(DstState::Free, DstState::Math, "tile_regs_acquire", site, true);
}

ALWI void tile_regs_commit(runtime_mock::kernel_abi::CallSite site = {}) {
    using runtime_mock::kernel_abi::DstState;
    runtime_mock::kernel_abi::dst_transition(DstState::Math, DstState::Committed, "tile_regs_commit", site, false);
}

ALWI void tile_regs_wait(runtime_mock::kernel_abi::CallSite site = {}) {
    using runtime_mock::kernel_abi::DstState;
    runtime_mock::kernel_abi::dst_transition(DstState::Committed, DstState::Pack, "tile_regs_wait", site, false);
}

ALWI void tile_regs_release(runtime_mock::kernel_abi::CallSite site = {}) {
    using runtime_mock::kernel_abi::DstState;
    runtime_mock::kernel_abi::dst_transition(DstState::Pack, DstState::Free, "tile_regs_release", site, false);
}

ALWI void acquire_dst(runtime_mock::kernel_abi::CallSite site = {}) {
    using runtime_mock::kernel_abi::DstState;
    runtime_mock::kernel_abi::dst_transition(DstState::Free, DstState::Legacy, "acquire_dst", site, true);
}

ALWI void release_dst(runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::dst_release_legacy(site);
}

}  // namespace ckernel
