// The timing model's replay (see timing_model.hpp for the model).
#include "timing_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <queue>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "runtime_mock/kernel_abi/profile_event.h"

namespace runtime_mock {

namespace {

using kernel_abi::EventKind;
using kernel_abi::ProfileEvent;

constexpr uint64_t kNever = UINT64_MAX;

uint64_t cycles_for(uint64_t bytes, double bytes_per_cycle) {
    return uint64_t(std::ceil(double(bytes) / bytes_per_cycle));
}

// Where a finished wait was released from, for the trace's flow arrow.
struct FlowSource {
    bool valid = false;
    uint64_t cycle = 0;
    uint32_t core = 0;
    TraceTrack track = TraceTrack::Brisc;
};

struct Risc {
    const KernelThread* thread = nullptr;
    uint32_t core = 0;  // index into RunProfile::cores
    uint32_t role = 0;  // 0 BRISC, 1 NCRISC, 2 TRISC
    size_t next = 0;    // next event
    uint64_t clock = 0;
    bool finished = false;
    // Waiting since `blocked_since` (Partner: for a CB partner's call, or within one step for its own
    // transfers at a barrier; Semaphore: for a semaphore value); `wait` names it in RiscProfile::waits.
    enum class Block { None, Partner, Semaphore } block = Block::None;
    uint64_t blocked_since = 0;
    uint32_t wait = 0;                             // name id
    std::unordered_map<uint32_t, uint64_t> waits;  // name id -> cycles, RiscProfile::waits once finished
    SpanCategory wait_category = SpanCategory::CbWait;
    int64_t semaphore = 0;  // key, while blocked on a semaphore
    uint32_t version = 0;   // queue entries with an older version are stale
    FlowSource release;     // set when the release time is known
    uint64_t reads_done = 0, writes_done = 0;
    int64_t last_compute_span = -1;  // extendable while no wait intervenes
    int64_t last_pack_span = -1;
    // The compute core's packer (TRISC2) runs beside its math engine: it packs a DST half once the math
    // side commits it (`committed`), and the math side acquires a half again once the packer released it
    // (`half_free`, alternating halves; full-sync acquire_dst waits for the last release).
    uint64_t packer = 0, committed = 0, last_release = 0;
    uint64_t half_free[2] = {0, 0};
    uint32_t sections = 0;
    std::vector<std::pair<uint32_t, uint64_t>> zones;  // open zones: name, start
    RiscProfile* profile = nullptr;
};

struct CbEntry {
    int64_t count;     // cumulative pages pushed (or popped) after this call
    uint64_t start;    // when the call began
    uint64_t visible;  // when it ended
    uint32_t risc;
};

struct CbTimeline {
    std::vector<CbEntry> pushes, pops;
    int consumer_waiter = -1, producer_waiter = -1;
    int64_t consumer_needs = 0, producer_needs = 0;
};

struct SemaphoreWrite {
    uint64_t arrival;
    uint64_t sequence;
    bool increment;
    uint32_t value;
    FlowSource source;
};

// A semaphore word: its value once every write up to `settled_until` has arrived, and the later writes.
struct SemaphoreTimeline {
    uint32_t settled = 0;
    uint64_t settled_until = 0;
    std::vector<SemaphoreWrite> writes;  // arriving after settled_until, sorted by (arrival, sequence)
    std::vector<uint32_t> waiters;
    uint64_t last_arrival = 0;
    FlowSource last_source;

    static uint32_t apply(uint32_t value, const SemaphoreWrite& w) { return w.increment ? value + w.value : w.value; }

