// The timing model's output for one Device::run, and the profiling sessions that collect it.
//
// While a ProfilingSession is alive on a thread (or RUNTIME_MOCK_PROFILE=1), every Device::run on that
// thread records what its kernels do and, once the functional run has finished, replays the record in
// modelled time (timing_model.hpp). The resulting RunProfile is appended to every session open on the
// thread and kept as the device's last_run_profile(). Cycles are the device clock's (ArchSpec timing).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime_mock/program_spec.hpp"

namespace runtime_mock {

// One RISC of one core: BRISC (DataMovement0), NCRISC (DataMovement1) or TRISC (compute, the three
// TRISCs as one track).
struct RiscProfile {
    bool present = false;      // a kernel ran on it
    uint64_t busy_cycles = 0;  // computing, issuing NOC requests, API overheads
    uint64_t end_cycle = 0;    // when its kernel returned
    // Cycles spent waiting, by cause: "cb_wait_front cb 0", "cb_reserve_back cb 16",
    // "noc_async_read_barrier", "noc_async_write_barrier", "semaphore".
    std::map<std::string, uint64_t> waits;
};

struct CoreProfile {
    LogicalCore core;
    RiscProfile riscs[3];  // indexed by KernelRole
};

// Trace tracks of a core: its three RISCs, its two NOC ports, and one zone track per RISC.
// TriscPack: the packer of a compute core, which packs one DST half while the math engine fills the other.
enum class TraceTrack : uint8_t { Brisc, Ncrisc, Trisc, Noc0, Noc1, ZonesBrisc, ZonesNcrisc, ZonesTrisc, TriscPack };
constexpr uint32_t kTraceTracks = 9;

enum class SpanCategory : uint8_t { Compute, CbWait, NocTransfer, NocBarrier, Semaphore, Zone, Api };

// A slice [start, start + duration) of one track; `name` indexes RunProfile::names.
struct TraceSpan {
    uint64_t start;
    uint64_t duration;
    uint32_t name;
    uint32_t core;  // index into RunProfile::cores
    TraceTrack track;
    SpanCategory category;
};

// An arrow from the slice that released a wait (a CB push, a semaphore write) to the wait.
struct TraceFlow {
    uint64_t from_cycle;
    uint32_t from_core;
    TraceTrack from_track;
    uint64_t to_cycle;
    uint32_t to_core;
    TraceTrack to_track;
};

struct RunProfile {
    std::string arch;
    double clock_ghz = 1.0;
    uint64_t cycles = 0;  // the last RISC's end
    std::vector<CoreProfile> cores;
    uint64_t matmul_tiles = 0;
    uint64_t dram_bytes_read = 0, dram_bytes_written = 0;
    uint64_t noc_bytes = 0;     // every byte any NOC transfer moved (a multicast counts once per destination)
    uint64_t forced_waits = 0;  // waits the replay could not satisfy in modelled time and released (see timing_model)
    std::vector<std::string> names;
    std::vector<TraceSpan> spans;
    std::vector<TraceFlow> flows;
};

// From construction until close() (or destruction), runs on the constructing thread are profiled and
// collected in `runs`. Sessions nest; each collects every run made while it is open. Close on the thread
// that created it.
class ProfilingSession {
public:
    ProfilingSession();
    ~ProfilingSession();
    ProfilingSession(const ProfilingSession&) = delete;
    ProfilingSession& operator=(const ProfilingSession&) = delete;

    void close();
    const std::vector<std::shared_ptr<const RunProfile>>& runs() const { return runs_; }

    // Whether runs on this thread record timing (a session is open here or RUNTIME_MOCK_PROFILE=1).
    static bool recording_on_this_thread();
    // Hands a finished run's profile to every session open on this thread.
    static void deliver(const std::shared_ptr<const RunProfile>& profile);

private:
    std::vector<std::shared_ptr<const RunProfile>> runs_;
};

}  // namespace runtime_mock
