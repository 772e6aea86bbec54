// Device: owns DRAM and L1, and runs programs: validate the ProgramSpec, build and load its kernels,
// lay out each core's L1 (runtime args, semaphores, circular buffers), then execute the kernel threads;
// when profiling (profile.hpp), replay the run's timing record afterwards.
#include "runtime_mock/device.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>

#include "config.hpp"
#include "jit.hpp"
#include "scheduler.hpp"
#include "runtime_mock/profile.hpp"
#include "scrubber.hpp"
#include "timing_model.hpp"
#include "runtime_mock/kernel_abi/noc.h"
#include "runtime_mock/kernel_abi/tile_format.h"

namespace runtime_mock {

namespace {

std::string core_name(LogicalCore core) {
    return "(" + std::to_string(core.x) + "," + std::to_string(core.y) + ")";
}

void check_core(const ArchSpec& arch, LogicalCore core, const std::string& what) {
    if (core.x >= arch.grid_x || core.y >= arch.grid_y) {
        throw ArgumentError(what + " uses core " + core_name(core) + " outside the " + std::to_string(arch.grid_x) +
                            "x" + std::to_string(arch.grid_y) + " compute grid of " + arch.name);
    }
}

}  // namespace

struct Device::Impl {
    const ArchSpec& arch;
    Dram dram;
    L1 l1;
    std::vector<CoreCounters> counters;
    std::shared_ptr<const RunProfile> last_profile;
    // Set when a run abandoned kernel threads: they may still write this device's L1, so its contents
    // can no longer be trusted.
    bool abandoned_threads = false;
    // Buffers created so far: errors name a buffer by this ordinal ("DRAM buffer #1"), which a program
    // that creates its buffers in a known order (one per tensor, in parameter order) maps to its tensors.
    uint32_t buffers_created = 0;

    explicit Impl(Arch a)
        : arch(arch_spec(a)),
          dram(arch.dram_banks, arch.dram_bank_bytes, arch.dram_alignment),
          l1(arch.grid_x * arch.grid_y, arch.l1_bytes, arch.l1_reserved_bytes) {}

    // The bank address (L1 offset) of an L1 buffer address handed out by allocate_l1, which is a pointer
    // value into the L1 of core (0,0), the core of bank 0.
    uint64_t l1_bank_address(uint64_t address) const {
        const auto location = l1.locate(address);
        if (!location || location->core != 0) {
            throw NocAccessError("L1 buffer address " + std::to_string(address) +
                                 " was not returned by allocate_l1 (it is not an address in the L1 of core (0,0))");
        }
        return location->offset;
    }

    // Calls f(bank, bank_address, host_offset, bytes) for every page of a host access (`what`: "read",
    // "write") of the first `size_bytes` bytes of the interleaved buffer at `address`, after checking that
    // a buffer starts there, that its page size is `page_size` and that it holds `size_bytes` bytes.
    template <typename F>
    void for_each_page(BufferKind kind, uint64_t address, uint32_t page_size, size_t size_bytes, const char* what,
                       F f) const {
        const BankAllocator& allocator = kind == BufferKind::Dram ? dram.buffers() : l1.buffers();
        const uint64_t base = kind == BufferKind::Dram ? address : l1_bank_address(address);
        const std::string access = std::string("host ") + what + " of " + std::to_string(size_bytes) + " bytes";
        const InterleavedBuffer* found = allocator.starting_at(base);
        if (!found)
            throw NocAccessError(access + ": " + allocator.no_buffer_at(base));
        const InterleavedBuffer& buffer = *found;
        if (page_size != buffer.page_size) {
            throw NocAccessError(access + " in pages of " + std::to_string(page_size) + " B: the " +
                                 allocator.describe(buffer) + " has pages of " + std::to_string(buffer.page_size) +
                                 " B");
        }
        if (size_bytes > buffer.size_bytes) {
            throw NocAccessError(access + " does not fit the " + allocator.describe(buffer) + ", which holds " +
                                 std::to_string(buffer.size_bytes) + " bytes");
        }
        for (size_t offset = 0, page = 0; offset < size_bytes; offset += page_size, page++) {
            const size_t bytes = std::min<size_t>(page_size, size_bytes - offset);
            f(uint32_t(page % allocator.banks()), base + (page / allocator.banks()) * buffer.aligned_page_size, offset,
              bytes);
        }
    }

