// The scrubber (scrubber.hpp): jobs run in submission order on its thread and wait_idle() waits for them;
// zero() clears exactly the range it is given, at any alignment and length (streaming stores in the
// middle, the ends by memset).
#include <atomic>
#include <string>
#include <vector>

#include "../src/scrubber.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

TEST(jobs_run_in_order_and_wait_idle_waits_for_them) {
    std::vector<int> order;
    std::atomic<int> done{0};
    for (int i = 0; i < 50; i++) {
        scrubber::submit([&order, &done, i] {
            order.push_back(i);
            done++;
        });
    }
    scrubber::wait_idle();
    CHECK(done.load() == 50);
    for (int i = 0; i < 50; i++)
        CHECK(order[i] == i);
}

TEST(zero_clears_exactly_its_range) {
    constexpr size_t kBytes = 4096;
    for (size_t offset : {0, 1, 7, 15, 16, 33}) {
        for (size_t length : {0, 1, 15, 16, 17, 100, 1000, 4000 - 33}) {
            std::vector<uint8_t> memory(kBytes, 0xab);
            scrubber::zero(memory.data() + offset, length);
            for (size_t i = 0; i < kBytes; i++) {
                const bool inside = i >= offset && i < offset + length;
                if (memory[i] != (inside ? 0 : 0xab)) {
                    throw std::runtime_error("zero(+" + std::to_string(offset) + ", " + std::to_string(length) +
                                             "): byte " + std::to_string(i) + " is " + std::to_string(memory[i]));
                }
            }
        }
    }
}

int main() {
    return test::run_all();
}
