// Happens-before race detection over L1 (RUNTIME_MOCK_RACE_DETECTION=1).
//
// Model. Every kernel thread of a run has a vector clock (one entry per thread). The operations that order
// kernels on silicon are the edges: a CB push releases into the CB's "filled" clock and a wait acquires it; a
// pop releases into its "freed" clock and a reserve acquires it; a semaphore write (noc_semaphore_set, _inc,
// a 4-byte NOC write to a semaphore word: _set_remote, _set_multicast) releases into the word's clock and
// noc_semaphore_wait acquires it; the program's start orders everything the host did before every kernel,
// and its end everything the kernels did before the host (each run starts with a fresh detector). A release
// joins the releaser's clock into the object's and advances the releaser's own entry; an acquire joins the
// object's clock into the acquirer's. Joining every release of an object, not only the one a wait was
// satisfied by, can order more than silicon does: races may be missed, never invented.
//
// Accesses. L1 is shadowed in 16-byte granules (the NOC's alignment and the semaphores' spacing): each
// remembers its last write and its last read as an epoch (thread, that thread's clock) with the call site.
// Recorded accesses: the kernels' own loads and stores (kernel_abi/memory_check.h), NOC transfers (the
// local range a read fills or a write sends, and the remote L1 range, at issue: the issuing thread is the
// accessor), the CB pages compute kernels unpack and pack, and semaphore writes. An access races with an
// earlier one by another thread when one of the two writes and the earlier one's epoch is not ordered
// before the accessor's clock; semaphore writes race with plain accesses only (two synchronising writes
// never race, as atomics do not). The first race is reported once, naming both kernels, cores and source
// lines, and aborts the run (a DataRaceError), without unwinding the kernel that found it: the check runs
// inside any kernel code, `noexcept` functions included.
//
// Never-written CB bytes. A read of a range of a CB (outside any L1 buffer) in which no granule was written in
// this run reads what an earlier program left there, or the fresh L1's zeros, where silicon gives garbage:
// it is reported too (a DeviceError at the end of the run, unless the run found a race), at the reading line. A range
// written in part passes (a vector in one column of a tile leaves the rest as it was, and a kernel may read the whole
// tile).
//
// What it misses: a read followed by a concurrent read keeps the first (a write racing only with the second
// is missed), DRAM, and L1 a runtime path does not record (DPRINT, the profiler).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime_mock/kernel_abi/kernel_context.h"

namespace runtime_mock {

struct RunState;
struct KernelThread;

class RaceDetector {
public:
    // `run`'s threads, indexed by KernelThread::index, and its L1 pool (shadowed lazily, core by core).
    explicit RaceDetector(RunState& run);
    ~RaceDetector();
    RaceDetector(const RaceDetector&) = delete;
    RaceDetector& operator=(const RaceDetector&) = delete;

    // The kinds of synchronisation objects a release or an acquire names.
    enum class Sync : uint32_t { CbFilled, CbFreed, Semaphore };

    // The thread joins its clock into the object's (`core` is an L1 slot; `id` a CB index or an L1 offset).
    void release(KernelThread& thread, Sync sync, uint32_t core, uint32_t id);
    // The thread joins the object's clock into its own.
    void acquire(KernelThread& thread, Sync sync, uint32_t core, uint32_t id);

    // Where an access was made: an instruction of the thread's kernel (`pc`), or an API call (`call` at `site`).
    struct Site {
        uintptr_t pc = 0;
        const char* call = nullptr;
        kernel_abi::CallSite site{"", 0};
    };
    // Records an access of [offset, offset + size) of L1 slot `core` by `thread`; `sync`: a semaphore write.
    // On the run's first race, aborts the run with a DataRaceError naming both accesses; the first read of
    // never-written CB bytes is noted for finish().
    void access(KernelThread& thread, uint32_t core, uint32_t offset, uint32_t size, bool write, bool sync,
                const Site& site);
    // After a run that ended without an error: throws DeviceError for its first read of never-written CB
    // bytes (noted, not raised at once, so that a race the read is part of is reported as the race).
    void finish() const;

private:
    struct Granule;
    struct Clock;
    struct CoreShadow;

    uint64_t intern(const Site& site);
    CoreShadow& shadow(uint32_t core);
    Clock& clock_of(Sync sync, uint32_t core, uint32_t id);
    std::string describe_access(uint64_t epoch, uint64_t site) const;
    std::string describe_range(uint32_t core, uint32_t offset) const;
    void report(KernelThread& thread, uint32_t core, uint32_t offset, const Granule& earlier, bool earlier_write,
                bool write, const Site& site);
    // Whether [offset, offset + size) of L1 slot `core` lies in one of its CBs, outside any L1 buffer.
    bool in_circular_buffer(uint32_t core, uint32_t offset, uint32_t size) const;
    void report_unwritten(KernelThread& thread, uint32_t core, uint32_t offset, uint32_t size, const Site& site);

    RunState& run_;
    uint32_t granules_per_core_;
    std::mutex shadows_mutex_;
    std::vector<std::unique_ptr<CoreShadow>> shadows_;  // by L1 slot, made on first access
    std::mutex clocks_mutex_;
    std::unordered_map<uint64_t, std::unique_ptr<Clock>> clocks_;
    mutable std::mutex sites_mutex_;
    std::vector<Site> sites_;
    std::unordered_map<std::string, uint64_t> site_index_;
    std::once_flag reported_;
    std::once_flag unwritten_noted_;
    mutable std::mutex unwritten_mutex_;
    std::string unwritten_read_;
};

// The RuntimeFunctions entries kernels call under race detection (kernel_context.h): an access of the
// calling kernel's own core's L1, and an inline API operation that orders kernels (kernel_abi::SyncEdge).
void race_access(kernel_abi::KernelContext* ctx, uint32_t addr, uint32_t size, uint32_t write, uintptr_t pc,
                 const char* call, kernel_abi::CallSite site);
void race_sync(kernel_abi::KernelContext* ctx, uint32_t edge, uint32_t id);

}  // namespace runtime_mock
