// The timing model: replays the events a profiled run recorded (profile_event.h) in modelled time.
//
// Every RISC (BRISC, NCRISC, TRISC of each core) has a clock, starting at the kernel-launch cost. The
// replay advances the RISC with the smallest clock (ties: lowest core, then lowest RISC) before every
// event that claims a shared resource or touches a semaphore, so those happen in time order, and the
// result depends only on the recorded events, never on how the host scheduled the functional run's
// threads. (Events local to a RISC, and CB calls, whose waits end at the later of the two sides' times
// whichever is replayed first, run without that check.)
//   compute        clock += tiles x cycles per tile (by call, math fidelity, Float32 unpack/pack factor)
//   packer         pack_* calls run on the compute core's packer clock (TRISC2), beside the math engine:
//                  from when their DST half was committed; tile_regs_acquire waits until the packer
//                  released the half it takes (half-sync: the one before last; acquire_dst: the last), and
//                  a compute kernel's cb_push_back is visible once the packer is done
//   API overheads  CB calls, DST hand-overs, NOC issue, local semaphore calls: fixed costs (busy)
//   NOC transfer   occupies each of its resources (DRAM bank, the NOC ports of both ends) on its own from
//                  start = max(issue, free[resource]) for bytes / rate cycles, and completes `latency`
//                  after the slowest; the RISC goes on after the issue cost (async)
//   barriers       read / write barrier: clock = max(clock, last completion of this RISC's reads / writes)
//   CB sync        cb_wait_front waits until the producer's push made the cumulative page count it needs;
//                  cb_reserve_back until the consumer's pops freed enough pages (a push is visible when
//                  its API call ends)
//   semaphores     a wait ends at the first modelled time at which the word's value, applying every
//                  write (local set, NOC set, increment) in arrival order to its initial value, meets the
//                  condition; a waiter is resumed only when no RISC could still issue an earlier write
// Each release of a blocked wait becomes a flow (push or write -> wait) in the trace. A wait the replay
// cannot satisfy once every other RISC is finished or blocked (the functional run saw a transient value
// the modelled order never produces) is released at the time of the word's last write and counted in
// RunProfile::forced_waits.
#pragma once

#include <cstdint>
#include <map>
#include <memory>

#include "scheduler.hpp"
#include "runtime_mock/profile.hpp"

namespace runtime_mock {

// Semaphore key (core L1 index << 32 | L1 offset of the word) -> value before the kernels started.
using SemaphoreInitialValues = std::map<int64_t, uint32_t>;

// NOC event nodes (ProfileEvent target/detail): a worker's L1 index, or kDramNode + bank.
constexpr int64_t kDramNode = int64_t(1) << 40;

inline int64_t semaphore_key(uint32_t l1_index, uint32_t offset) {
    return (int64_t(l1_index) << 32) | offset;
}

// Replays `run`'s recorded events (the run has finished without error). Throws std::logic_error if a
// compute call has no cost in the arch's data file.
std::shared_ptr<RunProfile> replay_timing(const RunState& run, const SemaphoreInitialValues& semaphores);

}  // namespace runtime_mock
