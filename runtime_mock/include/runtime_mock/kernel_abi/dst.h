// DST, the compute engine's destination register file, as fp32 tiles.
//
// Capacity follows the SDK's table: 16 tiles of 16-bit data in full-sync mode, halved when
// fp32_dest_acc_en holds 32-bit data, halved again in the default half-sync (double-buffered) mode.
// The runtime sets dst_capacity from the kernel's ComputeConfig. One thread runs all three TRISC
// sections, so the MATH/PACK hand-over is a single state machine:
//   Free --tile_regs_acquire--> Math --tile_regs_commit--> Committed --tile_regs_wait--> Pack
//   Pack --tile_regs_release--> Free;   Free --acquire_dst--> Legacy --release_dst--> Free
// Acquiring zeroes DST. Math operations need Math or Legacy, pack_tile needs Pack or Legacy. The
// deprecated release_dst on a free DST (SDK examples call it after tile_regs_release) flips both the
// MATH and PACK sections on silicon, which is harmless: it is accepted with a warning.
#pragma once

#include <cstdint>
#include <cstring>

#include "runtime_mock/kernel_abi/circular_buffer.h"
#include "runtime_mock/kernel_abi/tile_format.h"

namespace runtime_mock::kernel_abi {

// The largest DST of any simulated arch (full-sync, 16-bit data); dst_capacity never exceeds it.
constexpr uint32_t kMaxDstTiles = 16;

inline const char* dst_state_name(DstState state) {
    switch (state) {
        case DstState::Free:
            return "free (not acquired)";
        case DstState::Math:
            return "acquired by MATH (after tile_regs_acquire)";
        case DstState::Committed:
            return "committed (after tile_regs_commit, before tile_regs_wait)";
        case DstState::Pack:
            return "owned by PACK (after tile_regs_wait)";
        case DstState::Legacy:
            return "acquired by acquire_dst";
    }
    return "?";
}

inline void dst_transition(DstState from, DstState to, const char* call, CallSite site, bool zero) {
    ComputeState& cs = ctx()->compute;
    note_progress(ctx());
    if (cs.dst_state != from) {
        failf(ErrorKind::Dst, call, site, "called while DST is %s; expected DST %s", dst_state_name(cs.dst_state),
              dst_state_name(from));
    }
    cs.dst_state = to;
    record_event(ctx(), ProfileEvent{EventKind::DstSync, kNoFormat, kNoCb, 1, call, 0, 0, 0, 0});
    if (zero) {
        std::memset(cs.dst, 0, sizeof(float) * kTileElements * cs.dst_capacity);
        cs.dst_written = 0;
    }
}

inline void dst_release_legacy(CallSite site) {
    if (ctx()->compute.dst_state == DstState::Free) {
        note_progress(ctx());
        warnf("release_dst while DST is free", site,
              "harmless on silicon, where it flips both the MATH and PACK sections; drop it after "
              "tile_regs_release (release_dst pairs with acquire_dst)");
        return;
    }
    dst_transition(DstState::Legacy, DstState::Free, "release_dst", site, false);
}

// DST tile `index` for a math operation.
inline float* dst_math_tile(uint32_t index, const char* call, CallSite site) {
    ComputeState& cs = ctx()->compute;
    note_progress(ctx());
    if (cs.dst_state != DstState::Math && cs.dst_state != DstState::Legacy) {
        failf(ErrorKind::Dst, call, site,
              "math on DST while DST is %s; call tile_regs_acquire() before math operations",
              dst_state_name(cs.dst_state));
    }
    if (index >= cs.dst_capacity) {
        failf(ErrorKind::Dst, call, site,
              "DST index %u is over capacity: this kernel has %u DST tiles (fp32_dest_acc_en halves it, "
              "dst_full_sync_en doubles it)",
              index, cs.dst_capacity);
    }
    return cs.dst + index * kTileElements;
}

// DST tile `index` for packing.
inline const float* dst_pack_tile(uint32_t index, const char* call, CallSite site) {
    ComputeState& cs = ctx()->compute;
    if (cs.dst_state != DstState::Pack && cs.dst_state != DstState::Legacy) {
        failf(ErrorKind::Dst, call, site,
              "pack while DST is %s; pack only between tile_regs_wait() and tile_regs_release()",
              dst_state_name(cs.dst_state));
    }
    if (index >= cs.dst_capacity) {
        failf(ErrorKind::Dst, call, site, "DST index %u is over capacity (%u DST tiles)", index, cs.dst_capacity);
    }
    return cs.dst + index * kTileElements;
}

}  // namespace runtime_mock::kernel_abi