    // Folds the writes that arrive by `time` into `settled`: no write issued from now on arrives that early.
    void settle(uint64_t time) {
        size_t n = 0;
        while (n < writes.size() && writes[n].arrival <= time)
            settled = apply(settled, writes[n++]);
        writes.erase(writes.begin(), writes.begin() + n);
        settled_until = std::max(settled_until, time);
    }
};

struct WaitCondition {
    uint32_t value;
    bool at_least;
    bool holds(uint32_t v) const { return at_least ? v >= value : v == value; }
};

class Replay {
public:
    Replay(const RunState& run, const SemaphoreInitialValues& semaphores)
        : arch_(*run.arch), timing_(*run.arch->timing), profile_(std::make_shared<RunProfile>()) {
        for (const auto& [key, value] : semaphores)
            semaphores_[key].settled = value;
        profile_->arch = arch_.name;
        profile_->clock_ghz = timing_.clock_ghz;
        for (const auto& core : run.cores) {
            CoreProfile cp;
            cp.core = LogicalCore{core->core.logical_x, core->core.logical_y};
            profile_->cores.push_back(cp);
        }
        std::vector<const KernelThread*> threads;
        for (const auto& thread : run.threads)
            threads.push_back(thread.get());
        std::sort(threads.begin(), threads.end(), [](const KernelThread* a, const KernelThread* b) {
            return std::make_tuple(a->core->position, uint32_t(a->role)) <
                   std::make_tuple(b->core->position, uint32_t(b->role));
        });
        for (const KernelThread* thread : threads) {
            Risc risc;
            risc.thread = thread;
            risc.core = uint32_t(thread->core->position);
            risc.role = uint32_t(thread->role);
            risc.clock = timing_.kernel_launch_cycles;
            risc.profile = &profile_->cores[risc.core].riscs[risc.role];
            risc.profile->present = true;
            riscs_.push_back(std::move(risc));
        }
        cbs_.resize(run.cores.size() * kernel_abi::kMaxCircularBuffers);
        ports_.assign(size_t(arch_.grid_x) * arch_.grid_y * 2, 0);
        banks_.assign(arch_.dram_banks, 0);
        bank_bytes_per_cycle_ = timing_.dram_bandwidth_gb_s / timing_.clock_ghz / arch_.dram_banks;
    }

    std::shared_ptr<RunProfile> run() {
        for (uint32_t r = 0; r < riscs_.size(); r++)
            schedule(r, riscs_[r].clock);
        for (;;) {
            while (!queue_.empty()) {
                const auto [time, r, version] = queue_.top();
                queue_.pop();
                if (version != riscs_[r].version)
                    continue;
                advance(r, time);
            }
            if (!force_release())
                break;
        }
        for (const Risc& risc : riscs_)
            profile_->cycles = std::max(profile_->cycles, risc.clock);
        return profile_;
    }

private:
    using Entry = std::tuple<uint64_t, uint32_t, uint32_t>;  // time, risc, version

    void schedule(uint32_t r, uint64_t time) { queue_.emplace(time, r, ++riscs_[r].version); }

    // Events that claim a shared resource (a NOC port, a DRAM bank) or write or read a semaphore must be
    // replayed in time order. The others touch only the RISC's own clock, or a CB, whose waits end at
    // max(waiter's clock, partner's call) whichever side is replayed first.
    static bool ordered(EventKind kind) {
        switch (kind) {
            case EventKind::NocRead:
            case EventKind::NocWrite:
            case EventKind::NocMulticast:
            case EventKind::SemaphoreInc:
            case EventKind::SemaphoreSet:
            case EventKind::SemaphoreWait:
                return true;
            default:
                return false;
        }
    }

    // Runs RISC r from `time`; before each ordered event it yields unless it is the earliest RISC.
    void advance(uint32_t r, uint64_t time) {
        Risc& risc = riscs_[r];
        if (risc.block != Risc::Block::None)
            end_wait(risc, time);
        const std::vector<ProfileEvent>& events = risc.thread->events;
        while (!risc.finished && risc.block == Risc::Block::None) {
            if (risc.next == events.size()) {
                finish(risc);
                return;
            }
            const ProfileEvent& event = events[risc.next];
            if (ordered(event.kind) && !queue_.empty() &&
                std::make_tuple(risc.clock, r) >
                    std::make_tuple(std::get<0>(queue_.top()), std::get<1>(queue_.top()))) {
                schedule(r, risc.clock);
                return;
            }
            risc.next++;
            step(r, event);
        }
    }

