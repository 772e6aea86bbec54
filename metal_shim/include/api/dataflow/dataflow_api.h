// The SDK's device-side data-movement API (api/dataflow/dataflow_api.h) on the simulated device.
//
// Runtime args, circular buffers, NOC reads/writes (synchronous copies whose completion is still
// tracked: a CB page may not be pushed while a read into it is pending, nor popped while a write from it
// is pending, until the matching barrier), interleaved address generators (each page id is checked
// against the page count of the buffer the generator addresses), multicast and semaphores. Every call
// records its call site, which device errors report.
#pragma once

#include <cstdint>

#include "api/compile_time_args.h"
#include "api/debug/dprint.h"
#include "hostdevcommon/common_values.hpp"
#include "hostdevcommon/kernel_structs.h"
#include "tools/profiler/kernel_profiler.hpp"
#include "runtime_mock/kernel_abi/circular_buffer.h"
#include "runtime_mock/kernel_abi/data_format.h"
#include "runtime_mock/kernel_abi/kernel_args.h"
#include "runtime_mock/kernel_abi/noc.h"

#define FORCE_INLINE inline __attribute__((always_inline))
#define tt_l1_ptr

constexpr uint32_t NOC_MAX_BURST_SIZE = 8192;
constexpr uint32_t NOC_UNICAST_WRITE_VC = 1;
constexpr uint32_t NOC_MULTICAST_WRITE_VC = 4;
constexpr uint32_t L1_ALIGNMENT = runtime_mock::kernel_abi::kL1Alignment;

// The NOC this kernel uses and this core's NOC coordinates (SDK globals).
enum class ProgrammableCoreType { TENSIX, ACTIVE_ETH, IDLE_ETH, COUNT };

#define noc_index (uint8_t(runtime_mock::kernel_abi::ctx()->noc_index))
#define my_x (runtime_mock::kernel_abi::ctx()->core->my_x)
#define my_y (runtime_mock::kernel_abi::ctx()->core->my_y)

// ---- circular buffers --------------------------------------------------------------------------------

FORCE_INLINE void cb_reserve_back(int32_t operand, int32_t num_pages, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_reserve(uint32_t(operand), uint32_t(num_pages), site);
}

FORCE_INLINE void cb_push_back(int32_t operand, int32_t num_pages, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_push(uint32_t(operand), uint32_t(num_pages), site);
}

FORCE_INLINE void cb_wait_front(int32_t operand, int32_t num_pages, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_wait(uint32_t(operand), uint32_t(num_pages), site);
}

FORCE_INLINE void cb_pop_front(int32_t operand, int32_t num_pages, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::cb_pop(uint32_t(operand), uint32_t(num_pages), site);
}

FORCE_INLINE bool cb_pages_reservable_at_back(int32_t operand, int32_t num_pages,
                                              runtime_mock::kernel_abi::CallSite site = {}) {
    return runtime_mock::kernel_abi::cb_reservable(uint32_t(operand), uint32_t(num_pages), site);
}

FORCE_INLINE bool cb_pages_available_at_front(int32_t operand, int32_t num_pages,
                                              runtime_mock::kernel_abi::CallSite site = {}) {
    return runtime_mock::kernel_abi::cb_available(uint32_t(operand), uint32_t(num_pages), site);
}

FORCE_INLINE uint32_t get_write_ptr(uint32_t operand, runtime_mock::kernel_abi::CallSite site = {}) {
    return runtime_mock::kernel_abi::circular_buffer(operand, "get_write_ptr", site).wr_ptr;
}

FORCE_INLINE uint32_t get_read_ptr(uint32_t operand, runtime_mock::kernel_abi::CallSite site = {}) {
    return runtime_mock::kernel_abi::circular_buffer(operand, "get_read_ptr", site).rd_ptr;
}

// Tile size and format of a CB index are compile-time constants, as in the SDK: the runtime builds each
// kernel with -DRUNTIME_MOCK_CB_FORMATS=<DataFormat of index 0>,<of index 1>,... (255 where the kernel's cores
// have no CB, or CBs of different formats, at that index: then the value is looked up at run time).
#ifndef RUNTIME_MOCK_CB_FORMATS
#define RUNTIME_MOCK_CB_FORMATS 255
#endif

