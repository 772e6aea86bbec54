// The contract between a JIT-compiled kernel and the simulated device (runtime_mock).
//
// A kernel shared object never links against the runtime. Its entry point
// `runtime_mock_kernel_entry(KernelContext*)` stores the context in a thread-local pointer and calls the
// kernel's main function; every API call then reaches the device through that context: state that only
// the calling core touches (circular-buffer pointers, DST, runtime args) is read and written inline,
// anything that must synchronise with other threads or validate an address goes through the
// RuntimeFunctions table. Runtime functions report misuse by throwing a C++ exception that unwinds the
// kernel back to the runtime, so kernels are built with exceptions enabled.
//
// This header is compiled both into kernels (C++17) and into the runtime; the runtime hashes both include
// roots (the shim's and this ABI's) into every kernel's cache key, so both sides always agree on the layout
// below.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace runtime_mock::kernel_abi {

// Where in the kernel source an API call was made. Every API function takes a defaulted CallSite as
// its last parameter; the defaults capture the caller's file and line.
struct CallSite {
    const char* file;
    int line;
    constexpr CallSite(const char* file_ = __builtin_FILE(), int line_ = __builtin_LINE()) : file(file_), line(line_) {}
};

// The error classes a kernel can provoke (mirrored by runtime_mock::DeviceError subclasses). Fault (a signal
// such as SIGSEGV in kernel code) is raised by the runtime, never through RuntimeFunctions::fail.
enum class ErrorKind : uint32_t { Deadlock, CircularBuffer, NocAccess, Dst, Argument, Protocol, Fault, Race };

enum class Role : uint32_t { DataMovement0, DataMovement1, Compute };

// Where the L1 of every device lives in the process: its low address space, below 4 GiB so that kernels can
// dereference uint32 L1 addresses (runtime_mock/src/low_address_space.hpp reserves from it; below 1 GiB are
// the heap of non-PIE executables and the MAP_32BIT area). A kernel's own access inside it must lie in its
// core's L1 (memory_check.h).
constexpr uint64_t kLowAddressSpaceBegin = uint64_t(1) << 30;
constexpr uint64_t kLowAddressSpaceEnd = uint64_t(1) << 32;

// Marks a function whose loads and stores memory_check.h does not check: the checker itself, and tile
// conversions whose per-element checks would multiply a tile's cost (they only touch CB pages the runtime
// handed out).
#define RUNTIME_MOCK_UNCHECKED __attribute__((no_sanitize_address))

// One circular-buffer index on one core. The producer thread owns the first group of fields after the
// configuration, the consumer thread the second; `pushed` and `popped` are the only fields both read.
// Pages are counted with free-running 32-bit counters: available = pushed - popped.
struct CircularBuffer {
    // Configuration, fixed for a run (L1 addresses are the uint32 values kernels dereference).
    uint32_t configured;
    uint32_t base;
    uint32_t limit;
    uint32_t num_pages;
    uint32_t page_size;
    uint32_t format;              // DataFormat value
    uint32_t globally_allocated;  // its pages are an L1 buffer's, which the host may have filled

    // Producer side: write pointer, pages reserved and not yet pushed, next sequential pack position.
    alignas(64) uint32_t wr_ptr;
    uint32_t reserved;
    uint32_t pack_index;
    std::atomic<uint32_t> pushed;
    std::atomic<uint32_t> producer_blocked;

    // Consumer side: read pointer, pages made visible by cb_wait_front and not yet popped.
    alignas(64) uint32_t rd_ptr;
    uint32_t waited;
    std::atomic<uint32_t> popped;
    std::atomic<uint32_t> consumer_blocked;
};

constexpr uint32_t kMaxCircularBuffers = 64;
constexpr uint32_t kMaxSemaphores = 16;
constexpr uint32_t kSemaphoreStride = 16;  // L1_ALIGNMENT
constexpr uint32_t kMaxRuntimeArgs = 341;
constexpr uint32_t kMulticastLoopback = 1;
constexpr uint32_t kMulticastLinked = 2;

// One Tensix core, shared by its three kernel threads.
struct Core {
    uint32_t logical_x, logical_y;
    uint8_t my_x[2], my_y[2];  // this core's NOC coordinates, indexed by NOC (the SDK's my_x/my_y)
    uint32_t grid_x, grid_y;   // the device's compute grid (the L1 banks of interleaved L1 buffers)
    uint32_t num_dram_banks;
    uint32_t dram_alignment;
    uint32_t l1_base;  // L1 address 0 of this core as a dereferenceable uint32 pointer value
    uint32_t l1_size;
    uint32_t semaphore_base;        // L1 address (pointer value) of semaphore 0
    uint32_t semaphore_mask;        // bit i set: semaphore i exists on this core
    uint32_t num_circular_buffers;  // the arch's CB count
    CircularBuffer cbs[kMaxCircularBuffers];
};

