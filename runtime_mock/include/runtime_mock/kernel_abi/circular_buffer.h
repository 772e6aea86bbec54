// Circular buffers, kernel side: the SDK's cb_* protocol on one core.
//
// A CB is a ring of num_pages pages of page_size bytes in L1 with one producer and one consumer thread.
// Producer: cb_reserve_back(n) blocks until n pages are free (n may grow across calls without a push),
// cb_push_back(n) publishes n reserved pages and advances wr_ptr. Consumer: cb_wait_front(n) blocks
// until n pages are filled (cumulative, like the SDK: repeated waits without a pop ask for the running
// total), cb_pop_front(n) frees n waited pages and advances rd_ptr. Pointers wrap exactly at the end of
// the ring, so every chunk must fit before the end (the SDK's "CB size must be a multiple of n").
// On silicon cb_reserve_back only waits for room, so pushing (or packing into) pages that were not
// reserved but are free is accepted with a warning; pushing or packing over pages not yet popped
// (overflow) is an error. A globally allocated CB (set_globally_allocated_address) holds its L1 buffer's
// pages, which the host may have written before the run: reading or popping them without cb_wait_front
// works on silicon and is accepted with a warning (the SDK's vecadd_sharding does it); on any other CB it
// is an error.
//
// The fast path runs inline on the calling thread; only a wait that cannot be satisfied yet, and the
// wake-up of a blocked partner, go through the runtime (which also detects deadlocks). Under race
// detection every operation that orders the two threads, and every page a compute kernel reads or writes
// (cb_front_page, cb_back_page), is reported to the runtime too (race_edge, race_page).
#pragma once

#include <cstdint>
#include <cstdio>

#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/kernel_abi/profile_event.h"

