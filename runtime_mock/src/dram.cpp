#include "dram.hpp"

#include <algorithm>
#include <cstring>

namespace tt_mock {

namespace {
constexpr uint64_t kDramBase = 0x10000;  // bank addresses below this are never handed out
}

Dram::Dram(uint32_t banks, uint64_t bank_bytes, uint32_t alignment)
    : allocator_("DRAM", banks, kDramBase, bank_bytes, alignment, alignment, false), chunks_(banks) {
    for (auto& bank : chunks_)
        bank.resize((bank_bytes + kChunkBytes - 1) / kChunkBytes);
}

const InterleavedBuffer& Dram::allocate(uint64_t size_bytes, uint32_t page_size) {
    const InterleavedBuffer& buffer = allocator_.allocate(size_bytes, page_size);
    const uint64_t end = buffer.address + buffer.bytes_per_bank;
    for (auto& bank : chunks_) {
        for (uint64_t c = buffer.address / kChunkBytes; c * kChunkBytes < end; c++) {
            if (!bank[c])
                bank[c] = std::make_unique<uint8_t[]>(kChunkBytes);
        }
    }
    return buffer;
}

void Dram::write(uint32_t bank, uint64_t address, const void* data, size_t bytes) {
    const uint8_t* src = static_cast<const uint8_t*>(data);
    while (bytes > 0) {
        const uint64_t offset = address % kChunkBytes;
        const size_t n = std::min<uint64_t>(bytes, kChunkBytes - offset);
        std::memcpy(chunks_[bank][address / kChunkBytes].get() + offset, src, n);
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
        std::memcpy(dst, chunks_[bank][address / kChunkBytes].get() + offset, n);
        address += n;
        dst += n;
        bytes -= n;
    }
}

}  // namespace tt_mock