    void finish(Risc& risc) {
        risc.finished = true;
        risc.clock = std::max(risc.clock, risc.packer);
        for (auto it = risc.zones.rbegin(); it != risc.zones.rend(); ++it)
            span(risc, zone_track(risc), it->second, risc.clock - it->second, it->first, SpanCategory::Zone);
        risc.zones.clear();
        risc.profile->end_cycle = risc.clock;
        for (const auto& [what, cycles] : risc.waits)
            risc.profile->waits[profile_->names[what]] = cycles;
    }

    void step(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        switch (e.kind) {
            case EventKind::Compute:
                compute(risc, e);
                break;
            case EventKind::DstSync:
                dst_sync(risc, e);
                break;
            case EventKind::CbReserve:
            case EventKind::CbWait:
                busy(risc, timing_.cb_api_cycles);
                cb_wait(r, e);
                break;
            case EventKind::CbPush:
            case EventKind::CbPop:
                cb_release(r, e);
                break;
            case EventKind::NocRead:
            case EventKind::NocWrite:
                unicast(r, e);
                break;
            case EventKind::NocMulticast:
                multicast(r, e);
                break;
            case EventKind::SemaphoreInc:
                semaphore_inc(r, e);
                break;
            case EventKind::SemaphoreSet: {
                const uint64_t start = risc.clock;
                busy(risc, timing_.semaphore_api_cycles);
                const FlowSource source = api_span(risc, start, "noc_semaphore_set");
                add_semaphore_write(semaphore_key(risc.thread->core->l1_index, e.offset), risc.clock, false, e.value,
                                    source);
                break;
            }
            case EventKind::SemaphoreWait:
                busy(risc, timing_.semaphore_api_cycles);
                semaphore_wait(r, e);
                break;
            case EventKind::NocBarrier:
                barrier(risc, e.count);
                break;
            case EventKind::ZoneBegin:
                risc.zones.emplace_back(name(e.name), risc.clock);
                break;
            case EventKind::ZoneEnd:
                if (!risc.zones.empty()) {
                    const auto [zone, start] = risc.zones.back();
                    risc.zones.pop_back();
                    span(risc, zone_track(risc), start, risc.clock - start, zone, SpanCategory::Zone);
                }
                break;
        }
    }

    // ---- compute ------------------------------------------------------------------------------------

    const OpCost& op_cost(const char* call) {
        auto it = op_costs_.find(call);
        if (it != op_costs_.end())
            return *it->second;
        const OpCost* begin = timing_.ops;
        const OpCost* end = timing_.ops + timing_.num_ops;
        const OpCost* found = std::lower_bound(
            begin, end, call, [](const OpCost& op, const char* name) { return std::strcmp(op.name, name) < 0; });
        if (found == end || std::strcmp(found->name, call) != 0) {
            throw std::logic_error(std::string("timing model: compute call '") + call + "' has no cost in " +
                                   arch_.name + ".json (compute.op_cycles_per_tile)");
        }
        op_costs_[call] = found;
        return *found;
    }

    static bool is_pack(const char* call) { return !std::strncmp(call, "pack_", 5); }

    // tile_regs_acquire / commit / wait / release (and the full-sync acquire_dst / release_dst): the
    // hand-offs of DST halves between the math engine and the packer.
    void dst_sync(Risc& risc, const ProfileEvent& e) {
        const char* call = e.name;
        if (!std::strcmp(call, "tile_regs_wait")) {  // the packer's side
            risc.packer = std::max(risc.packer, risc.committed) + timing_.dst_sync_cycles;
            return;
        }
        if (!std::strcmp(call, "tile_regs_release") || !std::strcmp(call, "release_dst")) {
            risc.last_release = std::max(risc.packer, risc.clock);
            risc.half_free[risc.sections++ % 2] = risc.last_release;
            return;
        }
        busy(risc, timing_.dst_sync_cycles);
        if (!std::strcmp(call, "tile_regs_commit")) {
            risc.committed = risc.clock;
            return;
        }
        const bool full_sync = !std::strcmp(call, "acquire_dst");
        const uint64_t free = full_sync ? risc.last_release : risc.half_free[risc.sections % 2];
        if (full_sync)  // full sync commits implicitly: the packer may start once math is done
            risc.committed = risc.clock;
        if (free > risc.clock) {
            begin_wait(risc, Risc::Block::Partner, name("tile_regs_acquire (DST held by the packer)"),
                       SpanCategory::CbWait);
            risc.release = FlowSource{};
            end_wait(risc, free);
        }
    }

