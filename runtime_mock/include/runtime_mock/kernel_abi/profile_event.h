// What a kernel thread records for the timing model while a profiled run executes.
//
// Recording is on when the runtime sets KernelContext::recording (a profiling session is active on the
// host thread, or RUNTIME_MOCK_PROFILE=1). Each API call then appends one compact ProfileEvent to its own
// thread's buffer through RuntimeFunctions::record (no locks); consecutive identical compute calls merge
// into one event with a tile count. After the run, the runtime replays every thread's events in modelled
// time (runtime_mock/src/timing_model.hpp); the functional result never depends on recording.
#pragma once

#include <cstdint>

#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock::kernel_abi {

enum class EventKind : uint8_t {
    Compute,        // name: API call; count: tiles; format: the input CB's DataFormat (kNoFormat if none)
    DstSync,        // name: tile_regs_* / acquire_dst / release_dst
    CbReserve,      // cb; target: cumulative pages popped the reservation needs (pushed + n - num_pages)
    CbPush,         // cb; target: cumulative pages pushed after the push
    CbWait,         // cb; target: cumulative pages pushed the wait needs (popped + n)
    CbPop,          // cb; target: cumulative pages popped after the pop
    NocRead,        // count: bytes; target: source node; detail: destination node (recorded by the runtime)
    NocWrite,       // as NocRead; with kSemaphoreWrite in `format`: sets the word at L1 `offset` to `value`
    NocMulticast,   // count: bytes; cb: destinations; detail: NOC rectangle (x0 | y0 << 8 | x1 << 16 | y1 << 24);
                    // format: kSemaphoreWrite, kLoopback, kLinked flags; offset, value: as NocWrite
    SemaphoreInc,   // target: destination core's L1 index; offset: the word's L1 offset; value: increment
    SemaphoreSet,   // offset: L1 offset of this core's word; value: the value set
    SemaphoreWait,  // offset: L1 offset of this core's word; value: value waited for; format: 1 for at-least
    NocBarrier,     // count: 1 reads, 2 writes, 3 both
    ZoneBegin,      // name: DeviceZoneScopedN's name
    ZoneEnd,
};

constexpr uint8_t kNoFormat = 255;
constexpr uint16_t kNoCb = 0xffff;
constexpr uint8_t kSemaphoreWrite = 1;  // NocWrite / NocMulticast flag in `format`: the write sets a semaphore
constexpr uint8_t kLoopback = 2;        // NocMulticast flag in `format`: the sender is a destination too
constexpr uint8_t kLinked = 4;          // NocMulticast flag in `format`: the SDK's `linked` (path kept)

struct ProfileEvent {
    EventKind kind;
    uint8_t format;
    uint16_t cb;
    uint32_t count;
    const char* name;
    int64_t target;
    uint64_t detail;
    uint32_t value;
    uint32_t offset;
};

// Appends an event to the calling thread's buffer when recording is on.
inline void record_event(KernelContext* c, const ProfileEvent& event) {
    if (c->recording)
        c->fn->record(c, event);
}

// A compute API call on `tiles` tiles reading circular buffer `cb` (kNoCb for DST-only SFPU calls).
inline void record_compute(const char* call, uint32_t tiles, uint32_t cb) {
    KernelContext* c = ctx();
    if (!c->recording)
        return;
    const uint8_t format = cb < c->core->num_circular_buffers ? uint8_t(c->core->cbs[cb].format) : kNoFormat;
    c->fn->record(c, ProfileEvent{EventKind::Compute, format, uint16_t(cb), tiles, call, 0, 0, 0, 0});
}

inline void record_cb(EventKind kind, uint32_t cb, int64_t target) {
    KernelContext* c = ctx();
    if (c->recording)
        c->fn->record(c, ProfileEvent{kind, kNoFormat, uint16_t(cb), 0, nullptr, target, 0, 0, 0});
}

}  // namespace runtime_mock::kernel_abi