    // Calls f(core's L1 slot, bank address, host_offset, bytes) for every page of a host access (`what`)
    // of the first `size_bytes` bytes of the sharded L1 buffer at `address`, placed by `placement`, after
    // the checks Device::write_sharded states.
    template <typename F>
    void for_each_shard_page(uint64_t address, uint32_t page_size, const std::vector<Device::ShardPage>& placement,
                             size_t size_bytes, const char* what, F f) const {
        const uint64_t base = l1_bank_address(address);
        const std::string access = std::string("host ") + what + " of " + std::to_string(size_bytes) + " bytes";
        const InterleavedBuffer* buffer = l1.buffers().starting_at(base);
        if (!buffer)
            throw NocAccessError(access + ": " + l1.buffers().no_buffer_at(base));
        const std::string described = l1.buffers().describe(*buffer);
        if (buffer->shard_pages == 0)
            throw NocAccessError(access + " by shards: the " + described + " is interleaved, not sharded");
        if (page_size != buffer->page_size) {
            throw NocAccessError(access + " in pages of " + std::to_string(page_size) + " B: the " + described +
                                 " has pages of " + std::to_string(buffer->page_size) + " B");
        }
        const size_t pages = (size_bytes + page_size - 1) / page_size;
        if (pages > placement.size()) {
            throw NocAccessError(access + " of the " + described + ": the shard layout places only " +
                                 std::to_string(placement.size()) + " of its " + std::to_string(pages) + " pages");
        }
        for (size_t page = 0; page < pages; page++) {
            const Device::ShardPage& at = placement[page];
            check_core(arch, at.core, access + " (page " + std::to_string(page) + ")");
            if (at.page >= buffer->shard_pages) {
                throw NocAccessError(access + ": page " + std::to_string(page) + " is placed at page " +
                                     std::to_string(at.page) + " of core " + core_name(at.core) + "'s shard, but the " +
                                     described + " holds " + std::to_string(buffer->shard_pages) + " there");
            }
            const size_t offset = page * page_size;
            f(at.core.y * arch.grid_x + at.core.x, base + uint64_t(at.page) * buffer->aligned_page_size, offset,
              std::min<size_t>(page_size, size_bytes - offset));
        }
    }

    // The L1 offset of a globally allocated CB: the start of the L1 buffer it names, which must hold the
    // CB's bytes on each core (`what` names the config in errors).
    uint64_t globally_allocated_cb_address(const CircularBufferSpec& cb, const std::string& what) const {
        const uint64_t offset = l1_bank_address(cb.buffer_address);
        const InterleavedBuffer* buffer = l1.buffers().starting_at(offset);
        if (!buffer)
            throw ArgumentError(what + " is globally allocated on no L1 buffer: " + l1.buffers().no_buffer_at(offset));
        if (cb.total_size > buffer->bytes_per_bank) {
            throw ArgumentError(what + " (" + std::to_string(cb.total_size) + " bytes) is globally allocated in the " +
                                l1.buffers().describe(*buffer) + ", which holds " +
                                std::to_string(buffer->bytes_per_bank) + " bytes on each core");
        }
        return offset;
    }