// Per-thread counters, summed per core by the runtime after a run.
struct Counters {
    uint64_t tiles_read, tiles_written, noc_bytes_read, noc_bytes_written, cb_waits;
};

// DST register file and the state of the compute engines of one compute thread.
enum class DstState : uint32_t { Free, Math, Committed, Pack, Legacy };

struct ComputeState {
    float* dst;             // dst_capacity tiles of 32x32 fp32, row-major within a tile
    uint32_t dst_capacity;  // tiles usable under the kernel's fp32_dest_acc_en / dst_full_sync_en
    DstState dst_state;
    uint32_t dst_written;    // bit i: DST tile i written since acquire (reduce MAX starts from its first input)
    uint32_t fp32_dest_acc;  // ComputeConfig::fp32_dest_acc_en
    uint32_t binary_acc_to_dest;
    uint32_t matmul_transpose;  // mm_init: transpose each B tile
    uint32_t unpack_transpose;  // copy_tile_to_dst_init_short: transpose tiles copied to DST
    uint32_t pack_l1_acc;       // pack_reconfig_l1_acc: packs add to the L1 page instead of overwriting it
};

struct KernelContext;
struct ProfileEvent;

// A kernel's own access outside its core's L1 window, noted by memory_check.h before it traps.
struct StrayAccess {
    uint64_t address;
    uint64_t size;
    uint32_t write;
    uintptr_t pc;  // the accessing instruction (0: none)
};

// Runtime services. Functions marked "throws" unwind the kernel with an exception on misuse or abort.
struct RuntimeFunctions {
    // Reports misuse of the API at `site` (throws).
    void (*fail)(KernelContext*, ErrorKind, const char* call, const char* message, CallSite site);
    // Reports misuse that silicon tolerates to stderr, once per call site and run.
    void (*warn)(KernelContext*, const char* call, const char* message, CallSite site);
    // Blocks until the CB has `pages` free (producer) or filled (consumer) pages (throws on deadlock/abort).
    void (*cb_block)(KernelContext*, uint32_t cb, uint32_t pages, bool producer, const char* call, CallSite site);
    // Wakes the consumer (wake_producer=false) or producer thread blocked on the CB.
    void (*cb_wake)(KernelContext*, uint32_t cb, bool wake_producer);
    // Throws if an unfinished NOC read lands in (reads=true), or write reads from, [addr, addr+size).
    void (*check_pending)(KernelContext*, uint32_t addr, uint32_t size, bool reads, const char* call, CallSite site);
    void (*noc_read)(KernelContext*, uint64_t src_noc_addr, uint32_t dst_l1_addr, uint32_t size, CallSite site);
    void (*noc_write)(KernelContext*, uint32_t src_l1_addr, uint64_t dst_noc_addr, uint32_t size, CallSite site);
    // `flags`: kMulticastLoopback (the sender is a destination too), kMulticastLinked (the SDK's `linked`: the
    // next multicast keeps the path).
    void (*noc_write_multicast)(KernelContext*, uint32_t src_l1_addr, uint64_t dst_noc_multicast_addr, uint32_t size,
                                uint32_t num_dests, uint32_t flags, const char* call, CallSite site);
    void (*noc_barrier)(KernelContext*, bool reads, bool writes);
    void (*semaphore_wait)(KernelContext*, volatile uint32_t* addr, uint32_t value, bool at_least, CallSite site);
    void (*semaphore_set)(KernelContext*, volatile uint32_t* addr, uint32_t value, CallSite site);
    void (*semaphore_inc)(KernelContext*, uint64_t noc_addr, uint32_t increment, CallSite site);
    // Validates page `page` of an interleaved buffer addressed from bank address `base` with pages
    // `aligned_page_size` bytes apart (InterleavedAddrGen*, TensorAccessor): `base` must lie in a buffer
    // with that page spacing (its start, or rows into it for a view), and the page must exist (throws).
    void (*check_page)(KernelContext*, bool is_dram, uint64_t base, uint32_t page, uint32_t aligned_page_size,
                       const char* call, CallSite site);
    // Validates that [addr, addr+size) lies in this core's L1 (throws).
    void (*check_l1)(KernelContext*, uint32_t addr, uint32_t size, const char* call, CallSite site);
    void (*print)(KernelContext*, const char* text, size_t length);
    // Appends an event to this thread's timing record (only called while `recording`; profile_event.h).
    void (*record)(KernelContext*, const ProfileEvent& event);
    // C += A * B on 32x32 fp32 tiles, row-major (the matrix engine; runtime_mock/src/tile_matmul.hpp).
    void (*tile_matmul)(float* __restrict c, const float* __restrict a, const float* __restrict b);
    // For r < rows, j < cols: DST tile c + (r * cols + j) * 1024 += A[r] * B[j] (transpose_b: A[r] * B[j]^T),
    // a[r] and b[j] pointing at Float16_b tiles in L1 tile layout (the matrix engine on bf16 operands as they
    // sit in L1; runtime_mock/src/tile_matmul.hpp).
    void (*tile_matmul_bf16)(float* c, const uint16_t* const* a, uint32_t rows, const uint16_t* const* b, uint32_t cols,
                             uint32_t transpose_b);
    // Race detection (only called while KernelContext::race_detection is set): an access of [addr, addr + size)
    // of this core's L1 by the kernel's own instruction `pc`, or by API call `call` at `site` when pc is 0;
    // and an inline API operation that orders kernels (SyncEdge) on `id`, a CB index or a semaphore's L1
    // address (runtime_mock/src/race_detector.hpp).
    void (*race_access)(KernelContext*, uint32_t addr, uint32_t size, uint32_t write, uintptr_t pc, const char* call,
                        CallSite site);
    void (*race_sync)(KernelContext*, uint32_t edge, uint32_t id);
};

