#include "dram.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include "runtime_mock/device.hpp"

namespace tt_mock {

namespace {
constexpr uint64_t kDramBase = 0x10000;  // bank addresses below this are never handed out
}

Dram::Dram(uint32_t banks, uint64_t bank_bytes, uint32_t alignment)
    : allocator_("DRAM", banks, kDramBase, bank_bytes, alignment, alignment, false), chunks_(banks) {
    for (auto& bank : chunks_)
        bank.assign((bank_bytes + kChunkBytes - 1) / kChunkBytes, nullptr);
}

Dram::~Dram() {
    for (auto& bank : chunks_) {
        for (uint8_t* chunk : bank) {
            if (chunk != nullptr)
                munmap(chunk, kChunkBytes);
        }
    }
}

const InterleavedBuffer& Dram::allocate(uint64_t size_bytes, uint32_t page_size, uint32_t ordinal) {
    const InterleavedBuffer& buffer = allocator_.allocate(size_bytes, page_size, ordinal);
    const uint64_t end = buffer.address + buffer.bytes_per_bank;
    for (auto& bank : chunks_) {
        for (uint64_t c = buffer.address / kChunkBytes; c * kChunkBytes < end; c++) {
            if (bank[c] != nullptr)
                continue;
            void* chunk = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (chunk == MAP_FAILED) {
                throw DeviceError("cannot map 1 MiB of DRAM storage: mmap: " + std::string(std::strerror(errno)));
            }
            bank[c] = static_cast<uint8_t*>(chunk);
        }
    }
    return buffer;
}

void Dram::write(uint32_t bank, uint64_t address, const void* data, size_t bytes) {
    const uint8_t* src = static_cast<const uint8_t*>(data);
    while (bytes > 0) {
        const uint64_t offset = address % kChunkBytes;
        const size_t n = std::min<uint64_t>(bytes, kChunkBytes - offset);
        std::memcpy(chunks_[bank][address / kChunkBytes] + offset, src, n);
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
        std::memcpy(dst, chunks_[bank][address / kChunkBytes] + offset, n);
        address += n;
        dst += n;
        bytes -= n;
    }
}

}  // namespace tt_mock
