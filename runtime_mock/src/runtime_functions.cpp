// The RuntimeFunctions table kernels call, and the services no hardware concept owns: error and warning
// reporting, DPRINT output and the timing record (profile_event.h). The others live with their concept:
// circular_buffer.cpp, semaphore.cpp, noc.cpp, tile_matmul.cpp.
#include <cstdio>
#include <cstring>
#include <mutex>

#include "circular_buffer.hpp"
#include "noc.hpp"
#include "scheduler.hpp"
#include "semaphore.hpp"
#include "tile_matmul.hpp"

namespace runtime_mock {

namespace {

using kernel_abi::KernelContext;

void fail(KernelContext* ctx, ErrorKind kind, const char* call, const char* message, CallSite site) {
    throw KernelFault{kind, describe(thread_of(ctx), call, site) + ": " + message};
}

// Prints "runtime_mock warning: core (x,y) <role> [<kernel>]: <call> at <file>:<line>: <message>" to stderr the
// first time a call site warns in this run.
void warn(KernelContext* ctx, const char* call, const char* message, CallSite site) {
    KernelThread& thread = thread_of(ctx);
    RunState& run = *thread.run;
    std::lock_guard<std::mutex> lock(run.warnings_mutex);
    if (!run.warned_sites.emplace(site.file, site.line).second)
        return;
    std::fprintf(stderr, "runtime_mock warning: %s: %s\n", describe(thread, call, site).c_str(), message);
    std::fflush(stderr);
}

// Appends to the thread's timing record; consecutive identical compute calls merge into one event.
void record(KernelContext* ctx, const kernel_abi::ProfileEvent& event) {
    std::vector<kernel_abi::ProfileEvent>& events = thread_of(ctx).events;
    if (event.kind == kernel_abi::EventKind::Compute && !events.empty()) {
        kernel_abi::ProfileEvent& last = events.back();
        if (last.kind == event.kind && last.format == event.format &&
            (last.name == event.name || std::strcmp(last.name, event.name) == 0)) {
            last.count += event.count;
            return;
        }
    }
    events.push_back(event);
}

void print(KernelContext* ctx, const char* text, size_t length) {
    static std::mutex mutex;
    const KernelThread& thread = thread_of(ctx);
    std::lock_guard<std::mutex> lock(mutex);
    std::fprintf(stdout, "[core (%u,%u) %s] %.*s\n", thread.core->core.logical_x, thread.core->core.logical_y,
                 role_name(thread.role), int(length), text);
    std::fflush(stdout);
}

// `Call`, then a schedule point (schedule_point): for the calls another kernel can observe, in a seeded run.
template <auto Call>
struct ThenSchedulePoint;

template <typename... Args, void (*Call)(KernelContext*, Args...)>
struct ThenSchedulePoint<Call> {
    static void run(KernelContext* ctx, Args... args) {
        Call(ctx, args...);
        schedule_point(thread_of(ctx));
    }
};

}  // namespace

kernel_abi::RuntimeFunctions runtime_functions(bool seeded) {
    kernel_abi::RuntimeFunctions f{};
    f.fail = fail;
    f.warn = warn;
    f.cb_block = cb_block;
    f.cb_wake = cb_wake;
    f.check_pending = check_pending;
    f.noc_read = noc_read;
    f.noc_write = noc_write;
    f.noc_write_multicast = noc_write_multicast;
    f.noc_barrier = noc_barrier;
    f.semaphore_wait = semaphore_wait;
    f.semaphore_set = semaphore_set;
    f.semaphore_inc = semaphore_inc;
    f.check_l1 = check_l1;
    f.check_page = check_page;
    f.print = print;
    f.record = record;
    f.tile_matmul = tile_matmul::selected();
    f.tile_matmul_bf16 = tile_matmul::bf16_selected();
    f.race_access = race_access;
    f.race_sync = race_sync;
    if (seeded) {
        f.cb_wake = ThenSchedulePoint<cb_wake>::run;
        f.noc_read = ThenSchedulePoint<noc_read>::run;
        f.noc_write = ThenSchedulePoint<noc_write>::run;
        f.noc_write_multicast = ThenSchedulePoint<noc_write_multicast>::run;
        f.noc_barrier = ThenSchedulePoint<noc_barrier>::run;
        f.semaphore_set = ThenSchedulePoint<semaphore_set>::run;
        f.semaphore_inc = ThenSchedulePoint<semaphore_inc>::run;
    }
    return f;
}

}  // namespace runtime_mock
