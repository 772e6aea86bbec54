#include "dram.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <string>

#include "noc_store.hpp"

#include "per_process.hpp"
#include "runtime_mock/device.hpp"
#include "scrubber.hpp"

namespace runtime_mock {

namespace {

constexpr uint64_t kDramBase = 0x10000;  // bank addresses below this are never handed out

// A chunk of DRAM storage a destroyed device hands on, and how much of it the device may have written.
struct UsedChunk {
    uint8_t* memory;
    uint64_t used;
};

// Chunks of devices that no longer exist, zeroed on the scrubber thread, for the next device. At most
// kPooledChunks are kept, counting those being zeroed (the rest are unmapped): enough for the tensors of a
// 4096^3 GEMM twice over, and all an idle process holds.
class ChunkPool {
public:
    static constexpr size_t kPooledChunks = 256;

    static ChunkPool& instance() { return per_process<ChunkPool>(); }

    // A zeroed chunk, or nullptr when there is none.
    uint8_t* take() {
        std::lock_guard<std::mutex> lock(mutex_);
        if (chunks_.empty())
            return nullptr;
        uint8_t* chunk = chunks_.back();
        chunks_.pop_back();
        return chunk;
    }

    // Takes the chunks of a destroyed device: their memory (each chunk was zero before its device got it,
    // and only its first `used` bytes can have been written) is zeroed on the scrubber thread, then
    // pooled. Chunks past the pool's room are unmapped.
    void give(std::vector<UsedChunk> chunks) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            const size_t room = kPooledChunks - std::min(kPooledChunks, chunks_.size() + being_zeroed_);
            for (size_t i = room; i < chunks.size(); i++)
                munmap(chunks[i].memory, Dram::kChunkBytes);
            chunks.resize(std::min(room, chunks.size()));
            being_zeroed_ += chunks.size();
        }
        if (chunks.empty())
            return;
        scrubber::submit([this, chunks = std::move(chunks)] {
            for (const UsedChunk& chunk : chunks)
                scrubber::zero(chunk.memory, chunk.used);
            std::lock_guard<std::mutex> lock(mutex_);
            for (const UsedChunk& chunk : chunks)
                chunks_.push_back(chunk.memory);
            being_zeroed_ -= chunks.size();
        });
    }

private:
    std::mutex mutex_;
    std::vector<uint8_t*> chunks_;  // zeroed
    size_t being_zeroed_ = 0;
};

}  // namespace

Dram::Dram(uint32_t banks, uint64_t bank_bytes, uint32_t alignment)
    : allocator_("DRAM", banks, kDramBase, bank_bytes, alignment, alignment, false), chunks_(banks) {
    for (auto& bank : chunks_)
        bank.assign((bank_bytes + kChunkBytes - 1) / kChunkBytes, Chunk{});
}

Dram::~Dram() {
    std::vector<UsedChunk> used;
    for (auto& bank : chunks_) {
        for (const Chunk& chunk : bank) {
            if (chunk.memory == nullptr)
                continue;
            if (recyclable_)
                used.push_back(UsedChunk{chunk.memory, chunk.used});
            else
                munmap(chunk.memory, kChunkBytes);
        }
    }
    ChunkPool::instance().give(std::move(used));
}

const InterleavedBuffer& Dram::allocate(uint64_t size_bytes, uint32_t page_size, uint32_t ordinal) {
    const InterleavedBuffer& buffer = allocator_.allocate(size_bytes, page_size, ordinal);
    const uint64_t end = buffer.address + buffer.bytes_per_bank;
    for (auto& bank : chunks_) {
        for (uint64_t c = buffer.address / kChunkBytes; c * kChunkBytes < end; c++) {
            Chunk& chunk = bank[c];
            if (chunk.memory == nullptr)
                chunk.memory = new_chunk();
            chunk.used = std::max(chunk.used, std::min(end - c * kChunkBytes, kChunkBytes));
        }
    }
    return buffer;
}

uint8_t* Dram::new_chunk() {
    if (uint8_t* pooled = ChunkPool::instance().take())
        return pooled;
    void* fresh = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (fresh == MAP_FAILED)
        throw DeviceError("cannot map 1 MiB of DRAM storage: mmap: " + std::string(std::strerror(errno)));
    return static_cast<uint8_t*>(fresh);
}

template <typename Copy>
void Dram::for_each_piece(uint32_t bank, uint64_t address, size_t bytes, Copy copy) const {
    for (size_t done = 0; done < bytes;) {
        const uint64_t offset = address % kChunkBytes;
        const size_t n = std::min<uint64_t>(bytes - done, kChunkBytes - offset);
        copy(chunks_[bank][address / kChunkBytes].memory + offset, done, n);
        address += n;
        done += n;
    }
}

void Dram::write(uint32_t bank, uint64_t address, const void* data, size_t bytes) {
    const uint8_t* src = static_cast<const uint8_t*>(data);
    for_each_piece(bank, address, bytes,
                   [&](uint8_t* memory, size_t at, size_t n) { std::memcpy(memory, src + at, n); });
}

void Dram::read(uint32_t bank, uint64_t address, void* data, size_t bytes) const {
    uint8_t* dst = static_cast<uint8_t*>(data);
    for_each_piece(bank, address, bytes,
                   [&](const uint8_t* memory, size_t at, size_t n) { std::memcpy(dst + at, memory, n); });
}

void Dram::read_into_l1(uint32_t bank, uint64_t address, uint8_t* l1, size_t bytes) const {
    for_each_piece(bank, address, bytes,
                   [&](const uint8_t* memory, size_t at, size_t n) { store_once(l1 + at, memory, n); });
}

}  // namespace runtime_mock