namespace runtime_mock::kernel_abi {

constexpr uint8_t compiled_cb_formats[] = {RUNTIME_MOCK_CB_FORMATS};

constexpr DataFormat cb_format(int32_t operand, const char* call, CallSite site) {
    const uint32_t index = uint32_t(operand);
    if (index < sizeof(compiled_cb_formats) && compiled_cb_formats[index] != 255) {
        return DataFormat(compiled_cb_formats[index]);
    }
    return DataFormat(circular_buffer(index, call, site).format);
}

}  // namespace runtime_mock::kernel_abi

constexpr int32_t get_tile_size(int32_t operand, runtime_mock::kernel_abi::CallSite site = {}) {
    return int32_t(
        runtime_mock::kernel_abi::tile_size_bytes(runtime_mock::kernel_abi::cb_format(operand, "get_tile_size", site)));
}

constexpr DataFormat get_dataformat(int32_t operand, runtime_mock::kernel_abi::CallSite site = {}) {
    return runtime_mock::kernel_abi::cb_format(operand, "get_dataformat", site);
}

inline uint32_t get_tile_hw(int32_t operand, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(uint32_t(operand), "get_tile_hw", site);
    return runtime_mock::kernel_abi::kTileElements;
}

inline uint32_t get_tile_num_faces(int32_t operand, runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::circular_buffer(uint32_t(operand), "get_tile_num_faces", site);
    return 4;
}

// ---- NOC addresses -----------------------------------------------------------------------------------

FORCE_INLINE uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc = noc_index) {
    (void)noc;
    return runtime_mock::kernel_abi::noc_unicast_addr(noc_x, noc_y, addr);
}

FORCE_INLINE uint64_t get_noc_addr(uint32_t addr, uint8_t noc = noc_index) {
    return get_noc_addr(my_x[0], my_y[0], addr, noc);
}

FORCE_INLINE uint64_t get_noc_multicast_addr(uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end,
                                             uint32_t noc_y_end, uint32_t addr, uint8_t noc = noc_index) {
    (void)noc;
    return runtime_mock::kernel_abi::noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr);
}

template <bool DRAM>
FORCE_INLINE uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t bank_address_offset,
                                                uint8_t noc = noc_index) {
    (void)noc;
    const runtime_mock::kernel_abi::Core* core = runtime_mock::kernel_abi::ctx()->core;
    if (DRAM) {
        return runtime_mock::kernel_abi::noc_unicast_addr(runtime_mock::kernel_abi::dram_bank_noc_x(bank_id),
                                                          runtime_mock::kernel_abi::dram_bank_noc_y(bank_id),
                                                          bank_address_offset);
    }
    return runtime_mock::kernel_abi::noc_unicast_addr(runtime_mock::kernel_abi::worker_noc_x(bank_id % core->grid_x),
                                                      runtime_mock::kernel_abi::worker_noc_y(bank_id / core->grid_x),
                                                      bank_address_offset);
}

namespace runtime_mock::kernel_abi {

inline uint32_t allocator_alignment(bool is_dram) {
    return is_dram ? ctx()->core->dram_alignment : kL1Alignment;
}

// The NOC address of page `id` of the interleaved buffer at `base` whose pages are aligned_page_size
// bytes apart, once the runtime has checked that the buffer holding `base` has that page.
inline uint64_t interleaved_addr(bool is_dram, uint32_t id, uint64_t base, uint32_t aligned_page_size, uint32_t offset,
                                 const char* call, CallSite site) {
    KernelContext* c = ctx();
    c->fn->check_page(c, is_dram, base, id, aligned_page_size, call, site);
    const Core* core = c->core;
    return interleaved_page_noc_addr(is_dram, id, base, aligned_page_size, offset, core->num_dram_banks, core->grid_x,
                                     core->grid_y);
}

// The same for pages of page_size bytes, each padded to the bank alignment.
inline uint64_t interleaved_page_addr(bool is_dram, uint32_t id, uint64_t base, uint32_t page_size, uint32_t offset,
                                      const char* call, CallSite site) {
    return interleaved_addr(is_dram, id, base, align_up(page_size, allocator_alignment(is_dram)), offset, call, site);
}

}  // namespace runtime_mock::kernel_abi