    // A pack runs on the packer's clock, from when its DST half was committed.
    void pack(Risc& risc, const ProfileEvent& e, uint64_t cycles, uint32_t id) {
        const uint64_t start = std::max(risc.packer, risc.committed);
        if (risc.last_pack_span >= 0 && profile_->spans[risc.last_pack_span].name == id &&
            profile_->spans[risc.last_pack_span].start + profile_->spans[risc.last_pack_span].duration == start) {
            profile_->spans[risc.last_pack_span].duration += cycles;
        } else if (cycles > 0) {
            span(risc, TraceTrack::TriscPack, start, cycles, id, SpanCategory::Compute);
            risc.last_pack_span = int64_t(profile_->spans.size()) - 1;
        }
        risc.packer = start + cycles;
        (void)e;
    }

    void compute(Risc& risc, const ProfileEvent& e) {
        const OpCost& cost = op_cost(e.name);
        const uint32_t fidelity = std::min<uint32_t>(risc.thread->math_fidelity, 4);
        uint64_t per_tile = cost.cycles[fidelity];
        const bool moves_tiles = !std::strcmp(e.name, "copy_tile") || !std::strncmp(e.name, "pack_tile", 9) ||
                                 !std::strcmp(e.name, "tilize_block") || !std::strcmp(e.name, "untilize_block");
        if (moves_tiles && e.format == uint8_t(DataFormat::Float32))
            per_tile *= timing_.float32_unpack_pack_factor;
        if (!std::strncmp(e.name, "matmul_", 7))
            profile_->matmul_tiles += e.count;
        const uint64_t cycles = per_tile * e.count;
        const uint32_t id = name(e.name);
        if (is_pack(e.name)) {
            pack(risc, e, cycles, id);
            return;
        }
        if (risc.last_compute_span >= 0 && profile_->spans[risc.last_compute_span].name == id) {
            TraceSpan& last = profile_->spans[risc.last_compute_span];
            last.duration = risc.clock + cycles - last.start;
        } else if (cycles > 0) {
            span(risc, TraceTrack(risc.role), risc.clock, cycles, id, SpanCategory::Compute);
            risc.last_compute_span = int64_t(profile_->spans.size()) - 1;
        }
        busy(risc, cycles);
    }

    // ---- circular buffers ---------------------------------------------------------------------------

    CbTimeline& cb(const Risc& risc, uint32_t index) {
        return cbs_[size_t(risc.core) * kernel_abi::kMaxCircularBuffers + index];
    }

    enum class CbCall { WaitFront, ReserveBack, PushBack };

    // "cb_wait_front cb 3" and the like, named once per run.
    uint32_t cb_name(CbCall call, uint32_t index) {
        uint32_t& id = cb_names_[size_t(call) * kernel_abi::kMaxCircularBuffers + index];
        if (id == 0) {
            static const char* const calls[] = {"cb_wait_front cb ", "cb_reserve_back cb ", "cb_push_back cb "};
            id = name(std::string(calls[size_t(call)]) + std::to_string(index)) + 1;
        }
        return id - 1;
    }

    FlowSource flow_from(const CbEntry& push) const {
        const Risc& pusher = riscs_[push.risc];
        return FlowSource{true, push.start, pusher.core, TraceTrack(pusher.role)};
    }

    static const CbEntry* reaching(const std::vector<CbEntry>& entries, int64_t count) {
        auto it = std::lower_bound(entries.begin(), entries.end(), count,
                                   [](const CbEntry& e, int64_t c) { return e.count < c; });
        return it == entries.end() ? nullptr : &*it;
    }

