#include "noc.hpp"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "l1.hpp"
#include "noc_store.hpp"
#include "semaphore.hpp"
#include "timing_model.hpp"
#include "runtime_mock/kernel_abi/l1_fill.h"
#include "runtime_mock/kernel_abi/noc.h"

namespace runtime_mock {

namespace {

[[noreturn]] void noc_error(KernelThread& thread, const char* call, CallSite site, const std::string& message) {
    throw KernelFault{ErrorKind::NocAccess, describe(thread, call, site) + ": " + message};
}

// A NOC write that sends a page nothing wrote in this program (every byte still the poison fill,
// kernel_abi/l1_fill.h) reads never-written L1: an error at the sending line.
void check_source_written(KernelThread& thread, const uint8_t* from, uint32_t size, uint32_t src, const char* call,
                          CallSite site) {
    if (thread.ctx.poisoned_l1 && kernel_abi::holds_only_poison(from, size)) {
        throw KernelFault{ErrorKind::Protocol, describe(thread, call, site) + ": sends " + std::to_string(size) +
                                                   " bytes from L1 " + hex(src) +
                                                   " that nothing wrote in this program: every byte still holds the "
                                                   "RUNTIME_MOCK_L1_FILL=poison fill"};
    }
}

void check_running(KernelThread& thread) {
    if (thread.run->aborted.load())
        throw Aborted{};
    kernel_abi::note_progress(&thread.ctx);
}

// The L1 offset a local address designates: an offset below the L1 size, or a pointer into any core's L1.
uint32_t l1_offset(KernelThread& thread, uint64_t addr, uint32_t size, const char* call, CallSite site) {
    const L1& l1 = *thread.run->l1;
    uint64_t offset = addr;
    if (addr >= l1.l1_bytes()) {
        auto location = l1.locate(addr);
        if (!location) {
            noc_error(thread, call, site,
                      "L1 address " + hex(addr) + " is neither an L1 offset (< " + hex(l1.l1_bytes()) +
                          ") nor a pointer into a core's L1 (get_write_ptr, get_read_ptr, get_semaphore)");
        }
        offset = location->offset;
    }
    if (offset + size > l1.l1_bytes()) {
        noc_error(thread, call, site,
                  "L1 access [" + hex(offset) + ", " + hex(offset + size) + ") is outside the core's " +
                      std::to_string(l1.l1_bytes()) + "-byte L1");
    }
    if (offset % kernel_abi::kL1Alignment != 0) {
        noc_error(thread, call, site, "L1 address " + hex(offset) + " is not 16-byte aligned");
    }
    return uint32_t(offset);
}

// Checks a `size`-byte access at bank address `address` of DRAM bank `bank`, or of the L1 of worker
// `bank` (an L1 bank), against the one buffer the address belongs to: it must end within that buffer's
// pages. An L1 access that touches no buffer passes (CBs, semaphores and runtime args live outside
// them); a DRAM access must lie in a buffer.
void check_buffer_access(KernelThread& thread, bool is_dram, uint32_t bank, uint64_t address, uint32_t size,
                         const char* call, CallSite site) {
    const RunState& run = *thread.run;
    const BankAllocator& buffers = is_dram ? run.dram->buffers() : run.l1->buffers();
    const InterleavedBuffer* buffer = buffers.first_overlapping(address, std::max<uint32_t>(size, 1));
    if (!buffer && !is_dram)
        return;
    const uint64_t last = size ? address + size - 1 : address;
    const uint64_t page = buffer ? buffers.page_at(*buffer, bank, last) : 0;
    if (buffer && address >= buffer->address && page < buffer->pages)
        return;
    const std::string range = (is_dram ? "DRAM bank " + std::to_string(bank)
                                       : "L1 of core (" + std::to_string(bank % run.arch->grid_x) + "," +
                                             std::to_string(bank / run.arch->grid_x) + ")") +
                              " range [" + hex(address) + ", " + hex(address + size) + ")";
    if (!buffer)
        noc_error(thread, call, site, range + " is outside every allocated DRAM buffer");
    if (address < buffer->address)
        noc_error(thread, call, site, range + " runs into the " + buffers.describe(*buffer));
    const InterleavedBuffer* next = buffers.find(last);
    const std::string into = next && next != buffer ? ", and on into the " + buffers.describe(*next) : "";
    noc_error(thread, call, site,
              range + " reaches page " + std::to_string(page) + ", past the last page of the " +
                  buffers.describe(*buffer) + into);
}

struct Endpoint {
    uint8_t* l1 = nullptr;  // set for a worker's L1
    uint32_t bank = 0;      // DRAM bank otherwise
    uint64_t dram_address = 0;
    uint32_t core = 0;  // the worker's L1 index, and the offset in its L1
    uint32_t offset = 0;