inline uint64_t get_dram_noc_addr(const uint32_t id, const uint32_t page_size, const uint32_t bank_base_address,
                                  const uint32_t offset = 0, uint8_t noc = noc_index,
                                  runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    return runtime_mock::kernel_abi::interleaved_page_addr(true, id, bank_base_address, page_size, offset,
                                                           "get_dram_noc_addr", site);
}

// ---- interleaved address generators --------------------------------------------------------------------

template <bool DRAM>
struct InterleavedAddrGen {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t page_size;
    const uint32_t aligned_page_size =
        runtime_mock::kernel_abi::align_up(page_size, runtime_mock::kernel_abi::allocator_alignment(DRAM));

    uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index,
                          runtime_mock::kernel_abi::CallSite site = {}) const {
        (void)noc;
        return runtime_mock::kernel_abi::interleaved_addr(DRAM, id, bank_base_address, aligned_page_size, offset,
                                                          "InterleavedAddrGen::get_noc_addr", site);
    }
};

template <bool DRAM, uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    uint32_t page_size;
    DataFormat data_format;

    uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index,
                          runtime_mock::kernel_abi::CallSite site = {}) const {
        (void)noc;
        const uint32_t size = runtime_mock::kernel_abi::tile_size_bytes(data_format) * tile_hw / 1024;
        return runtime_mock::kernel_abi::interleaved_page_addr(DRAM, id, bank_base_address, size, offset,
                                                               "InterleavedAddrGenFast::get_noc_addr", site);
    }
};

template <bool DRAM>
struct InterleavedPow2AddrGen {
    static constexpr bool is_dram = DRAM;
    const uint32_t bank_base_address;
    const uint32_t log_base_2_of_page_size;

    uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index,
                          runtime_mock::kernel_abi::CallSite site = {}) const {
        (void)noc;
        return runtime_mock::kernel_abi::interleaved_page_addr(DRAM, id, bank_base_address,
                                                               1u << log_base_2_of_page_size, offset,
                                                               "InterleavedPow2AddrGen::get_noc_addr", site);
    }
};

template <bool DRAM>
struct InterleavedPow2AddrGenFast {
    static constexpr bool is_dram = DRAM;
    uint32_t bank_base_address;
    const uint32_t log_base_2_of_page_size;

    uint64_t get_noc_addr(const uint32_t id, const uint32_t offset = 0, uint8_t noc = noc_index,
                          runtime_mock::kernel_abi::CallSite site = {}) const {
        (void)noc;
        return runtime_mock::kernel_abi::interleaved_page_addr(DRAM, id, bank_base_address,
                                                               1u << log_base_2_of_page_size, offset,
                                                               "InterleavedPow2AddrGenFast::get_noc_addr", site);
    }
};

template <typename AddrGen>
FORCE_INLINE uint64_t get_noc_addr(const uint32_t id, const AddrGen& addrgen, uint32_t offset = 0,
                                   uint8_t noc = noc_index, decltype(addrgen.get_noc_addr(0))* = nullptr,
                                   runtime_mock::kernel_abi::CallSite site = {}) {
    return addrgen.get_noc_addr(id, offset, noc, site);
}

#include "api/tensor/tensor_accessor_impl.h"

// ---- reads, writes, barriers ---------------------------------------------------------------------------

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true>
inline void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size, uint8_t noc = noc_index,
                           uint32_t read_req_vc = NOC_UNICAST_WRITE_VC, runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    (void)read_req_vc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_read(c, src_noc_addr, dst_local_l1_addr, size, site);
}

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, bool posted = false>
inline void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size, uint8_t noc = noc_index,
                            uint32_t vc = NOC_UNICAST_WRITE_VC, runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    (void)vc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_write(c, src_local_l1_addr, dst_noc_addr, size, site);
}

template <typename AddrGen, bool enable_noc_tracing = true>
FORCE_INLINE void noc_async_read_page(const uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index,
                                      runtime_mock::kernel_abi::CallSite site = {}) {
    noc_async_read(addrgen.get_noc_addr(id, offset, noc, site), dst_local_l1_addr, addrgen.page_size, noc,
                   NOC_UNICAST_WRITE_VC, site);
}