    void cb_wait(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        const bool consumer = e.kind == EventKind::CbWait;
        CbTimeline& timeline = cb(risc, e.cb);
        if (e.target <= 0)
            return;
        const uint32_t what = cb_name(consumer ? CbCall::WaitFront : CbCall::ReserveBack, e.cb);
        if (const CbEntry* entry = reaching(consumer ? timeline.pushes : timeline.pops, e.target)) {
            if (entry->visible > risc.clock) {
                begin_wait(risc, Risc::Block::Partner, what, SpanCategory::CbWait);
                risc.release = consumer ? flow_from(*entry) : FlowSource{};
                end_wait(risc, entry->visible);
            }
            return;
        }
        begin_wait(risc, Risc::Block::Partner, what, SpanCategory::CbWait);
        (consumer ? timeline.consumer_waiter : timeline.producer_waiter) = int(r);
        (consumer ? timeline.consumer_needs : timeline.producer_needs) = e.target;
    }

    void cb_release(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        const bool push = e.kind == EventKind::CbPush;
        const uint64_t start = risc.clock;
        busy(risc, timing_.cb_api_cycles);
        if (push) {
            span(risc, TraceTrack(risc.role), start, timing_.cb_api_cycles, cb_name(CbCall::PushBack, e.cb),
                 SpanCategory::Api);
        }
        CbTimeline& timeline = cb(risc, e.cb);
        // A compute kernel pushes pages its packer fills: they are there once the packer is done.
        const uint64_t visible = push && risc.role == 2 ? std::max(risc.clock, risc.packer) : risc.clock;
        const CbEntry entry{e.target, start, visible, r};
        (push ? timeline.pushes : timeline.pops).push_back(entry);
        int& waiter = push ? timeline.consumer_waiter : timeline.producer_waiter;
        const int64_t needs = push ? timeline.consumer_needs : timeline.producer_needs;
        if (waiter >= 0 && e.target >= needs) {
            Risc& blocked = riscs_[waiter];
            blocked.release = push ? flow_from(entry) : FlowSource{};
            schedule(uint32_t(waiter), std::max(blocked.blocked_since, visible));
            waiter = -1;
        }
    }

    // ---- NOC ----------------------------------------------------------------------------------------

    uint64_t& port(uint32_t l1_index, uint32_t noc) { return ports_[size_t(l1_index) * 2 + (noc & 1)]; }

    // Claims each resource from `issue` on, independently: a transfer queued behind others at a DRAM bank
    // does not hold the reader's port, whose other transfers (to other banks) go on. The transfer is done
    // when its slowest resource has moved it, plus the latency. Returns (start on the first resource, which
    // is the issuer's own port, and completion).
    std::pair<uint64_t, uint64_t> claim(uint64_t issue, std::initializer_list<std::pair<uint64_t*, uint64_t>> uses) {
        uint64_t own_start = issue, finish = issue;
        bool first = true;
        for (const auto& [free, cycles] : uses) {
            const uint64_t start = std::max(issue, *free);
            *free = start + cycles;
            finish = std::max(finish, start + cycles);
            if (first)
                own_start = start;
            first = false;
        }
        return {own_start, finish + timing_.noc_latency_cycles};
    }

