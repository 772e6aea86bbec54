#include "race_detector.hpp"

#include <sys/mman.h>

#include <algorithm>

#include "scheduler.hpp"

namespace runtime_mock {

namespace {

constexpr uint32_t kGranuleBytes = 16;
// In an epoch: the write was a semaphore write. In a site: an index into the interned API call sites.
constexpr uint64_t kTag = uint64_t(1) << 63;

// An epoch: the thread's index + 1 in bits 32..62, its own clock entry below; 0 is no access.
uint64_t epoch_of(const KernelThread& thread) {
    return (uint64_t(thread.index) + 1) << 32 | thread.clock[thread.index];
}

uint32_t thread_index(uint64_t epoch) {
    return uint32_t((epoch & ~kTag) >> 32) - 1;
}

// Whether the access at `epoch` happened before everything `thread` does now.
bool ordered_before(uint64_t epoch, const KernelThread& thread) {
    return uint32_t(epoch) <= thread.clock[thread_index(epoch)];
}

}  // namespace

struct RaceDetector::Granule {
    uint64_t write = 0, write_site = 0;  // the last write's epoch (kTag: a semaphore write) and site
    uint64_t read = 0, read_site = 0;    // the last read not ordered before a later write
};

struct RaceDetector::Clock {
    std::mutex mutex;
    std::vector<uint32_t> entries;
};

// One core's shadow: a granule per 16 bytes of its L1, mapped lazily (untouched pages cost nothing).
struct RaceDetector::CoreShadow {
    std::mutex mutex;
    Granule* granules = nullptr;
    size_t bytes = 0;
    ~CoreShadow() {
        if (granules)
            munmap(granules, bytes);
    }
};

RaceDetector::RaceDetector(RunState& run)
    : run_(run),
      granules_per_core_(run.arch->l1_bytes / kGranuleBytes),
      shadows_(size_t(run.arch->grid_x) * run.arch->grid_y) {
    for (auto& thread : run.threads) {
        thread->clock.assign(run.threads.size(), 0);
        thread->clock[thread->index] = 1;
    }
}

RaceDetector::~RaceDetector() = default;

RaceDetector::Clock& RaceDetector::clock_of(Sync sync, uint32_t core, uint32_t id) {
    const uint64_t key = uint64_t(sync) << 56 | uint64_t(core) << 32 | id;
    std::lock_guard<std::mutex> lock(clocks_mutex_);
    std::unique_ptr<Clock>& clock = clocks_[key];
    if (!clock) {
        clock = std::make_unique<Clock>();
        clock->entries.assign(run_.threads.size(), 0);
    }
    return *clock;
}

void RaceDetector::release(KernelThread& thread, Sync sync, uint32_t core, uint32_t id) {
    Clock& clock = clock_of(sync, core, id);
    {
        std::lock_guard<std::mutex> lock(clock.mutex);
        for (size_t i = 0; i < clock.entries.size(); i++)
            clock.entries[i] = std::max(clock.entries[i], thread.clock[i]);
    }
    thread.clock[thread.index]++;
}

void RaceDetector::acquire(KernelThread& thread, Sync sync, uint32_t core, uint32_t id) {
    Clock& clock = clock_of(sync, core, id);
    std::lock_guard<std::mutex> lock(clock.mutex);
    for (size_t i = 0; i < clock.entries.size(); i++)
        thread.clock[i] = std::max(thread.clock[i], clock.entries[i]);
}

uint64_t RaceDetector::intern(const Site& site) {
    if (site.call == nullptr)
        return site.pc;
    std::string key(site.call);
    key += '\0';
    key += site.site.file;
    key += ':' + std::to_string(site.site.line);
    std::lock_guard<std::mutex> lock(sites_mutex_);
    auto [it, added] = site_index_.emplace(std::move(key), sites_.size());
    if (added)
        sites_.push_back(site);
    return kTag | it->second;
}

RaceDetector::CoreShadow& RaceDetector::shadow(uint32_t core) {
    std::lock_guard<std::mutex> lock(shadows_mutex_);
    std::unique_ptr<CoreShadow>& shadow = shadows_.at(core);
    if (!shadow) {
        auto made = std::make_unique<CoreShadow>();
        made->bytes = size_t(granules_per_core_) * sizeof(Granule);
        void* memory =
            mmap(nullptr, made->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (memory == MAP_FAILED)
            throw DeviceError("cannot map the race detector's shadow of a core's L1");
        made->granules = static_cast<Granule*>(memory);
        shadow = std::move(made);
    }
    return *shadow;
}

void RaceDetector::access(KernelThread& thread, uint32_t core, uint32_t offset, uint32_t size, bool write, bool sync,
                          const Site& site) {
    if (size == 0 || offset >= run_.arch->l1_bytes)
        return;
    const uint64_t here_site = intern(site);
    const uint64_t here = epoch_of(thread) | (sync ? kTag : 0);
    CoreShadow& shadow = this->shadow(core);
    const uint32_t first = offset / kGranuleBytes;
    const uint32_t last = std::min((uint64_t(offset) + size - 1) / kGranuleBytes, uint64_t(granules_per_core_) - 1);
    Granule earlier;
    bool earlier_write = false;
    bool any_written = false;
    uint32_t at = 0;
    {
        std::lock_guard<std::mutex> lock(shadow.mutex);
        for (uint32_t g = first; g <= last; g++) {
            Granule& granule = shadow.granules[g];
            const bool write_races = granule.write != 0 && thread_index(granule.write) != thread.index &&
                                     !(sync && (granule.write & kTag)) && !ordered_before(granule.write, thread);
            const bool read_races = write && granule.read != 0 && thread_index(granule.read) != thread.index &&
                                    !ordered_before(granule.read, thread);
            any_written |= granule.write != 0;
            if (write_races || read_races) {
                earlier = granule;
                earlier_write = write_races;
                at = g * kGranuleBytes;
                break;
            }
            if (write) {
                granule = Granule{here, here_site, 0, 0};
            } else if (granule.read == 0 || thread_index(granule.read) == thread.index ||
                       ordered_before(granule.read, thread)) {
                granule.read = here;
                granule.read_site = here_site;
            }
        }
    }
    if (earlier.write != 0 || earlier.read != 0) {
        report(thread, core, at, earlier, earlier_write, write, site);
    } else if (!write && !any_written && in_circular_buffer(core, offset, size)) {
        report_unwritten(thread, core, offset, size, site);
    }
}

bool RaceDetector::in_circular_buffer(uint32_t core, uint32_t offset, uint32_t size) const {
    if (core >= run_.core_at_l1_slot.size() || run_.core_at_l1_slot[core] == nullptr)
        return false;
    const kernel_abi::Core& state = run_.core_at_l1_slot[core]->core;
    const uint64_t begin = uint64_t(state.l1_base) + offset, end = begin + size;
    for (uint32_t cb = 0; cb < state.num_circular_buffers; cb++) {
        const kernel_abi::CircularBuffer& b = state.cbs[cb];
        if (b.configured && begin >= b.base && end <= b.limit)
            return run_.l1->buffers().first_overlapping(offset, size) == nullptr;
    }
    return false;
}

std::string RaceDetector::describe_access(uint64_t epoch, uint64_t site) const {
    const KernelThread& thread = *run_.threads.at(thread_index(epoch));
    if (!(site & kTag))
        return describe_at(thread, "access", site);
    Site api;
    {
        std::lock_guard<std::mutex> lock(sites_mutex_);
        api = sites_.at(site & ~kTag);
    }
    return describe(thread, api.call, api.site);
}

std::string RaceDetector::describe_range(uint32_t core, uint32_t offset) const {
    std::string what = l1_core_name(core, run_.arch->grid_x) + "'s L1 at " + hex(offset) + " (16 bytes";
    if (offset >= kL1SemaphoreBase &&
        offset < kL1SemaphoreBase + kernel_abi::kMaxSemaphores * kernel_abi::kSemaphoreStride)
        return what + ": semaphore " + std::to_string((offset - kL1SemaphoreBase) / kernel_abi::kSemaphoreStride) + ")";
    if (core < run_.core_at_l1_slot.size() && run_.core_at_l1_slot[core] != nullptr) {
        const kernel_abi::Core& state = run_.core_at_l1_slot[core]->core;
        const uint32_t address = state.l1_base + offset;
        for (uint32_t cb = 0; cb < state.num_circular_buffers; cb++) {
            const kernel_abi::CircularBuffer& b = state.cbs[cb];
            if (b.configured && address >= b.base && address < b.limit)
                return what + ": circular buffer " + std::to_string(cb) + ", page " +
                       std::to_string((address - b.base) / b.page_size) + ")";
        }
    }
    return what + ")";
}

void RaceDetector::report_unwritten(KernelThread& thread, uint32_t core, uint32_t offset, uint32_t size,
                                    const Site& site) {
    std::call_once(unwritten_noted_, [&] {
        const std::string now =
            site.call ? describe(thread, site.call, site.site) : describe_at(thread, "access", site.pc);
        std::string where = describe_range(core, offset);
        where.replace(where.find("(16 bytes"), 9, "(" + std::to_string(size) + " bytes");
        const std::string message =
            now + " reads " + where +
            ", which nothing wrote in this run: a circular buffer's pages hold only what the kernels put "
            "there (a NOC read, a pack, the kernel's own stores) before the push that hands them over";
        std::lock_guard<std::mutex> lock(unwritten_mutex_);
        unwritten_read_ = message;
    });
}

void RaceDetector::finish() const {
    std::lock_guard<std::mutex> lock(unwritten_mutex_);
    if (!unwritten_read_.empty())
        throw DeviceError(unwritten_read_);
}

void RaceDetector::report(KernelThread& thread, uint32_t core, uint32_t offset, const Granule& earlier,
                          bool earlier_write, bool write, const Site& site) {
    std::call_once(reported_, [&] {
        const uint64_t epoch = earlier_write ? earlier.write : earlier.read;
        const uint64_t earlier_site = earlier_write ? earlier.write_site : earlier.read_site;
        const std::string now =
            site.call ? describe(thread, site.call, site.site) : describe_at(thread, "access", site.pc);
        const std::string message =
            "data race on " + describe_range(core, offset) + ": " + describe_access(epoch, earlier_site) +
            (earlier_write ? ((epoch & kTag) ? " sets it" : " writes it") : " reads it") + ", and " + now +
            (write ? " writes it" : " reads it") +
            ", with nothing ordering the two (a CB push and the wait for it, a pop and the reserve after it, a "
            "semaphore written after the first and waited for before the second, or the end of a run)";
        std::lock_guard<std::mutex> lock(run_.mutex);
        abort_run_locked(run_, ErrorKind::Race, message);
    });
}

void race_access(kernel_abi::KernelContext* ctx, uint32_t addr, uint32_t size, uint32_t write, uintptr_t pc,
                 const char* call, kernel_abi::CallSite site) {
    KernelThread& thread = thread_of(ctx);
    thread.run->races->access(thread, thread.core->l1_index, addr - ctx->core->l1_base, size, write != 0, false,
                              RaceDetector::Site{pc, call, site});
}

void race_sync(kernel_abi::KernelContext* ctx, uint32_t edge, uint32_t id) {
    KernelThread& thread = thread_of(ctx);
    RaceDetector& races = *thread.run->races;
    const uint32_t core = thread.core->l1_index;
    switch (kernel_abi::SyncEdge(edge)) {
        case kernel_abi::SyncEdge::CbPush:
            return races.release(thread, RaceDetector::Sync::CbFilled, core, id);
        case kernel_abi::SyncEdge::CbWait:
            return races.acquire(thread, RaceDetector::Sync::CbFilled, core, id);
        case kernel_abi::SyncEdge::CbPop:
            return races.release(thread, RaceDetector::Sync::CbFreed, core, id);
        case kernel_abi::SyncEdge::CbReserve:
            return races.acquire(thread, RaceDetector::Sync::CbFreed, core, id);
        case kernel_abi::SyncEdge::SemaphoreWait:
            return races.acquire(thread, RaceDetector::Sync::Semaphore, core, id - ctx->core->l1_base);
    }
}

}  // namespace runtime_mock
