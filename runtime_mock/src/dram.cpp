#include "dram.hpp"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>

#include "runtime_mock/device.hpp"

namespace tt_mock {

namespace {

constexpr uint64_t kDramBase = 0x10000;  // bank addresses below this are never handed out

// Chunks of devices that no longer exist, for the next device. At most kPooledChunks are kept (the
// rest are unmapped): enough for the tensors of a 4096^3 GEMM, and all an idle process holds.
class ChunkPool {
public:
    static constexpr size_t kPooledChunks = 256;

    // Never destroyed (devices may outlive static destructors). A child made by fork() starts with an
    // empty pool: another thread may have held the mutex at the fork.
    static ChunkPool& instance() { return *current(); }

    // A recycled chunk, or nullptr when there is none.
    uint8_t* take() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (chunks_.empty())
            return nullptr;
        uint8_t* chunk = chunks_.back();
        chunks_.pop_back();
        return chunk;
    }

    // Keeps `chunk` for the next device; false when the pool is full (the caller unmaps it).
    bool give(uint8_t* chunk) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (chunks_.size() >= kPooledChunks)
            return false;
        chunks_.push_back(chunk);
        return true;
    }

private:
    static ChunkPool*& current() {
        static ChunkPool* pool = [] {
            pthread_atfork(nullptr, nullptr, [] { current() = new ChunkPool; });
            return new ChunkPool;
        }();
        return pool;
    }

    std::mutex mutex_;
    std::vector<uint8_t*> chunks_;
};

}  // namespace

Dram::Dram(uint32_t banks, uint64_t bank_bytes, uint32_t alignment)
    : allocator_("DRAM", banks, kDramBase, bank_bytes, alignment, alignment, false), chunks_(banks) {
    for (auto& bank : chunks_)
        bank.assign((bank_bytes + kChunkBytes - 1) / kChunkBytes, Chunk{});
}

Dram::~Dram() {
    ChunkPool& pool = ChunkPool::instance();
    for (auto& bank : chunks_) {
        for (const Chunk& chunk : bank) {
            if (chunk.memory != nullptr && !(recyclable_ && pool.give(chunk.memory)))
                munmap(chunk.memory, kChunkBytes);
        }
    }
}

const InterleavedBuffer& Dram::allocate(uint64_t size_bytes, uint32_t page_size, uint32_t ordinal) {
    const InterleavedBuffer& buffer = allocator_.allocate(size_bytes, page_size, ordinal);
    const uint64_t end = buffer.address + buffer.bytes_per_bank;
    for (auto& bank : chunks_) {
        for (uint64_t c = buffer.address / kChunkBytes; c * kChunkBytes < end; c++) {
            Chunk& chunk = bank[c];
            if (chunk.memory == nullptr)
                chunk = new_chunk();
            if (chunk.recycled) {
                // The part of the chunk the buffer covers, which an earlier device may have written.
                const uint64_t from = std::max(buffer.address, c * kChunkBytes);
                const uint64_t to = std::min(end, (c + 1) * kChunkBytes);
                std::memset(chunk.memory + from % kChunkBytes, 0, to - from);
            }
        }
    }
    return buffer;
}

Dram::Chunk Dram::new_chunk() {
    if (uint8_t* recycled = ChunkPool::instance().take())
        return Chunk{recycled, true};
    void* fresh = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED)
        throw DeviceError("cannot map 1 MiB of DRAM storage: mmap: " + std::string(std::strerror(errno)));
    return Chunk{static_cast<uint8_t*>(fresh), false};
}

void Dram::write(uint32_t bank, uint64_t address, const void* data, size_t bytes) {
    const uint8_t* src = static_cast<const uint8_t*>(data);
    while (bytes > 0) {
        const uint64_t offset = address % kChunkBytes;
        const size_t n = std::min<uint64_t>(bytes, kChunkBytes - offset);
        std::memcpy(chunks_[bank][address / kChunkBytes].memory + offset, src, n);
        address += n;
        src += n;
        bytes -= n;
    }
}

void Dram::read(uint32_t bank, uint64_t address, void* data, size_t bytes) const {
    uint8_t* dst = static_cast<uint8_t*>(data);
    while (bytes > 0) {
        const uint64_t offset = address % kChunkBytes;
        const size_t n = std::min<uint64_t>(bytes, kChunkBytes - offset);
        std::memcpy(dst, chunks_[bank][address / kChunkBytes].memory + offset, n);
        address += n;
        dst += n;
        bytes -= n;
    }
}

}  // namespace tt_mock
