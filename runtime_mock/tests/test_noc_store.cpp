// store_once (noc_store.hpp): copies exactly its range at every alignment and length, byte for byte as
// memmove does, including ranges that overlap.
#include <cstring>
#include <string>
#include <vector>

#include "../src/noc_store.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

namespace {

std::vector<uint8_t> pattern(size_t bytes, uint8_t seed) {
    std::vector<uint8_t> data(bytes);
    for (size_t i = 0; i < bytes; i++)
        data[i] = uint8_t(seed + i * 7);
    return data;
}

}  // namespace

TEST(copies_exactly_its_range) {
    constexpr size_t kBytes = 512;
    for (size_t to_offset : {0, 1, 2, 3, 4, 8, 12, 15, 16}) {
        for (size_t from_offset : {0, 1, 4, 13}) {
            for (size_t length : {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 255, 256, 300}) {
                const std::vector<uint8_t> source = pattern(kBytes, 1);
                std::vector<uint8_t> got(kBytes, 0xee), want(kBytes, 0xee);
                store_once(got.data() + to_offset, source.data() + from_offset, length);
                std::memmove(want.data() + to_offset, source.data() + from_offset, length);
                if (got != want) {
                    throw std::runtime_error("store_once(+" + std::to_string(to_offset) + ", +" +
                                             std::to_string(from_offset) + ", " + std::to_string(length) +
                                             ") differs from memmove");
                }
            }
        }
    }
}

TEST(overlapping_ranges_copy_like_memmove) {
    for (ptrdiff_t shift : {-17, -4, -1, 1, 4, 16, 33}) {
        std::vector<uint8_t> got = pattern(256, 3), want = got;
        store_once(got.data() + 64 + shift, got.data() + 64, 100);
        std::memmove(want.data() + 64 + shift, want.data() + 64, 100);
        CHECK(got == want);
    }
}

int main() {
    return test::run_all();
}
