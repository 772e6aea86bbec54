#include "bank_allocator.hpp"

#include <string>

#include "runtime_mock/device.hpp"

namespace tt_mock {

BankAllocator::BankAllocator(uint64_t low, uint64_t high, uint64_t alignment, bool top_down)
    : low_(low), high_(high), alignment_(alignment), top_down_(top_down) {}

uint64_t BankAllocator::allocate(uint64_t bytes, const char* what) {
    bytes = (bytes + alignment_ - 1) / alignment_ * alignment_;
    if (bytes == 0)
        bytes = alignment_;
    if (!top_down_) {
        uint64_t cursor = low_;
        for (const auto& [address, size] : ranges_) {
            if (address - cursor >= bytes)
                break;
            cursor = address + size;
        }
        if (cursor + bytes <= high_) {
            ranges_[cursor] = bytes;
            return cursor;
        }
    } else {
        uint64_t cursor = high_;
        for (auto it = ranges_.rbegin(); it != ranges_.rend(); ++it) {
            if (cursor - (it->first + it->second) >= bytes)
                break;
            cursor = it->first;
        }
        if (cursor >= low_ + bytes) {
            ranges_[cursor - bytes] = bytes;
            return cursor - bytes;
        }
    }
    throw DeviceError(std::string("out of ") + what + ": cannot allocate " + std::to_string(bytes) +
                      " bytes per bank (bank capacity " + std::to_string(high_ - low_) + " bytes)");
}

void BankAllocator::deallocate(uint64_t address, const char* what) {
    if (ranges_.erase(address) == 0) {
        throw DeviceError(std::string("no ") + what + " buffer is allocated at address " + std::to_string(address));
    }
}

bool BankAllocator::contains(uint64_t address, uint64_t bytes) const {
    auto it = ranges_.upper_bound(address);
    if (it == ranges_.begin())
        return false;
    --it;
    return address + bytes <= it->first + it->second;
}

uint64_t BankAllocator::lowest() const {
    return ranges_.empty() ? high_ : ranges_.begin()->first;
}

}  // namespace tt_mock