template <typename AddrGen, bool enable_noc_tracing = true, bool posted = false>
FORCE_INLINE void noc_async_write_page(const uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr,
                                       uint32_t size = 0, uint32_t offset = 0, uint8_t noc = noc_index,
                                       runtime_mock::kernel_abi::CallSite site = {}) {
    noc_async_write(src_local_l1_addr, addrgen.get_noc_addr(id, offset, noc, site), size ? size : addrgen.page_size,
                    noc, NOC_UNICAST_WRITE_VC, site);
}

template <typename AddrGen>
FORCE_INLINE void noc_async_read_tile(const uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr,
                                      uint32_t offset = 0, uint8_t noc = noc_index,
                                      runtime_mock::kernel_abi::CallSite site = {}) {
    noc_async_read_page(id, addrgen, dst_local_l1_addr, offset, noc, site);
}

template <typename AddrGen>
FORCE_INLINE void noc_async_write_tile(const uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr,
                                       uint8_t noc = noc_index, runtime_mock::kernel_abi::CallSite site = {}) {
    noc_async_write_page(id, addrgen, src_local_l1_addr, 0, 0, noc, site);
}

inline void noc_async_read_barrier(uint8_t noc = noc_index) {
    (void)noc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_barrier(c, true, false);
}

FORCE_INLINE void noc_async_write_barrier(uint8_t noc = noc_index) {
    (void)noc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_barrier(c, false, true);
}

FORCE_INLINE void noc_async_writes_flushed(uint8_t noc = noc_index) {
    noc_async_write_barrier(noc);
}
FORCE_INLINE void noc_async_posted_writes_flushed(uint8_t noc = noc_index) {
    noc_async_write_barrier(noc);
}
FORCE_INLINE void noc_async_atomic_barrier(uint8_t noc_idx = noc_index) {
    (void)noc_idx;
}

FORCE_INLINE void noc_async_full_barrier(uint8_t noc_idx = noc_index) {
    (void)noc_idx;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_barrier(c, true, true);
}

// ---- multicast and semaphores --------------------------------------------------------------------------

template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1>
inline void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                                      uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                      runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_write_multicast(c, src_local_l1_addr, dst_noc_addr_multicast, size, num_dests,
                               linked ? runtime_mock::kernel_abi::kMulticastLinked : 0, "noc_async_write_multicast",
                               site);
}

inline void noc_async_write_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                   uint32_t size, uint32_t num_dests, bool linked = false,
                                                   uint8_t noc = noc_index,
                                                   runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_write_multicast(
        c, src_local_l1_addr, dst_noc_addr_multicast, size, num_dests,
        runtime_mock::kernel_abi::kMulticastLoopback | (linked ? runtime_mock::kernel_abi::kMulticastLinked : 0),
        "noc_async_write_multicast_loopback_src", site);
}

template <ProgrammableCoreType type = ProgrammableCoreType::TENSIX>
FORCE_INLINE uint32_t get_semaphore(uint32_t semaphore_id, runtime_mock::kernel_abi::CallSite site = {}) {
    const runtime_mock::kernel_abi::Core* core = runtime_mock::kernel_abi::ctx()->core;
    if (semaphore_id >= runtime_mock::kernel_abi::kMaxSemaphores || !(core->semaphore_mask & (1u << semaphore_id))) {
        runtime_mock::kernel_abi::failf(runtime_mock::kernel_abi::ErrorKind::Argument, "get_semaphore", site,
                                        "semaphore %u was not created on this core (CreateSemaphore)", semaphore_id);
    }
    return core->semaphore_base + semaphore_id * runtime_mock::kernel_abi::kSemaphoreStride;
}

