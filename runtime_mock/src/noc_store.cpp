#include "noc_store.hpp"

#include <cstring>

namespace runtime_mock {

namespace {

// A 16-byte vector: one store on x86-64 (SSE2) and AArch64 (NEON).
using Block = uint8_t __attribute__((vector_size(16)));

void store_word(uint8_t* to, const uint8_t* from) {
    uint32_t word;
    std::memcpy(&word, from, 4);
    __atomic_store_n(reinterpret_cast<uint32_t*>(to), word, __ATOMIC_RELAXED);
}

}  // namespace

// Loop distribution would turn the block loop back into a memcpy call, which is what this avoids.
__attribute__((optimize("no-tree-loop-distribute-patterns"))) void store_once(uint8_t* to, const uint8_t* from,
                                                                              size_t size) {
    if (to < from + size && from < to + size) {
        std::memmove(to, from, size);
        return;
    }
    // Bytes up to the first 4-byte boundary, then words up to a 16-byte boundary.
    while (size > 0 && uintptr_t(to) % 4 != 0) {
        *to++ = *from++;
        size--;
    }
    while (size >= 4 && uintptr_t(to) % 16 != 0) {
        store_word(to, from);
        to += 4, from += 4, size -= 4;
    }
    for (; size >= 16; to += 16, from += 16, size -= 16) {
        Block block;
        std::memcpy(&block, from, 16);
        *reinterpret_cast<Block*>(to) = block;
    }
    for (; size >= 4; to += 4, from += 4, size -= 4)
        store_word(to, from);
    while (size > 0) {
        *to++ = *from++;
        size--;
    }
}

}  // namespace runtime_mock