    void unicast(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        const bool read = e.kind == EventKind::NocRead;
        const uint32_t noc = risc.thread->ctx.noc_index;
        const uint32_t self = risc.thread->core->l1_index;
        const int64_t remote = read ? e.target : int64_t(e.detail);
        const uint64_t issue = risc.clock;
        busy(risc, timing_.noc_issue_cycles);
        uint64_t& own = port(self, noc);
        std::pair<uint64_t, uint64_t> timing;
        uint64_t own_cycles;
        if (remote >= kDramNode) {
            const uint64_t bank = uint64_t(remote - kDramNode);
            own_cycles =
                cycles_for(e.count, read ? timing_.dram_read_bytes_per_cycle : timing_.dram_write_bytes_per_cycle);
            timing = claim(issue, {{&own, own_cycles}, {&banks_[bank], cycles_for(e.count, bank_bytes_per_cycle_)}});
            (read ? profile_->dram_bytes_read : profile_->dram_bytes_written) += e.count;
        } else {
            own_cycles = cycles_for(e.count, timing_.one_to_one_bytes_per_cycle);
            if (uint32_t(remote) == self) {
                timing = claim(issue, {{&own, own_cycles}});
            } else {
                timing = claim(issue, {{&own, own_cycles}, {&port(uint32_t(remote), noc), own_cycles}});
            }
        }
        profile_->noc_bytes += e.count;
        span(risc, TraceTrack(uint32_t(TraceTrack::Noc0) + (noc & 1)), timing.first, own_cycles,
             name(read ? (remote >= kDramNode ? "read from DRAM" : "read from core")
                       : (remote >= kDramNode ? "write to DRAM" : "write to core")),
             SpanCategory::NocTransfer);
        uint64_t& done = read ? risc.reads_done : risc.writes_done;
        done = std::max(done, timing.second);
        if (!read && (e.format & kernel_abi::kSemaphoreWrite)) {
            const FlowSource source = api_span(risc, issue, "noc_semaphore_set_remote");
            add_semaphore_write(semaphore_key(uint32_t(remote), e.offset), timing.second, false, e.value, source);
        }
    }

    void multicast(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        const uint32_t noc = risc.thread->ctx.noc_index;
        const uint32_t self = risc.thread->core->l1_index;
        const uint64_t issue = risc.clock;
        busy(risc, timing_.noc_issue_cycles);
        const uint32_t destinations = e.cb;
        const bool linked = e.format & kernel_abi::kLinked;
        const uint64_t own_cycles =
            cycles_for(e.count, linked ? timing_.linked_multicast_bytes_per_cycle : timing_.multicast_bytes_per_cycle);
        const auto [start, arrival] = claim(issue, {{&port(self, noc), own_cycles}});
        const uint64_t completion = arrival + uint64_t(destinations) * timing_.multicast_per_destination_cycles;
        profile_->noc_bytes += uint64_t(e.count) * destinations;
        span(risc, TraceTrack(uint32_t(TraceTrack::Noc0) + (noc & 1)), start, own_cycles, name("multicast"),
             SpanCategory::NocTransfer);
        risc.writes_done = std::max(risc.writes_done, completion);
        if (!(e.format & kernel_abi::kSemaphoreWrite))
            return;
        const FlowSource source = api_span(risc, issue, "noc_semaphore_set_multicast");
        const uint32_t x0 = e.detail & 0xff, y0 = (e.detail >> 8) & 0xff;
        const uint32_t x1 = (e.detail >> 16) & 0xff, y1 = (e.detail >> 24) & 0xff;
        const bool loopback = e.format & kernel_abi::kLoopback;
        for (uint32_t y = y0; y <= y1; y++) {
            for (uint32_t x = x0; x <= x1; x++) {
                const uint32_t core = (y - 1) * arch_.grid_x + (x - 1);
                if (core == self && !loopback)
                    continue;
                add_semaphore_write(semaphore_key(core, e.offset), completion, false, e.value, source);
            }
        }
    }

    void barrier(Risc& risc, uint32_t which) {
        uint64_t until = 0;
        if (which & 1)
            until = std::max(until, risc.reads_done);
        if (which & 2)
            until = std::max(until, risc.writes_done);
        if (until <= risc.clock)
            return;
        const char* what = which == 3   ? "noc_async_full_barrier"
                           : which == 1 ? "noc_async_read_barrier"
                                        : "noc_async_write_barrier";
        begin_wait(risc, Risc::Block::Partner, name(what), SpanCategory::NocBarrier);
        risc.release = FlowSource{};
        end_wait(risc, until);
    }

    // ---- semaphores ---------------------------------------------------------------------------------

    void semaphore_inc(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        const uint32_t noc = risc.thread->ctx.noc_index;
        const uint64_t issue = risc.clock;
        busy(risc, timing_.noc_issue_cycles);
        const uint64_t cycles = cycles_for(4, timing_.one_to_one_bytes_per_cycle);
        const auto [start, arrival] = claim(issue, {{&port(risc.thread->core->l1_index, noc), cycles}});
        (void)start;
        const FlowSource source = api_span(risc, issue, "noc_semaphore_inc");
        add_semaphore_write(semaphore_key(uint32_t(e.target), e.offset), arrival, true, e.value, source);
    }

