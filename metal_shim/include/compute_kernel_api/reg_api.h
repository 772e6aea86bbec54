// DST register hand-over between MATH and PACK (the SDK's compute_kernel_api/reg_api.h); the state
// machine is described in tt_mock_device/dst.h.
#pragma once

#include "compute_kernel_api/common_globals.h"
#include "tt_mock_device/dst.h"

namespace ckernel {

ALWI void tile_regs_acquire(tt_mock_device::CallSite site = {}) {
    using tt_mock_device::DstState;
    tt_mock_device::dst_transition(DstState::Free, DstState::Math, "tile_regs_acquire", site, true);
}

ALWI void tile_regs_commit(tt_mock_device::CallSite site = {}) {
    using tt_mock_device::DstState;
    tt_mock_device::dst_transition(DstState::Math, DstState::Committed, "tile_regs_commit", site, false);
}

ALWI void tile_regs_wait(tt_mock_device::CallSite site = {}) {
    using tt_mock_device::DstState;
    tt_mock_device::dst_transition(DstState::Committed, DstState::Pack, "tile_regs_wait", site, false);
}

ALWI void tile_regs_release(tt_mock_device::CallSite site = {}) {
    using tt_mock_device::DstState;
    tt_mock_device::dst_transition(DstState::Pack, DstState::Free, "tile_regs_release", site, false);
}

ALWI void acquire_dst(tt_mock_device::CallSite site = {}) {
    using tt_mock_device::DstState;
    tt_mock_device::dst_transition(DstState::Free, DstState::Legacy, "acquire_dst", site, true);
}

ALWI void release_dst(tt_mock_device::CallSite site = {}) {
    tt_mock_device::dst_release_legacy(site);
}

}  // namespace ckernel
