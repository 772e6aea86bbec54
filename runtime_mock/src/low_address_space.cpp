#include "low_address_space.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "config.hpp"
#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/device.hpp"
#include "scrubber.hpp"

namespace runtime_mock::low_address_space {

namespace {

constexpr uint64_t kLow = kernel_abi::kLowAddressSpaceBegin;
constexpr uint64_t kHigh = kernel_abi::kLowAddressSpaceEnd;
constexpr uint64_t kAlignment = uint64_t(1) << 16;

std::mutex g_mutex;
std::condition_variable g_released;
size_t g_reserved = 0;
size_t g_reservations = 0;

// Reservations their owners are done with (retire/reuse), oldest first: being zeroed by the scrubber, then
// zeroed and waiting for the next owner of their layout. At most kKeptRetired are kept once zeroed.
struct Retired {
    uint8_t* base = nullptr;
    size_t bytes = 0;
    uint64_t layout = 0;
    bool zeroed = false;
};
constexpr size_t kKeptRetired = 2;
std::deque<Retired> g_retired;
// Layouts for which reuse() has once declined a reservation still being zeroed, so that the caller mapped
// a second one: from then on the two alternate (one in use while the other is zeroed) and reuse() waits.
std::set<uint64_t> g_layouts_alternating;

// Unmaps zeroed retired reservations, oldest first, until at most `keep` remain (g_mutex held).
void drop_zeroed(size_t keep) {
    for (auto it = g_retired.begin(); g_retired.size() > keep && it != g_retired.end();) {
        if (!it->zeroed) {
            ++it;
            continue;
        }
        munmap(it->base, it->bytes);
        it = g_retired.erase(it);
    }
}

bool any_zeroed() {
    return std::any_of(g_retired.begin(), g_retired.end(), [](const Retired& r) { return r.zeroed; });
}

// fork(): no thread may hold g_mutex across it, and the child has no scrubber thread, so the reservations
// being zeroed would never be: the child unmaps them and reuses none of them.
[[maybe_unused]] const bool g_fork_handlers_installed = [] {
    pthread_atfork([] { g_mutex.lock(); }, [] { g_mutex.unlock(); },
                   [] {
                       for (auto it = g_retired.begin(); it != g_retired.end();) {
                           if (it->zeroed) {
                               ++it;
                               continue;
                           }
                           munmap(it->base, it->bytes);
                           it = g_retired.erase(it);
                       }
                       g_layouts_alternating.clear();
                       g_mutex.unlock();
                   });
    return true;
}();

uint64_t align_up(uint64_t value) {
    return (value + kAlignment - 1) / kAlignment * kAlignment;
}

// The lowest gap of `bytes` in [kLow, kHigh) between the mappings of /proc/self/maps (sorted by address).
// Lines that do not start with "start-end" are skipped.
std::optional<uint64_t> find_gap(uint64_t bytes) {
    std::ifstream maps("/proc/self/maps");
    uint64_t cursor = kLow;
    std::string line;
    while (std::getline(maps, line)) {
        uint64_t start = 0, end = 0;
        if (std::sscanf(line.c_str(), "%" SCNx64 "-%" SCNx64, &start, &end) != 2)
            continue;
        if (start >= kHigh)
            break;
        if (start > cursor && start - cursor >= bytes)
            return cursor;
        cursor = std::max(cursor, align_up(end));
    }
    if (cursor < kHigh && kHigh - cursor >= bytes)
        return cursor;
    return std::nullopt;
}

// Claims a gap; another thread of the process may map into it first, so a failed claim looks again.
uint8_t* try_reserve(size_t bytes) {
    for (int attempt = 0; attempt < 8; attempt++) {
        const std::optional<uint64_t> gap = find_gap(bytes);
        if (!gap)
            return nullptr;
        void* memory = mmap(reinterpret_cast<void*>(*gap), bytes, PROT_NONE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (memory == reinterpret_cast<void*>(*gap))
            return static_cast<uint8_t*>(memory);
        if (memory != MAP_FAILED)
            munmap(memory, bytes);  // a kernel without MAP_FIXED_NOREPLACE placed it elsewhere
        else if (errno != EEXIST)
            throw DeviceError(std::string("cannot map L1 below 4 GiB: mmap: ") + std::strerror(errno));
    }
    return nullptr;
}

}  // namespace

uint8_t* reserve(size_t bytes, const char* what) {
    using namespace std::chrono;
    const double wait_seconds = config::l1_wait_seconds();
    const auto deadline = steady_clock::now() + duration_cast<steady_clock::duration>(duration<double>(wait_seconds));
    std::unique_lock<std::mutex> lock(g_mutex);
    while (true) {
        if (uint8_t* base = try_reserve(bytes)) {
            g_reserved += bytes;
            g_reservations++;
            return base;
        }
        if (any_zeroed()) {
            drop_zeroed(0);  // space kept for a reuse that may never come: give it up first
            continue;
        }
        if (steady_clock::now() >= deadline)
            break;
        // A reservation being zeroed is given up once zeroed: the scrubber's notification wakes this wait.
        // Other mappings may also free space, so look again now and then even without a release.
        g_released.wait_until(lock, std::min(deadline, steady_clock::now() + milliseconds(200)));
    }
    throw DeviceError("cannot map " + std::to_string(bytes >> 20) + " MiB of L1 below 4 GiB for " + what +
                      ": kernels dereference uint32 L1 addresses, and the L1 of the " + std::to_string(g_reservations) +
                      " devices alive in this process (" + std::to_string(g_reserved >> 20) +
                      " MiB) and other mappings fill [1 GiB, 4 GiB); waited " + std::to_string(wait_seconds) +
                      " s for a device to be released (delete unused Devices, or set "
                      "RUNTIME_MOCK_L1_WAIT_SECONDS to wait longer)");
}

void release(uint8_t* base, size_t bytes) {
    std::lock_guard<std::mutex> lock(g_mutex);
    munmap(base, bytes);
    g_reserved -= bytes;
    g_reservations--;
    g_released.notify_all();
}

void retire(uint8_t* base, size_t bytes, uint64_t layout, std::function<void(uint8_t*)> zero) {
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_retired.push_back(Retired{base, bytes, layout, false});
        g_reserved -= bytes;
        g_reservations--;
    }
    scrubber::submit([base, zero = std::move(zero)] {
        zero(base);
        std::lock_guard<std::mutex> lock(g_mutex);
        for (Retired& r : g_retired)
            r.zeroed = r.zeroed || r.base == base;
        drop_zeroed(kKeptRetired);
        g_released.notify_all();
    });
}

uint8_t* reuse(size_t bytes, uint64_t layout) {
    std::unique_lock<std::mutex> lock(g_mutex);
    while (true) {
        // The most recently retired match: a device made right after another of its grid gets its pool.
        const auto matches = [&](bool zeroed) {
            return std::find_if(g_retired.rbegin(), g_retired.rend(), [&](const Retired& r) {
                return r.bytes == bytes && r.layout == layout && r.zeroed == zeroed;
            });
        };
        if (auto ready = matches(true); ready != g_retired.rend()) {
            uint8_t* base = ready->base;
            g_retired.erase(std::next(ready).base());
            g_reserved += bytes;
            g_reservations++;
            return base;
        }
        if (matches(false) == g_retired.rend() || g_layouts_alternating.insert(layout).second)
            return nullptr;
        g_released.wait(lock);
    }
}

size_t reserved_bytes() {
    std::lock_guard<std::mutex> lock(g_mutex);
    return g_reserved;
}

}  // namespace runtime_mock::low_address_space