    void add_semaphore_write(int64_t key, uint64_t arrival, bool increment, uint32_t value, FlowSource source) {
        SemaphoreTimeline& sem = semaphores_[key];
        const SemaphoreWrite write{arrival, write_sequence_++, increment, value, source};
        auto at = std::upper_bound(sem.writes.begin(), sem.writes.end(), write, [](const auto& a, const auto& b) {
            return std::tie(a.arrival, a.sequence) < std::tie(b.arrival, b.sequence);
        });
        sem.writes.insert(at, write);
        if (arrival >= sem.last_arrival) {
            sem.last_arrival = arrival;
            sem.last_source = source;
        }
        for (uint32_t waiter : sem.waiters)
            reconsider(waiter);
    }

    // The first time >= `from` (>= the word's settled time) at which the word meets `condition`, and the
    // write that made it so (null if it already held at `from`).
    static std::pair<uint64_t, const SemaphoreWrite*> satisfied_at(const SemaphoreTimeline& sem,
                                                                   WaitCondition condition, uint64_t from) {
        uint32_t value = sem.settled;
        size_t i = 0;
        for (; i < sem.writes.size() && sem.writes[i].arrival <= from; i++)
            value = SemaphoreTimeline::apply(value, sem.writes[i]);
        if (condition.holds(value))
            return {from, nullptr};
        for (; i < sem.writes.size(); i++) {
            value = SemaphoreTimeline::apply(value, sem.writes[i]);
            if (condition.holds(value))
                return {sem.writes[i].arrival, &sem.writes[i]};
        }
        return {kNever, nullptr};
    }

    void semaphore_wait(uint32_t r, const ProfileEvent& e) {
        Risc& risc = riscs_[r];
        const int64_t key = semaphore_key(risc.thread->core->l1_index, e.offset);
        SemaphoreTimeline& sem = semaphores_[key];
        // This RISC is the earliest (SemaphoreWait is ordered): every write arriving by now is known.
        if (sem.waiters.empty())
            sem.settle(risc.clock);
        const WaitCondition condition{e.value, e.format != 0};
        if (satisfied_at(sem, condition, risc.clock).first == risc.clock)
            return;
        begin_wait(risc, Risc::Block::Semaphore, name("semaphore"), SpanCategory::Semaphore);
        risc.semaphore = key;
        waiting_for_[r] = condition;
        sem.waiters.push_back(r);
        reconsider(r);
    }

    // Re-evaluates a semaphore waiter after a write: queue it at the time the word first meets its
    // condition, or take it off the queue if no known write makes it so.
    void reconsider(uint32_t r) {
        Risc& risc = riscs_[r];
        const SemaphoreTimeline& sem = semaphores_[risc.semaphore];
        const auto [time, write] = satisfied_at(sem, waiting_for_[r], risc.blocked_since);
        if (time == kNever) {
            risc.version++;
            return;
        }
        risc.release = write ? write->source : FlowSource{};
        schedule(r, time);
    }

    // Every runnable RISC is done but some wait never ended in modelled time: release the earliest-blocked
    // one at its word's last write (or where it blocked). Returns false when every RISC has finished.
    bool force_release() {
        int chosen = -1;
        for (uint32_t r = 0; r < riscs_.size(); r++) {
            const Risc& risc = riscs_[r];
            if (!risc.finished && risc.block != Risc::Block::None &&
                (chosen < 0 || risc.blocked_since < riscs_[chosen].blocked_since))
                chosen = int(r);
        }
        if (chosen < 0)
            return false;
        Risc& risc = riscs_[chosen];
        uint64_t time = risc.blocked_since;
        risc.release = FlowSource{};
        if (risc.block == Risc::Block::Semaphore) {
            const SemaphoreTimeline& sem = semaphores_[risc.semaphore];
            if (sem.last_arrival > time) {
                time = sem.last_arrival;
                risc.release = sem.last_source;
            }
        }
        profile_->forced_waits++;
        schedule(uint32_t(chosen), time);
        return true;
    }