namespace runtime_mock::kernel_abi {

template <typename... Args>
[[noreturn]] inline void failf(ErrorKind kind, const char* call, CallSite site, const char* format, Args... args) {
    char message[512];
    std::snprintf(message, sizeof(message), format, args...);
    fail(kind, call, message, site);
}

// Warns about misuse that silicon tolerates; `call` describes it ("cb_push_back(16, 1) without ...").
template <typename... Args>
inline void warnf(const char* call, CallSite site, const char* format, Args... args) {
    char message[512];
    std::snprintf(message, sizeof(message), format, args...);
    KernelContext* c = ctx();
    c->fn->warn(c, call, message, site);
}

inline CircularBuffer& circular_buffer(uint32_t cb, const char* call, CallSite site) {
    KernelContext* c = ctx();
    if (cb >= c->core->num_circular_buffers || !c->core->cbs[cb].configured) {
        failf(ErrorKind::CircularBuffer, call, site,
              "circular buffer %u is not configured on this core (create it with CreateCircularBuffer on this core; "
              "this arch has %u CB indices)",
              cb, c->core->num_circular_buffers);
    }
    note_progress(c);
    return c->core->cbs[cb];
}

inline uint32_t cb_pages_filled(const CircularBuffer& b) {
    return b.pushed.load(std::memory_order_seq_cst) - b.popped.load(std::memory_order_seq_cst);
}

inline void check_chunk(const CircularBuffer& b, uint32_t ptr, uint32_t pages, const char* call, CallSite site,
                        uint32_t cb) {
    if (pages > b.num_pages) {
        failf(ErrorKind::CircularBuffer, call, site, "asks for %u pages but circular buffer %u holds only %u pages",
              pages, cb, b.num_pages);
    }
    if (uint64_t(ptr) + uint64_t(pages) * b.page_size > b.limit) {
        failf(ErrorKind::CircularBuffer, call, site,
              "%u pages starting at page %u would wrap past the end of circular buffer %u (%u pages): its page "
              "count must be a multiple of the chunk size",
              pages, (ptr - b.base) / b.page_size, cb, b.num_pages);
    }
}

// Moves a ring pointer `pages` pages on; a chunk never straddles the end (check_chunk), so the pointer
// wraps only when it lands exactly on the end.
inline void advance(const CircularBuffer& b, uint32_t& ptr, uint32_t pages) {
    ptr += pages * b.page_size;
    if (ptr == b.limit)
        ptr = b.base;
}

// Publishes `pages` more pushed or popped pages to the partner thread (only this thread writes `counter`).
inline void publish(std::atomic<uint32_t>& counter, uint32_t pages) {
    counter.store(counter.load(std::memory_order_relaxed) + pages, std::memory_order_seq_cst);
}

// Race detection's view of a CB operation (RUNTIME_MOCK_RACE_DETECTION=1, runtime_mock/src/race_detector.hpp).
inline void race_edge(uint32_t cb, SyncEdge edge) {
    KernelContext* c = ctx();
    if (c->race_detection)
        c->fn->race_sync(c, uint32_t(edge), cb);
}

// ...and of a page a compute call reads or writes.
inline void race_page(const CircularBuffer& b, uint32_t addr, bool write, const char* call, CallSite site) {
    KernelContext* c = ctx();
    if (c->race_detection)
        c->fn->race_access(c, addr, b.page_size, write ? 1 : 0, 0, call, site);
}

inline void cb_reserve(uint32_t cb, uint32_t pages, CallSite site) {
    const char* call = "cb_reserve_back";
    CircularBuffer& b = circular_buffer(cb, call, site);
    check_chunk(b, b.wr_ptr, pages, call, site, cb);
    if (b.num_pages - cb_pages_filled(b) < pages) {
        KernelContext* c = ctx();
        c->counters.cb_waits++;
        c->fn->cb_block(c, cb, pages, true, call, site);
    }
    race_edge(cb, SyncEdge::CbReserve);
    if (pages > b.reserved)
        b.reserved = pages;
    record_cb(EventKind::CbReserve, cb,
              int64_t(b.pushed.load(std::memory_order_relaxed)) + int64_t(pages) - int64_t(b.num_pages));
}

inline bool cb_reservable(uint32_t cb, uint32_t pages, CallSite site) {
    CircularBuffer& b = circular_buffer(cb, "cb_pages_reservable_at_back", site);
    const bool reservable = b.num_pages - cb_pages_filled(b) >= pages;
    if (reservable)
        race_edge(cb, SyncEdge::CbReserve);
    return reservable;
}

inline void cb_push(uint32_t cb, uint32_t pages, CallSite site) {
    const char* call = "cb_push_back";
    CircularBuffer& b = circular_buffer(cb, call, site);
    KernelContext* c = ctx();
    if (pages > b.reserved) {
        const uint32_t free_pages = b.num_pages - cb_pages_filled(b);
        if (pages > free_pages) {
            failf(ErrorKind::CircularBuffer, call, site,
                  "pushes %u pages to circular buffer %u but only %u are reserved and %u are free: it would overwrite "
                  "pages not yet popped (call cb_reserve_back(%u, %u) first)",
                  pages, cb, b.reserved, free_pages, cb, pages);
        }
        check_chunk(b, b.wr_ptr, pages, call, site, cb);
        char what[96];
        std::snprintf(what, sizeof(what), "cb_push_back(%u, %u) without cb_reserve_back", cb, pages);
        warnf(what, site, "works only because the CB had room; call cb_reserve_back(%u, %u) first", cb, pages);
        race_edge(cb, SyncEdge::CbReserve);  // it saw the room, as a reserve does
    }
    if (c->pending_reads)
        c->fn->check_pending(c, b.wr_ptr, pages * b.page_size, true, call, site);
    b.reserved -= pages < b.reserved ? pages : b.reserved;
    b.pack_index = 0;
    advance(b, b.wr_ptr, pages);
    race_edge(cb, SyncEdge::CbPush);
    publish(b.pushed, pages);
    record_cb(EventKind::CbPush, cb, b.pushed.load(std::memory_order_relaxed));
    if (b.consumer_blocked.load(std::memory_order_seq_cst))
        c->fn->cb_wake(c, cb, false);
}

inline void cb_wait(uint32_t cb, uint32_t pages, CallSite site) {
    const char* call = "cb_wait_front";
    CircularBuffer& b = circular_buffer(cb, call, site);
    check_chunk(b, b.rd_ptr, pages, call, site, cb);
    if (cb_pages_filled(b) < pages) {
        KernelContext* c = ctx();
        c->counters.cb_waits++;
        c->fn->cb_block(c, cb, pages, false, call, site);
    }
    race_edge(cb, SyncEdge::CbWait);
    if (pages > b.waited)
        b.waited = pages;
    record_cb(EventKind::CbWait, cb, int64_t(b.popped.load(std::memory_order_relaxed)) + pages);
}

inline bool cb_available(uint32_t cb, uint32_t pages, CallSite site) {
    CircularBuffer& b = circular_buffer(cb, "cb_pages_available_at_front", site);
    const bool available = cb_pages_filled(b) >= pages;
    if (available)
        race_edge(cb, SyncEdge::CbWait);
    return available;
}

inline void cb_pop(uint32_t cb, uint32_t pages, CallSite site) {
    const char* call = "cb_pop_front";
    CircularBuffer& b = circular_buffer(cb, call, site);
    KernelContext* c = ctx();
    if (pages > b.waited) {
        if (!b.globally_allocated) {
            failf(ErrorKind::CircularBuffer, call, site,
                  "pops %u pages from circular buffer %u but cb_wait_front made only %u available (wait before "
                  "popping)",
                  pages, cb, b.waited);
        }
        char what[96];
        std::snprintf(what, sizeof(what), "cb_pop_front(%u, %u) without cb_wait_front", cb, pages);
        warnf(what, site, "works only because circular buffer %u is globally allocated: its pages are an L1 buffer's",
              cb);
    }
    if (c->pending_writes)
        c->fn->check_pending(c, b.rd_ptr, pages * b.page_size, false, call, site);
    b.waited -= pages < b.waited ? pages : b.waited;
    advance(b, b.rd_ptr, pages);
    race_edge(cb, SyncEdge::CbPop);
    publish(b.popped, pages);
    record_cb(EventKind::CbPop, cb, b.popped.load(std::memory_order_relaxed));
    if (b.producer_blocked.load(std::memory_order_seq_cst))
        c->fn->cb_wake(c, cb, true);
}

// L1 address of page `index` after the read pointer; the page must have been waited for.
inline uint32_t cb_front_page(uint32_t cb, uint32_t index, const char* call, CallSite site) {
    CircularBuffer& b = circular_buffer(cb, call, site);
    if (index >= b.waited) {
        if (!b.globally_allocated) {
            failf(ErrorKind::CircularBuffer, call, site,
                  "reads page %u of circular buffer %u but cb_wait_front made only %u pages available", index, cb,
                  b.waited);
        }
        char what[96];
        std::snprintf(what, sizeof(what), "%s of page %u of CB %u without cb_wait_front", call, index, cb);
        warnf(what, site, "works only because circular buffer %u is globally allocated: its pages are an L1 buffer's",
              cb);
    }
    const uint32_t addr = b.rd_ptr + index * b.page_size;
    race_page(b, addr, false, call, site);
    return addr;
}

// L1 address of page `index` after the write pointer. The page should have been reserved; an unreserved
// page that is free is accepted with a warning (silicon writes it all the same), one that holds data not
// yet popped is an error.
inline uint32_t cb_back_page(uint32_t cb, uint32_t index, const char* call, CallSite site) {
    CircularBuffer& b = circular_buffer(cb, call, site);
    if (index >= b.reserved) {
        const uint32_t free_pages = b.num_pages - cb_pages_filled(b);
        if (index >= free_pages) {
            failf(ErrorKind::CircularBuffer, call, site,
                  "writes page %u of circular buffer %u, which holds data not yet popped: cb_reserve_back reserved "
                  "only %u pages and %u are free (call cb_reserve_back(%u, %u) first)",
                  index, cb, b.reserved, free_pages, cb, index + 1);
        }
        check_chunk(b, b.wr_ptr, index + 1, call, site, cb);
        char what[96];
        std::snprintf(what, sizeof(what), "%s into page %u of CB %u without cb_reserve_back", call, index, cb);
        warnf(what, site, "works only because the page was free; call cb_reserve_back(%u, %u) first", cb, index + 1);
        race_edge(cb, SyncEdge::CbReserve);  // it saw the page free, as a reserve does
    }
    const uint32_t addr = b.wr_ptr + index * b.page_size;
    race_page(b, addr, true, call, site);
    return addr;
}

}  // namespace runtime_mock::kernel_abi