    void run(const ProgramSpec& program);
};

namespace {

uint32_t role_index(KernelRole role) {
    return uint32_t(role);
}

}  // namespace

void Device::Impl::run(const ProgramSpec& program) {
    if (abandoned_threads) {
        throw DeviceError(
            "this device cannot run programs: kernel threads of an earlier failed run never returned and may still "
            "write its L1; create a new Device");
    }
    auto owner = std::make_unique<RunState>();
    RunState& run = *owner;
    run.arch = &arch;
    run.l1 = &l1;
    run.dram = &dram;
    run.schedule_seed = config::schedule_seed();
    run.functions = runtime_functions(run.schedule_seed.has_value());
    const bool recording = ProfilingSession::recording_on_this_thread();
    SemaphoreInitialValues semaphore_values;

    // Cores taking part, in a stable order.
    std::map<LogicalCore, CoreRun*> cores;
    auto core_run = [&](LogicalCore logical, const std::string& what) {
        check_core(arch, logical, what);
        auto it = cores.find(logical);
        if (it != cores.end())
            return it->second;
        auto created = std::make_unique<CoreRun>();
        kernel_abi::Core& c = created->core;
        created->l1_index = logical.y * arch.grid_x + logical.x;
        c.logical_x = logical.x;
        c.logical_y = logical.y;
        c.my_x[0] = c.my_x[1] = uint8_t(kernel_abi::worker_noc_x(logical.x));
        c.my_y[0] = c.my_y[1] = uint8_t(kernel_abi::worker_noc_y(logical.y));
        c.grid_x = arch.grid_x;
        c.grid_y = arch.grid_y;
        c.num_dram_banks = arch.dram_banks;
        c.dram_alignment = arch.dram_alignment;
        c.l1_base = l1.address(created->l1_index, 0);
        c.l1_size = arch.l1_bytes;
        c.semaphore_base = l1.address(created->l1_index, kL1SemaphoreBase);
        c.num_circular_buffers = arch.num_circular_buffers;
        CoreRun* raw = created.get();
        created->position = run.cores.size();
        run.core_at_l1_slot.resize(size_t(arch.grid_x) * arch.grid_y, nullptr);
        run.core_at_l1_slot[created->l1_index] = raw;
        run.cores.push_back(std::move(created));
        return cores[logical] = raw;
    };

    // Circular buffers: same address on every core of a config, above the reserved area.
    std::map<LogicalCore, uint32_t> cb_top;
    for (size_t i = 0; i < program.circular_buffers.size(); i++) {
        const CircularBufferSpec& cb = program.circular_buffers[i];
        const std::string what = "circular buffer config #" + std::to_string(i);
        uint32_t address = arch.l1_reserved_bytes;
        for (LogicalCore core : cb.cores) {
            core_run(core, what);
            auto it = cb_top.find(core);
            if (it != cb_top.end() && cb.buffer_address == 0)
                address = std::max(address, it->second);
        }
        if (cb.buffer_address != 0) {
            address = uint32_t(globally_allocated_cb_address(cb, what));
        } else {
            address = kernel_abi::align_up(address, 32);
            if (uint64_t(address) + cb.total_size > l1.buffers().lowest()) {
                throw ArgumentError(
                    what + " (" + std::to_string(cb.total_size) + " bytes at L1 " + std::to_string(address) +
                    ") does not fit in L1: " + std::to_string(l1.buffers().lowest() - arch.l1_reserved_bytes) +
                    " bytes are available for circular buffers");
            }
        }
        for (LogicalCore core : cb.cores) {
            if (cb.buffer_address == 0)
                cb_top[core] = address + cb.total_size;
            CoreRun* cr = cores[core];
            for (const auto& index : cb.indices) {
                if (index.index >= arch.num_circular_buffers) {
                    throw ArgumentError(what + " uses CB index " + std::to_string(index.index) + "; " + arch.name +
                                        " has " + std::to_string(arch.num_circular_buffers));
                }
                kernel_abi::CircularBuffer& b = cr->core.cbs[index.index];
                if (b.configured) {
                    throw ArgumentError("CB index " + std::to_string(index.index) + " is configured twice on core " +
                                        core_name(core));
                }
                if (index.page_size == 0 || cb.total_size % index.page_size != 0) {
                    throw ArgumentError(what + ": total size " + std::to_string(cb.total_size) +
                                        " is not a multiple of the page size " + std::to_string(index.page_size) +
                                        " of CB index " + std::to_string(index.index));
                }
                b.configured = 1;
                b.base = b.wr_ptr = b.rd_ptr = l1.address(cr->l1_index, address);
                b.limit = b.base + cb.total_size;
                b.num_pages = cb.total_size / index.page_size;
                b.page_size = index.page_size;
                b.format = uint32_t(index.format);
                b.globally_allocated = cb.buffer_address != 0;
            }
        }
    }

    for (const SemaphoreSpec& sem : program.semaphores) {
        if (sem.id >= kernel_abi::kMaxSemaphores) {
            throw ArgumentError("semaphore id " + std::to_string(sem.id) + " is over the limit of " +
                                std::to_string(kernel_abi::kMaxSemaphores));
        }
        for (LogicalCore core : sem.cores) {
            CoreRun* cr = core_run(core, "semaphore " + std::to_string(sem.id));
            if (cr->core.semaphore_mask & (1u << sem.id)) {
                throw ArgumentError("semaphore " + std::to_string(sem.id) + " is created twice on core " +
                                    core_name(core));
            }
            cr->core.semaphore_mask |= 1u << sem.id;
            uint8_t* word = l1.core_memory(cr->l1_index) + kL1SemaphoreBase + sem.id * kernel_abi::kSemaphoreStride;
            std::memcpy(word, &sem.initial_value, 4);
            semaphore_values[semaphore_key(cr->l1_index, kL1SemaphoreBase + sem.id * kernel_abi::kSemaphoreStride)] =
                sem.initial_value;
        }
    }

    // Kernels: build, load, and one kernel thread (a fiber) per (core, role).
    const std::vector<std::string> objects = build_kernels(kernel_builds(program, arch));

    std::set<std::pair<LogicalCore, uint32_t>> roles_taken;
    for (size_t k = 0; k < program.kernels.size(); k++) {
        const KernelSpec& kernel = program.kernels[k];
        const LoadedKernel loaded = load_kernel(objects[k], kernel.source_path);
        for (const auto& [core, args] : kernel.runtime_args) {
            if (std::find(kernel.cores.begin(), kernel.cores.end(), core) == kernel.cores.end()) {
                throw ArgumentError("runtime args set for core " + core_name(core) + " where kernel " +
                                    kernel.source_path + " does not run");
            }
        }
        for (LogicalCore core : kernel.cores) {
            CoreRun* cr = core_run(core, "kernel " + kernel.source_path);
            if (!roles_taken.insert({core, role_index(kernel.role)}).second) {
                throw ArgumentError("core " + core_name(core) + " has two " + role_name(kernel.role) +
                                    " kernels (the second is " + kernel.source_path + ")");
            }
            auto args_it = kernel.runtime_args.find(core);
            const std::vector<uint32_t> no_args;
            const std::vector<uint32_t>& args = args_it == kernel.runtime_args.end() ? no_args : args_it->second;
            if (args.size() + kernel.common_runtime_args.size() > kernel_abi::kMaxRuntimeArgs) {
                throw ArgumentError("kernel " + kernel.source_path + " on core " + core_name(core) + " has " +
                                    std::to_string(args.size() + kernel.common_runtime_args.size()) +
                                    " runtime args (unique + common); the limit is 341");
            }
            const uint32_t args_offset = kL1ArgsBase + role_index(kernel.role) * kL1ArgsStride;
            uint8_t* memory = l1.core_memory(cr->l1_index);
            std::memcpy(memory + args_offset, args.data(), args.size() * 4);
            std::memcpy(memory + args_offset + kL1CommonArgsOffset, kernel.common_runtime_args.data(),
                        kernel.common_runtime_args.size() * 4);

            auto thread = std::make_unique<KernelThread>();
            KernelThread& t = *thread;
            t.run = &run;
            t.core = cr;
            t.role = kernel.role;
            t.source_path = kernel.source_path;
            t.entry = loaded.entry;
            t.resume = loaded.resume;
            t.ctx.abi_layout = kernel_abi::kKernelAbiLayout;
            t.ctx.fn = &run.functions;
            t.ctx.thread = &t;
            t.ctx.core = &cr->core;
            t.ctx.role = kernel_abi::Role(role_index(kernel.role));
            t.ctx.noc_index = kernel.noc;
            t.ctx.args = reinterpret_cast<const uint32_t*>(memory + args_offset);
            t.ctx.num_args = uint32_t(args.size());
            t.ctx.common_args = reinterpret_cast<const uint32_t*>(memory + args_offset + kL1CommonArgsOffset);
            t.ctx.num_common_args = uint32_t(kernel.common_runtime_args.size());
            t.ctx.recording = recording ? 1 : 0;
            t.ctx.poisoned_l1 = l1.poisoned() ? 1 : 0;
            t.math_fidelity = uint32_t(kernel.compute.math_fidelity);
            if (kernel.role == KernelRole::Compute) {
                t.dst = allocate_dst(arch, kernel.compute);
                t.ctx.compute.dst = t.dst.tiles.get();
                t.ctx.compute.dst_capacity = t.dst.capacity;
                t.ctx.compute.fp32_dest_acc = kernel.compute.fp32_dest_acc_en;
            }
            t.index = uint32_t(run.threads.size());
            cr->threads.push_back(&t);
            run.threads.push_back(std::move(thread));
        }
    }
    if (config::race_detection()) {
        run.races = std::make_unique<RaceDetector>(run);
        for (auto& thread : run.threads)
            thread->ctx.race_detection = 1;
    }

    counters.clear();
    last_profile.reset();
    try {
        execute(owner, config::watchdog_seconds());
        if (run.races)
            run.races->finish();
    } catch (const DeviceError&) {
        abandoned_threads = owner == nullptr;
        throw;
    }
    for (const auto& [logical, cr] : cores) {
        CoreCounters c;
        c.core = logical;
        for (const auto& thread : run.threads) {
            if (thread->core != cr)
                continue;
            c.tiles_read += thread->ctx.counters.tiles_read;
            c.tiles_written += thread->ctx.counters.tiles_written;
            c.noc_bytes_read += thread->ctx.counters.noc_bytes_read;
            c.noc_bytes_written += thread->ctx.counters.noc_bytes_written;
            c.cb_waits += thread->ctx.counters.cb_waits;
        }
        counters.push_back(c);
    }
    if (recording) {
        last_profile = replay_timing(run, semaphore_values);
        ProfilingSession::deliver(last_profile);
    }
}

Device::Device(Arch arch) : impl_(std::make_unique<Impl>(arch)) {}
Device::~Device() = default;

const ArchSpec& Device::spec() const {
    return impl_->arch;
}

uint64_t Device::allocate_dram(uint64_t size_bytes, uint32_t page_size) {
    return impl_->dram.allocate(size_bytes, page_size, impl_->buffers_created++).address;
}

uint64_t Device::allocate_l1(uint64_t size_bytes, uint32_t page_size) {
    const uint32_t ordinal = impl_->buffers_created++;
    return impl_->l1.address(0, uint32_t(impl_->l1.buffers().allocate(size_bytes, page_size, ordinal).address));
}

uint64_t Device::allocate_l1_sharded(uint32_t pages_per_core, uint32_t page_size) {
    if (pages_per_core == 0)
        throw ArgumentError("cannot allocate a sharded L1 buffer of 0 pages per core");
    const uint32_t ordinal = impl_->buffers_created++;
    const BankAllocator& banks = impl_->l1.buffers();
    const uint64_t size = uint64_t(pages_per_core) * banks.banks() * page_size;
    return impl_->l1.address(0,
                             uint32_t(impl_->l1.buffers().allocate(size, page_size, ordinal, pages_per_core).address));
}

void Device::write_sharded(uint64_t address, uint32_t page_size, const std::vector<ShardPage>& placement,
                           const void* data, size_t size_bytes) {
    const uint8_t* src = static_cast<const uint8_t*>(data);
    impl_->for_each_shard_page(address, page_size, placement, size_bytes, "write",
                               [&](uint32_t slot, uint64_t bank_address, size_t offset, size_t bytes) {
                                   std::memcpy(impl_->l1.core_memory(slot) + bank_address, src + offset, bytes);
                               });
}

void Device::read_sharded(uint64_t address, uint32_t page_size, const std::vector<ShardPage>& placement, void* data,
                          size_t size_bytes) const {
    uint8_t* dst = static_cast<uint8_t*>(data);
    impl_->for_each_shard_page(address, page_size, placement, size_bytes, "read",
                               [&](uint32_t slot, uint64_t bank_address, size_t offset, size_t bytes) {
                                   std::memcpy(dst + offset, impl_->l1.core_memory(slot) + bank_address, bytes);
                               });
}

void Device::deallocate(BufferKind kind, uint64_t address) {
    if (kind == BufferKind::Dram) {
        impl_->dram.deallocate(address);
    } else {
        impl_->l1.buffers().deallocate(impl_->l1_bank_address(address));
    }
}

void Device::write_interleaved(uint64_t address, uint32_t page_size, const void* data, size_t size_bytes) {
    write_interleaved(BufferKind::Dram, address, page_size, data, size_bytes);
}

void Device::read_interleaved(uint64_t address, uint32_t page_size, void* data, size_t size_bytes) const {
    read_interleaved(BufferKind::Dram, address, page_size, data, size_bytes);
}

void Device::write_interleaved(BufferKind kind, uint64_t address, uint32_t page_size, const void* data,
                               size_t size_bytes) {
    const uint8_t* src = static_cast<const uint8_t*>(data);
    impl_->for_each_page(kind, address, page_size, size_bytes, "write",
                         [&](uint32_t bank, uint64_t bank_address, size_t offset, size_t bytes) {
                             if (kind == BufferKind::Dram) {
                                 impl_->dram.write(bank, bank_address, src + offset, bytes);
                             } else {
                                 std::memcpy(impl_->l1.core_memory(bank) + bank_address, src + offset, bytes);
                             }
                         });
}

void Device::read_interleaved(BufferKind kind, uint64_t address, uint32_t page_size, void* data,
                              size_t size_bytes) const {
    uint8_t* dst = static_cast<uint8_t*>(data);
    impl_->for_each_page(kind, address, page_size, size_bytes, "read",
                         [&](uint32_t bank, uint64_t bank_address, size_t offset, size_t bytes) {
                             if (kind == BufferKind::Dram) {
                                 impl_->dram.read(bank, bank_address, dst + offset, bytes);
                             } else {
                                 std::memcpy(dst + offset, impl_->l1.core_memory(bank) + bank_address, bytes);
                             }
                         });
}

LogicalCore Device::worker_noc_coord(LogicalCore logical) const {
    return {kernel_abi::worker_noc_x(logical.x), kernel_abi::worker_noc_y(logical.y)};
}

LogicalCore Device::dram_bank_noc_coord(uint32_t bank) const {
    return {kernel_abi::dram_bank_noc_x(bank), kernel_abi::dram_bank_noc_y(bank)};
}

void Device::run(const ProgramSpec& program) {
    impl_->run(program);
}

std::shared_ptr<const RunProfile> Device::last_run_profile() const {
    return impl_->last_profile;
}

std::vector<CoreCounters> Device::last_run_counters() const {
    return impl_->counters;
}

void wait_for_scrubber() {
    scrubber::wait_idle();
}

}  // namespace runtime_mock