    // ---- waits, spans, names ------------------------------------------------------------------------

    void begin_wait(Risc& risc, Risc::Block block, uint32_t what, SpanCategory category) {
        risc.block = block;
        risc.blocked_since = risc.clock;
        risc.wait = what;
        risc.wait_category = category;
    }

    void end_wait(Risc& risc, uint64_t time) {
        if (risc.block == Risc::Block::Semaphore) {
            auto& waiters = semaphores_[risc.semaphore].waiters;
            waiters.erase(std::remove(waiters.begin(), waiters.end(), uint32_t(&risc - riscs_.data())), waiters.end());
        }
        const uint64_t waited = time > risc.blocked_since ? time - risc.blocked_since : 0;
        risc.block = Risc::Block::None;
        risc.clock = std::max(risc.clock, time);
        if (waited == 0)
            return;
        risc.waits[risc.wait] += waited;
        span(risc, TraceTrack(risc.role), risc.blocked_since, waited, risc.wait, risc.wait_category);
        if (risc.release.valid) {
            profile_->flows.push_back(TraceFlow{risc.release.cycle, risc.release.core, risc.release.track, time,
                                                risc.core, TraceTrack(risc.role)});
        }
    }

    void busy(Risc& risc, uint64_t cycles) {
        risc.clock += cycles;
        risc.profile->busy_cycles += cycles;
    }

    // A span for an API call that may release a wait (a flow starts in it).
    FlowSource api_span(Risc& risc, uint64_t start, const char* call) {
        const uint64_t duration = std::max<uint64_t>(risc.clock - start, 1);
        span(risc, TraceTrack(risc.role), start, duration, name(call), SpanCategory::Api);
        return FlowSource{true, start, risc.core, TraceTrack(risc.role)};
    }

    static TraceTrack zone_track(const Risc& risc) { return TraceTrack(uint32_t(TraceTrack::ZonesBrisc) + risc.role); }

    // Adds a span; one on the RISC's own track ends the compute span that later compute may extend.
    void span(Risc& risc, TraceTrack track, uint64_t start, uint64_t duration, uint32_t id, SpanCategory category) {
        if (duration == 0)
            return;
        if (track == TraceTrack(risc.role))
            risc.last_compute_span = -1;
        profile_->spans.push_back(TraceSpan{start, duration, id, risc.core, track, category});
    }

    uint32_t name(const std::string& text) {
        auto [it, inserted] = names_.emplace(text, uint32_t(profile_->names.size()));
        if (inserted)
            profile_->names.push_back(text);
        return it->second;
    }

    uint32_t name(const char* text) {
        auto it = name_pointers_.find(text);
        if (it != name_pointers_.end())
            return it->second;
        return name_pointers_[text] = name(std::string(text ? text : "?"));
    }

    const ArchSpec& arch_;
    const TimingConstants& timing_;
    std::shared_ptr<RunProfile> profile_;
    std::vector<Risc> riscs_;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue_;
    std::vector<CbTimeline> cbs_;
    std::map<int64_t, SemaphoreTimeline> semaphores_;
    std::unordered_map<uint32_t, WaitCondition> waiting_for_;
    uint64_t write_sequence_ = 0;
    std::vector<uint64_t> ports_, banks_;
    double bank_bytes_per_cycle_ = 1;
    std::unordered_map<const char*, const OpCost*> op_costs_;
    std::unordered_map<std::string, uint32_t> names_;
    std::unordered_map<const char*, uint32_t> name_pointers_;
    std::vector<uint32_t> cb_names_ = std::vector<uint32_t>(3 * kernel_abi::kMaxCircularBuffers);  // id + 1
};

}  // namespace

std::shared_ptr<RunProfile> replay_timing(const RunState& run, const SemaphoreInitialValues& semaphores) {
    return Replay(run, semaphores).run();
}

}  // namespace runtime_mock
