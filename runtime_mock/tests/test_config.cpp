// Settings from the environment (config.hpp): RUNTIME_MOCK_LANES defaults to one lane per usable CPU, takes
// any count from 1 to 4096, and anything else is an ArgumentError naming the variable and its value.
#include <cstdlib>
#include <string>

#include "../src/config.hpp"
#include "../src/cpu_placement.hpp"
#include "runtime_mock/device.hpp"
#include "test_support.hpp"

using namespace runtime_mock;

TEST(lanes_default_to_the_usable_cpus) {
    unsetenv("RUNTIME_MOCK_LANES");
    CHECK(config::lanes() == usable_cpu_count());
}

TEST(lanes_take_a_count) {
    setenv("RUNTIME_MOCK_LANES", "130", 1);
    CHECK(config::lanes() == 130);
    unsetenv("RUNTIME_MOCK_LANES");
}

TEST(a_lane_count_that_is_not_one_is_an_error_naming_the_variable) {
    for (const char* value : {"0", "-3", "many", "12x", "5000"}) {
        setenv("RUNTIME_MOCK_LANES", value, 1);
        test::expect_error<ArgumentError>([] { config::lanes(); },
                                          {"RUNTIME_MOCK_LANES='" + std::string(value) + "'", "lane count"});
    }
    unsetenv("RUNTIME_MOCK_LANES");
}

int main() {
    return test::run_all();
}
