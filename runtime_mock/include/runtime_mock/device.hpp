// The simulated Tenstorrent device: DRAM banks, a grid of Tensix cores with their L1, and the ability
// to run a ProgramSpec on them.
//
// Model: DRAM is `dram_banks` separate byte arrays; an interleaved buffer of page size P places page i
// in bank i % banks at offset address + (i / banks) * align(P, dram_alignment), like the SDK. Every
// Tensix core owns an L1 of the arch's size, mapped below 4 GiB so kernels may turn its uint32
// addresses into pointers. run() JIT-compiles every kernel (cached), lays out CBs and semaphores in
// each used core's L1, starts one thread per (core, role), and returns when all have finished, or
// throws DeviceError (deadlock, protocol misuse, bad access, kernel build failure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime_mock/arch.hpp"
#include "runtime_mock/profile.hpp"
#include "runtime_mock/program_spec.hpp"

namespace runtime_mock {

// Every failure the device reports: what went wrong, and where (core, role, kernel file:line).
class DeviceError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Every live kernel thread is blocked, or no kernel made progress for the watchdog period.
class DeadlockError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// CB protocol misuse: overflow, underflow, unconfigured index, push with a pending read.
class CircularBufferError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// Out-of-bounds, misaligned or undecodable NOC/DRAM/L1 access, wrong multicast destination count.
class NocAccessError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// DST misuse: index over capacity, math or pack outside the acquire/commit/wait/release protocol.
class DstError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// Runtime-arg index out of range, unknown semaphore id, invalid program description.
class ArgumentError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// A kernel crashed: a signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) in its code, a stack overflow, or
// a raw access past its core's L1. The message names the signal (and faulting address), core, RISC,
// kernel file and, where the kernel has line tables, the source line. The run is aborted; the process
// and other devices stay usable.
// Two kernels accessed the same L1 bytes, at least one writing, with nothing ordering them
// (RUNTIME_MOCK_RACE_DETECTION=1).
class DataRaceError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

class KernelFaultError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// A kernel failed to compile or load; the message carries the compiler's diagnostics.
class KernelBuildError : public DeviceError {
public:
    using DeviceError::DeviceError;
};

// Where an interleaved buffer lives.
enum class BufferKind { Dram, L1 };

// Counters of one core's last run, for tools and tests.
struct CoreCounters {
    LogicalCore core;
    uint64_t tiles_read = 0;     // pages moved into this core by noc_async_read*
    uint64_t tiles_written = 0;  // pages moved out of this core by noc_async_write*
    uint64_t noc_bytes_read = 0;
    uint64_t noc_bytes_written = 0;
    uint64_t cb_waits = 0;  // cb_wait_front / cb_reserve_back calls that had to block
};

class Device {
public:
    explicit Device(Arch arch = default_arch());
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    const ArchSpec& spec() const;

    // DRAM: allocation of interleaved buffers; returns the bank address (the same in every bank).
    uint64_t allocate_dram(uint64_t size_bytes, uint32_t page_size);
    void write_interleaved(uint64_t address, uint32_t page_size, const void* data, size_t size_bytes);
    void read_interleaved(uint64_t address, uint32_t page_size, void* data, size_t size_bytes) const;

    // L1 buffers (BufferType::L1): interleaved over the worker cores' L1 like DRAM over banks (bank i is
    // the worker at logical (i % grid_x, i / grid_x)); allocated from the top of L1 down. The address
    // returned is the bank address as a pointer value into the L1 of core (0,0), the core of bank 0: on
    // hardware an L1 address is an offset valid on every core, and kernels dereference it
    // (`(uint32_t*)l1_buffer->address()`) on the core holding the page. The NOC, InterleavedAddrGen and
    // TensorAccessor take its offset within that L1, so it designates the same offset on every core;
    // only a direct dereference on a core other than (0,0) would read core (0,0)'s L1.
    uint64_t allocate_l1(uint64_t size_bytes, uint32_t page_size);

    // Sharded L1 buffers (the SDK's HEIGHT/WIDTH/BLOCK_SHARDED L1 buffers): `pages_per_core` pages of
    // page_size bytes, each padded to the L1 alignment, at one L1 address reserved on every worker core (as
    // the SDK's L1 allocator reserves a bank range on all of them); the address is a pointer value into the
    // L1 of core (0,0), as allocate_l1's. Which core holds which page is the host's shard layout, given per
    // transfer: `placement[i]` is where page i of the buffer lives (ShardPage). The transfers copy the first
    // size_bytes bytes; they throw NocAccessError naming the buffer unless one starts at `address` with
    // pages of page_size bytes, every placement is a core of the grid and a page below pages_per_core, and
    // the placement covers size_bytes.
    struct ShardPage {
        LogicalCore core;
        uint32_t page;  // index in that core's shard
    };
    uint64_t allocate_l1_sharded(uint32_t pages_per_core, uint32_t page_size);
    void write_sharded(uint64_t address, uint32_t page_size, const std::vector<ShardPage>& placement, const void* data,
                       size_t size_bytes);
    void read_sharded(uint64_t address, uint32_t page_size, const std::vector<ShardPage>& placement, void* data,
                      size_t size_bytes) const;

    // Reads and writes of the first size_bytes bytes of either kind of interleaved buffer; throws
    // NocAccessError naming the buffer unless one starts at `address`, has pages of page_size bytes and
    // holds at least size_bytes bytes.
    void write_interleaved(BufferKind kind, uint64_t address, uint32_t page_size, const void* data, size_t size_bytes);
    void read_interleaved(BufferKind kind, uint64_t address, uint32_t page_size, void* data, size_t size_bytes) const;

    // Frees a buffer returned by allocate_dram / allocate_l1.
    void deallocate(BufferKind kind, uint64_t address);

    // NOC coordinates of a worker core (logical (x, y) -> (x + 1, y + 1)) and of a DRAM bank (b -> (0, b)):
    // what get_noc_addr / get_noc_multicast_addr expect (the SDK's worker_core_from_logical_core).
    LogicalCore worker_noc_coord(LogicalCore logical) const;
    LogicalCore dram_bank_noc_coord(uint32_t bank) const;

    void run(const ProgramSpec& program);
    std::vector<CoreCounters> last_run_counters() const;
    // The timing model's result for the last run, if it was profiled (profile.hpp); null otherwise.
    std::shared_ptr<const RunProfile> last_run_profile() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Builds (or finds in the kernel cache) every kernel of `program` as a device of `arch` would build it
// for a run, so that a later run starts without compiling: a caller overlaps it with other work (the
// compiler builds a program's kernels while the host program compiles). Throws KernelBuildError.
void build_program_kernels(const ProgramSpec& program, Arch arch);

// Returns once the L1 and DRAM of every destroyed device are zeroed. A background thread zeroes them while
// the caller goes on (see src/scrubber.hpp); a benchmark waits here so that the zeroing does not slow down
// whatever it times next.
void wait_for_scrubber();

}  // namespace runtime_mock
