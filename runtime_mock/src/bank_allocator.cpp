#include "bank_allocator.hpp"

#include <algorithm>
#include <sstream>

#include "runtime_mock/device.hpp"

namespace runtime_mock {

namespace {

uint64_t align_up(uint64_t value, uint64_t alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

}  // namespace

std::string hex(uint64_t value) {
    std::ostringstream out;
    out << "0x" << std::hex << value;
    return out.str();
}

BankAllocator::BankAllocator(const char* kind, uint32_t banks, uint64_t low, uint64_t high, uint64_t alignment,
                             uint32_t page_alignment, bool top_down)
    : kind_(kind),
      banks_(banks),
      low_(low),
      high_(high),
      alignment_(alignment),
      page_alignment_(page_alignment),
      top_down_(top_down) {}

const InterleavedBuffer& BankAllocator::allocate(uint64_t size_bytes, uint32_t page_size, uint32_t ordinal,
                                                 uint32_t shard_pages) {
    if (page_size == 0)
        throw ArgumentError(std::string("cannot allocate a ") + kind_ + " buffer with page size 0");
    InterleavedBuffer buffer{};
    buffer.size_bytes = size_bytes;
    buffer.page_size = page_size;
    buffer.ordinal = ordinal;
    buffer.shard_pages = shard_pages;
    buffer.aligned_page_size = uint32_t(align_up(page_size, page_alignment_));
    buffer.pages = (size_bytes + page_size - 1) / page_size;
    const uint64_t rows = (buffer.pages + banks_ - 1) / banks_;
    const uint64_t bytes = std::max(align_up(rows * buffer.aligned_page_size, alignment_), alignment_);
    buffer.bytes_per_bank = bytes;
    if (!top_down_) {
        uint64_t cursor = low_;
        for (const auto& [address, other] : buffers_) {
            if (address - cursor >= bytes)
                break;
            cursor = address + other.bytes_per_bank;
        }
        if (cursor + bytes <= high_) {
            buffer.address = cursor;
            return buffers_[cursor] = buffer;
        }
    } else {
        uint64_t cursor = high_;
        for (auto it = buffers_.rbegin(); it != buffers_.rend(); ++it) {
            if (cursor - (it->first + it->second.bytes_per_bank) >= bytes)
                break;
            cursor = it->first;
        }
        if (cursor >= low_ + bytes) {
            buffer.address = cursor - bytes;
            return buffers_[buffer.address] = buffer;
        }
    }
    throw DeviceError(std::string("out of ") + kind_ + ": cannot allocate " + std::to_string(bytes) +
                      " bytes per bank (bank capacity " + std::to_string(high_ - low_) + " bytes)");
}

void BankAllocator::deallocate(uint64_t address) {
    if (buffers_.erase(address) == 0) {
        throw DeviceError(std::string("no ") + kind_ + " buffer is allocated at address " + std::to_string(address));
    }
}

const InterleavedBuffer* BankAllocator::find(uint64_t address) const {
    auto it = buffers_.upper_bound(address);
    if (it == buffers_.begin())
        return nullptr;
    --it;
    return address < it->first + it->second.bytes_per_bank ? &it->second : nullptr;
}

const InterleavedBuffer* BankAllocator::starting_at(uint64_t address) const {
    const auto it = buffers_.find(address);
    return it == buffers_.end() ? nullptr : &it->second;
}

std::string BankAllocator::no_buffer_at(uint64_t address) const {
    std::string message = "bank address " + hex(address) + " is not the start of an allocated " + kind_ + " buffer";
    if (const InterleavedBuffer* inside = find(address))
        message += " (it lies inside the " + describe(*inside) + ")";
    return message;
}

const InterleavedBuffer* BankAllocator::first_overlapping(uint64_t address, uint64_t bytes) const {
    if (const InterleavedBuffer* holder = find(address))
        return holder;
    auto it = buffers_.upper_bound(address);
    return it != buffers_.end() && it->first < address + bytes ? &it->second : nullptr;
}

std::string BankAllocator::describe(const InterleavedBuffer& buffer) const {
    if (buffer.shard_pages != 0) {
        return "sharded " + std::string(kind_) + " buffer #" + std::to_string(buffer.ordinal) + " at " +
               hex(buffer.address) + " (page size " + std::to_string(buffer.page_size) + " B, " +
               std::to_string(buffer.shard_pages) + " pages per core)";
    }
    return std::string(kind_) + " buffer #" + std::to_string(buffer.ordinal) + " at bank address " +
           hex(buffer.address) + " (page size " + std::to_string(buffer.page_size) + " B, " +
           std::to_string(buffer.pages) + (buffer.pages == 1 ? " page)" : " pages)");
}

uint64_t BankAllocator::lowest() const {
    return buffers_.empty() ? high_ : buffers_.begin()->first;
}

}  // namespace runtime_mock