// The inline API operations that order kernels: a CB push releases the pages it fills and a wait acquires
// them; a pop releases the pages it frees and a reserve acquires them; a satisfied noc_semaphore_wait
// acquires what the word's writers released (the runtime releases at each semaphore write).
enum class SyncEdge : uint32_t { CbPush, CbWait, CbPop, CbReserve, SemaphoreWait };

// DPRINT's state for one kernel (dprint.h): the line being formatted and the manipulators in force. It lives
// in the kernel's context, not in a thread-local, because kernels of many cores share a thread.
struct PrintState {
    std::string line;
    int width = 0;
    int precision = 6;
    bool fixed = false;
    char base = 'd';
};

struct KernelContext {
    // kKernelAbiLayout as the runtime was built (first, and `fn` second, so a kernel built against other
    // headers can still read both and say so: kernel_resume.h).
    uint64_t abi_layout;
    const RuntimeFunctions* fn;
    void* thread;  // the runtime's record of this kernel thread
    Core* core;
    Role role;
    uint32_t noc_index;
    const uint32_t* args;  // unique runtime args, in L1
    uint32_t num_args;
    const uint32_t* common_args;  // common runtime args, in L1
    uint32_t num_common_args;
    uint32_t pending_reads;          // NOC reads issued since the last read barrier
    uint32_t pending_writes;         // NOC writes issued since the last write barrier
    std::atomic<uint64_t> progress;  // bumped by every API call; the watchdog looks for stalls
    Counters counters;
    ComputeState compute;
    uint32_t recording;  // nonzero: API calls record timing events (profile_event.h)
    // Nonzero: the device's L1 started as the poison fill (RUNTIME_MOCK_L1_FILL=poison), so reading a tile or
    // page that still holds all of it is reported (l1_fill.h).
    uint32_t poisoned_l1;
    // Nonzero: RUNTIME_MOCK_RACE_DETECTION=1; L1 accesses and CB edges are reported to the runtime.
    uint32_t race_detection;
    PrintState print;
    // The last exception the kernel's own code threw, and the address inside its `throw` (kernel_resume.h),
    // so an exception that ends the kernel is reported with the kernel's line.
    const void* thrown_object;
    uintptr_t throw_pc;
    StrayAccess stray_access;
    // While a memory check reports an access to the race detector: the accessing instruction, so that a
    // kernel the watchdog interrupts inside the runtime is still located at its own line (memory_check.h).
    uintptr_t checking_pc;
};

// The sizes of the structures kernels and the runtime share, as one number: a kernel and a runtime built
// from different versions of this header disagree on it (the kernel's build cache key covers the headers,
// not the runtime that loads the kernel).
constexpr uint64_t kKernelAbiLayout = (uint64_t(sizeof(KernelContext)) << 48) ^ (uint64_t(sizeof(Core)) << 32) ^
                                      (uint64_t(sizeof(RuntimeFunctions)) << 16) ^ sizeof(CircularBuffer) ^
                                      (uint64_t(sizeof(ComputeState)) << 8) ^ (uint64_t(sizeof(PrintState)) << 24) ^
                                      (uint64_t(sizeof(StrayAccess)) << 40);

// The context of the kernel running on the calling thread (kernels are fibers that share threads: the
// runtime sets it again whenever a fiber of this kernel resumes, kernel_resume.h).
inline thread_local KernelContext* current_context = nullptr;

inline KernelContext* ctx() {
    return current_context;
}

inline void note_progress(KernelContext* c) {
    c->progress.store(c->progress.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

[[noreturn]] inline void fail(ErrorKind kind, const char* call, const char* message, CallSite site) {
    KernelContext* c = ctx();
    c->fn->fail(c, kind, call, message, site);
    __builtin_unreachable();
}

}  // namespace runtime_mock::kernel_abi

// The symbols the runtime looks up in every kernel shared object: the entry point, and the hook that
// points `current_context` back at the kernel when its fiber resumes (kernel_resume.h).
extern "C" void runtime_mock_kernel_entry(runtime_mock::kernel_abi::KernelContext* context);
extern "C" void runtime_mock_kernel_resume(runtime_mock::kernel_abi::KernelContext* context);