    // The node in the timing record (timing_model.hpp).
    int64_t node() const { return l1 ? int64_t(core) : kDramNode + bank; }
};

// A 4-byte write to a semaphore word sets that semaphore (noc_semaphore_set_remote / _multicast).
bool sets_semaphore(uint32_t offset, uint32_t size) {
    return size == 4 && offset >= kL1SemaphoreBase &&
           offset < kL1SemaphoreBase + kernel_abi::kMaxSemaphores * kernel_abi::kSemaphoreStride;
}

void record_transfer(kernel_abi::KernelContext* ctx, kernel_abi::EventKind kind, uint32_t size, int64_t from,
                     int64_t to, const uint8_t* data, uint32_t offset) {
    if (!ctx->recording)
        return;
    kernel_abi::ProfileEvent event{kind, kernel_abi::kNoFormat, kernel_abi::kNoCb, size, nullptr, from, uint64_t(to), 0,
                                   0};
    if (kind == kernel_abi::EventKind::NocWrite && to < kDramNode && sets_semaphore(offset, size)) {
        event.format = kernel_abi::kSemaphoreWrite;
        std::memcpy(&event.value, data, 4);
        event.offset = offset;
    }
    ctx->fn->record(ctx, event);
}

Endpoint resolve(KernelThread& thread, uint64_t noc_addr, uint32_t size, bool dram_read, const char* call,
                 CallSite site) {
    const RunState& run = *thread.run;
    const uint32_t x = kernel_abi::noc_x(noc_addr), y = kernel_abi::noc_y(noc_addr);
    const uint64_t local = kernel_abi::noc_local(noc_addr);
    if (x == kernel_abi::dram_bank_noc_x(0) && y < run.arch->dram_banks) {
        check_buffer_access(thread, true, y, local, size, call, site);
        const uint32_t alignment = dram_read ? run.arch->dram_alignment : kernel_abi::kL1Alignment;
        if (local % alignment != 0) {
            noc_error(thread, call, site,
                      "DRAM address " + hex(local) + " is not " + std::to_string(alignment) + "-byte aligned");
        }
        return Endpoint{nullptr, y, local, 0, 0};
    }
    if (x < 1 || x > run.arch->grid_x || y < 1 || y > run.arch->grid_y) {
        noc_error(thread, call, site,
                  "NOC address " + hex(noc_addr) + " names node (" + std::to_string(x) + "," + std::to_string(y) +
                      "), which is neither a worker core (x 1.." + std::to_string(run.arch->grid_x) + ", y 1.." +
                      std::to_string(run.arch->grid_y) + ") nor a DRAM bank (x 0, y 0.." +
                      std::to_string(run.arch->dram_banks - 1) + ")");
    }
    const uint32_t core = (y - 1) * run.arch->grid_x + (x - 1);
    const uint32_t offset = l1_offset(thread, local, size, call, site);
    check_buffer_access(thread, false, core, offset, size, call, site);
    return Endpoint{run.l1->core_memory(core) + offset, 0, 0, core, offset};
}

// NOC stores into L1 land once per byte (noc_store.hpp): a kernel may be polling the word.
void copy_from(const RunState& run, const Endpoint& from, uint8_t* to, uint32_t size) {
    if (from.l1) {
        store_once(to, from.l1, size);
    } else {
        run.dram->read_into_l1(from.bank, from.dram_address, to, size);
    }
}

void copy_to(const RunState& run, const uint8_t* from, const Endpoint& to, uint32_t size) {
    if (to.l1) {
        store_once(to.l1, from, size);
    } else {
        run.dram->write(to.bank, to.dram_address, from, size);
    }
}

}  // namespace

// A NOC access of L1 slot `core`'s [offset, offset + size) under race detection (race_detector.hpp). A
// synchronising write (a semaphore call; a 4-byte NOC write, as noc_semaphore_set_remote and _multicast
// make) releases the word's clock, which noc_semaphore_wait on that word acquires.
void race_l1(KernelThread& thread, uint32_t core, uint32_t offset, uint32_t size, bool write, bool sync,
             const char* call, CallSite site) {
    RaceDetector* races = thread.run->races.get();
    if (races == nullptr)
        return;
    races->access(thread, core, offset, size, write, sync, RaceDetector::Site{0, call, site});
    if (sync)
        races->release(thread, RaceDetector::Sync::Semaphore, core, offset);
}

void race_local(KernelThread& thread, const uint8_t* p, uint32_t size, bool write, bool sync, const char* call,
                CallSite site) {
    const uint32_t slot = thread.core->l1_index;
    race_l1(thread, slot, uint32_t(p - thread.run->l1->core_memory(slot)), size, write, sync, call, site);
}

namespace {

bool overlaps(uint32_t a, uint32_t a_size, uint32_t b, uint32_t b_size) {
    return a < b + b_size && b < a + a_size;
}

}  // namespace

uint8_t* local_l1(KernelThread& thread, uint32_t addr, uint32_t size, const char* call, CallSite site) {
    const uint32_t offset = l1_offset(thread, addr, size, call, site);
    check_buffer_access(thread, false, thread.core->l1_index, offset, size, call, site);
    return thread.run->l1->core_memory(thread.core->l1_index) + offset;
}

void noc_read(kernel_abi::KernelContext* ctx, uint64_t src, uint32_t dst, uint32_t size, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    const char* call = "noc_async_read";
    const Endpoint from = resolve(thread, src, size, true, call, site);
    uint8_t* to = local_l1(thread, dst, size, call, site);
    if (from.l1)
        race_l1(thread, from.core, from.offset, size, false, false, call, site);
    race_local(thread, to, size, true, false, call, site);
    copy_from(*thread.run, from, to, size);
    record_transfer(ctx, kernel_abi::EventKind::NocRead, size, from.node(), thread.core->l1_index, nullptr, 0);
    thread.pending_reads.push_back({uint32_t(uintptr_t(to)), size, site});
    ctx->pending_reads = uint32_t(thread.pending_reads.size());
    ctx->counters.tiles_read++;
    ctx->counters.noc_bytes_read += size;
    wake_semaphore_waiters(*thread.run, to, size);
}

void noc_write(kernel_abi::KernelContext* ctx, uint32_t src, uint64_t dst, uint32_t size, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    const char* call = "noc_async_write";
    const uint8_t* from = local_l1(thread, src, size, call, site);
    const Endpoint to = resolve(thread, dst, size, false, call, site);
    check_source_written(thread, from, size, src, call, site);  // after the address checks, which come first
    race_local(thread, from, size, false, false, call, site);
    if (to.l1)
        race_l1(thread, to.core, to.offset, size, true, size == 4, call, site);
    copy_to(*thread.run, from, to, size);
    record_transfer(ctx, kernel_abi::EventKind::NocWrite, size, thread.core->l1_index, to.node(), from, to.offset);
    thread.pending_writes.push_back({uint32_t(uintptr_t(from)), size, site});
    ctx->pending_writes = uint32_t(thread.pending_writes.size());
    ctx->counters.tiles_written++;
    ctx->counters.noc_bytes_written += size;
    if (to.l1)
        wake_semaphore_waiters(*thread.run, to.l1, size);
}

void noc_write_multicast(kernel_abi::KernelContext* ctx, uint32_t src, uint64_t dst, uint32_t size, uint32_t num_dests,
                         uint32_t flags, const char* call, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    const RunState& run = *thread.run;
    const bool loopback = flags & kernel_abi::kMulticastLoopback;
    const uint8_t* from = local_l1(thread, src, size, call, site);
    const uint32_t x0 = std::min(kernel_abi::noc_x_start(dst), kernel_abi::noc_x(dst));
    const uint32_t x1 = std::max(kernel_abi::noc_x_start(dst), kernel_abi::noc_x(dst));
    const uint32_t y0 = std::min(kernel_abi::noc_y_start(dst), kernel_abi::noc_y(dst));
    const uint32_t y1 = std::max(kernel_abi::noc_y_start(dst), kernel_abi::noc_y(dst));
    if (x0 < 1 || x1 > run.arch->grid_x || y0 < 1 || y1 > run.arch->grid_y) {
        noc_error(thread, call, site,
                  "multicast rectangle (" + std::to_string(x0) + "," + std::to_string(y0) + ")-(" + std::to_string(x1) +
                      "," + std::to_string(y1) + ") contains nodes that are not worker cores");
    }
    const uint32_t my_x = thread.core->core.my_x[0], my_y = thread.core->core.my_y[0];
    const bool self_inside = my_x >= x0 && my_x <= x1 && my_y >= y0 && my_y <= y1;
    const uint32_t expected = (x1 - x0 + 1) * (y1 - y0 + 1) - (self_inside && !loopback ? 1 : 0);
    if (num_dests != expected) {
        noc_error(thread, call, site,
                  "num_dests is " + std::to_string(num_dests) + " but the rectangle (" + std::to_string(x0) + "," +
                      std::to_string(y0) + ")-(" + std::to_string(x1) + "," + std::to_string(y1) + ") has " +
                      std::to_string(expected) + " destinations" +
                      (self_inside ? (loopback ? " (including the sender)" : " (excluding the sender)") : ""));
    }
    const uint32_t offset = l1_offset(thread, kernel_abi::noc_local(dst), size, call, site);
    bool source_checked = false;
    for (uint32_t y = y0; y <= y1; y++) {
        for (uint32_t x = x0; x <= x1; x++) {
            if (x == my_x && y == my_y && !loopback)
                continue;
            const uint32_t core = (y - 1) * run.arch->grid_x + (x - 1);
            check_buffer_access(thread, false, core, offset, size, call, site);
            if (!source_checked) {  // after the first destination's address checks, which come first
                check_source_written(thread, from, size, src, call, site);
                race_local(thread, from, size, false, false, call, site);
                source_checked = true;
            }
            race_l1(thread, core, offset, size, true, size == 4, call, site);
            uint8_t* to = run.l1->core_memory(core) + offset;
            store_once(to, from, size);
            wake_semaphore_waiters(*thread.run, to, size);
        }
    }
    if (ctx->recording) {
        kernel_abi::ProfileEvent event{kernel_abi::EventKind::NocMulticast,
                                       uint8_t((loopback ? kernel_abi::kLoopback : 0) |
                                               (flags & kernel_abi::kMulticastLinked ? kernel_abi::kLinked : 0)),
                                       uint16_t(num_dests),
                                       size,
                                       nullptr,
                                       int64_t(thread.core->l1_index),
                                       uint64_t(x0) | uint64_t(y0) << 8 | uint64_t(x1) << 16 | uint64_t(y1) << 24,
                                       0,
                                       0};
        if (sets_semaphore(offset, size)) {
            event.format |= kernel_abi::kSemaphoreWrite;
            std::memcpy(&event.value, from, 4);
            event.offset = offset;
        }
        ctx->fn->record(ctx, event);
    }
    thread.pending_writes.push_back({uint32_t(uintptr_t(from)), size, site});
    ctx->pending_writes = uint32_t(thread.pending_writes.size());
    ctx->counters.tiles_written++;
    ctx->counters.noc_bytes_written += uint64_t(size) * num_dests;
}

void noc_barrier(kernel_abi::KernelContext* ctx, bool reads, bool writes) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    if (reads)
        thread.pending_reads.clear();
    if (writes)
        thread.pending_writes.clear();
    if (ctx->recording) {
        ctx->fn->record(
            ctx, kernel_abi::ProfileEvent{kernel_abi::EventKind::NocBarrier, kernel_abi::kNoFormat, kernel_abi::kNoCb,
                                          (reads ? 1u : 0u) | (writes ? 2u : 0u), nullptr, 0, 0, 0, 0});
    }
    ctx->pending_reads = uint32_t(thread.pending_reads.size());
    ctx->pending_writes = uint32_t(thread.pending_writes.size());
}