namespace runtime_mock::kernel_abi {

// A semaphore word is read inline before any runtime call, so its address is checked here first: it
// must be a 4-byte aligned word of this core's L1.
inline volatile uint32_t* local_semaphore(volatile uint32_t* sem_addr, const char* call, CallSite site) {
    KernelContext* c = ctx();
    const uintptr_t addr = reinterpret_cast<uintptr_t>(sem_addr);
    if (addr % 4 != 0 || addr < c->core->l1_base || addr + 4 > uintptr_t(c->core->l1_base) + c->core->l1_size) {
        failf(ErrorKind::NocAccess, call, site,
              "semaphore address 0x%llx is not an aligned word of this core's L1 (use get_semaphore(id))",
              static_cast<unsigned long long>(addr));
    }
    note_progress(c);
    return sem_addr;
}

// The semaphore's value, read as the wait's own synchronising read: not a plain access of the kernel's
// (memory_check.h does not see it; race detection acquires after the wait, record_semaphore_wait).
RUNTIME_MOCK_UNCHECKED inline uint32_t semaphore_value(volatile uint32_t* sem_addr) {
    return *sem_addr;
}

// Records a satisfied semaphore wait: for race detection, the acquire of what the word's writers released;
// for the timing model, the event (the word is this core's, checked above).
inline void record_semaphore_wait(volatile uint32_t* sem_addr, uint32_t value, bool at_least) {
    KernelContext* c = ctx();
    if (c->race_detection)
        c->fn->race_sync(c, uint32_t(SyncEdge::SemaphoreWait), uint32_t(reinterpret_cast<uintptr_t>(sem_addr)));
    if (!c->recording)
        return;
    const uint32_t offset = uint32_t(reinterpret_cast<uintptr_t>(sem_addr)) - c->core->l1_base;
    c->fn->record(
        c, ProfileEvent{EventKind::SemaphoreWait, uint8_t(at_least ? 1 : 0), kNoCb, 0, nullptr, 0, 0, value, offset});
}

}  // namespace runtime_mock::kernel_abi

FORCE_INLINE void noc_semaphore_wait(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val,
                                     runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    if (runtime_mock::kernel_abi::semaphore_value(
            runtime_mock::kernel_abi::local_semaphore(sem_addr, "noc_semaphore_wait", site)) != val)
        c->fn->semaphore_wait(c, sem_addr, val, false, site);
    runtime_mock::kernel_abi::record_semaphore_wait(sem_addr, val, false);
}

FORCE_INLINE void noc_semaphore_wait_min(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val,
                                         runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    if (runtime_mock::kernel_abi::semaphore_value(
            runtime_mock::kernel_abi::local_semaphore(sem_addr, "noc_semaphore_wait_min", site)) < val)
        c->fn->semaphore_wait(c, sem_addr, val, true, site);
    runtime_mock::kernel_abi::record_semaphore_wait(sem_addr, val, true);
}

FORCE_INLINE void noc_semaphore_set(volatile tt_l1_ptr uint32_t* sem_addr, uint32_t val,
                                    runtime_mock::kernel_abi::CallSite site = {}) {
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->semaphore_set(c, sem_addr, val, site);
}

template <bool posted = false>
FORCE_INLINE void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t noc_id = noc_index,
                                    uint8_t vc = NOC_UNICAST_WRITE_VC, runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc_id;
    (void)vc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->semaphore_inc(c, addr, incr, site);
}

inline void noc_semaphore_set_remote(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint8_t noc = noc_index,
                                     runtime_mock::kernel_abi::CallSite site = {}) {
    noc_async_write(src_local_l1_addr, dst_noc_addr, 4, noc, NOC_UNICAST_WRITE_VC, site);
}

inline void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t num_dests,
                                        bool linked = false, uint8_t noc = noc_index,
                                        runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_write_multicast(c, src_local_l1_addr, dst_noc_addr_multicast, 4, num_dests,
                               linked ? runtime_mock::kernel_abi::kMulticastLinked : 0, "noc_semaphore_set_multicast",
                               site);
}

inline void noc_semaphore_set_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                     uint32_t num_dests, bool linked = false, uint8_t noc = noc_index,
                                                     runtime_mock::kernel_abi::CallSite site = {}) {
    (void)noc;
    runtime_mock::kernel_abi::KernelContext* c = runtime_mock::kernel_abi::ctx();
    c->fn->noc_write_multicast(
        c, src_local_l1_addr, dst_noc_addr_multicast, 4, num_dests,
        runtime_mock::kernel_abi::kMulticastLoopback | (linked ? runtime_mock::kernel_abi::kMulticastLinked : 0),
        "noc_semaphore_set_multicast_loopback_src", site);
}