void check_pending(kernel_abi::KernelContext* ctx, uint32_t addr, uint32_t size, bool reads, const char* call,
                   CallSite site) {
    KernelThread& thread = thread_of(ctx);
    for (const PendingTransfer& pending : reads ? thread.pending_reads : thread.pending_writes) {
        if (!overlaps(addr, size, pending.address, pending.size))
            continue;
        std::ostringstream out;
        out << describe(thread, call, site) << ": "
            << (reads ? "pushes CB pages that a noc_async_read" : "pops CB pages that a noc_async_write")
            << " issued at " << pending.site.file << ":" << pending.site.line << " may still be "
            << (reads ? "writing; call noc_async_read_barrier() before cb_push_back"
                      : "reading; call noc_async_write_barrier() (or noc_async_writes_flushed()) before cb_pop_front");
        throw KernelFault{ErrorKind::CircularBuffer, out.str()};
    }
}

void check_l1(kernel_abi::KernelContext* ctx, uint32_t addr, uint32_t size, const char* call, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    local_l1(thread, addr, size, call, site);
}

void check_page(kernel_abi::KernelContext* ctx, bool is_dram, uint64_t base, uint32_t page, uint32_t aligned_page_size,
                const char* call, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    const RunState& run = *thread.run;
    const BankAllocator& buffers = is_dram ? run.dram->buffers() : run.l1->buffers();
    const uint64_t bank_address = is_dram ? base : l1_offset(thread, base, 0, call, site);
    const InterleavedBuffer* buffer = buffers.find(bank_address);
    if (!buffer) {
        noc_error(thread, call, site,
                  "bank address " + hex(bank_address) + " is not inside any allocated " + buffers.kind() + " buffer");
    }
    if (aligned_page_size != buffer->aligned_page_size) {
        noc_error(thread, call, site,
                  "pages are " + std::to_string(aligned_page_size) + " B apart, but in the " +
                      buffers.describe(*buffer) + " they are " + std::to_string(buffer->aligned_page_size) +
                      " B apart: give the address generator the buffer's page size");
    }
    // A base inside the buffer (a view starting some rows in) shifts page ids by whole rows.
    const uint32_t banks = buffers.banks();
    const uint64_t buffer_page =
        buffers.page_at(*buffer, page % banks, bank_address + uint64_t(page / banks) * aligned_page_size);
    if (buffer_page >= buffer->pages) {
        const std::string which = bank_address == buffer->address
                                      ? ""
                                      : " from bank address " + hex(bank_address) + " (page " +
                                            std::to_string(buffer_page) + " of the buffer)";
        noc_error(thread, call, site,
                  "page id " + std::to_string(page) + which + " is at or past the page count of the " +
                      buffers.describe(*buffer));
    }
}

void semaphore_inc(kernel_abi::KernelContext* ctx, uint64_t addr, uint32_t increment, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    check_running(thread);
    const Endpoint target = resolve(thread, addr, 4, false, "noc_semaphore_inc", site);
    if (!target.l1)
        noc_error(thread, "noc_semaphore_inc", site, "semaphores live in a worker's L1, not in DRAM");
    race_l1(thread, target.core, target.offset, 4, true, true, "noc_semaphore_inc", site);
    __atomic_fetch_add(reinterpret_cast<uint32_t*>(target.l1), increment, __ATOMIC_SEQ_CST);
    if (ctx->recording) {
        ctx->fn->record(
            ctx, kernel_abi::ProfileEvent{kernel_abi::EventKind::SemaphoreInc, kernel_abi::kNoFormat, kernel_abi::kNoCb,
                                          4, nullptr, int64_t(target.core), 0, increment, target.offset});
    }
    wake_semaphore_waiters(*thread.run, target.l1, 4);
}

}  // namespace runtime_mock
