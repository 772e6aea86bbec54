// Which Metalium API did //:metalium give us? The shim by default, the SDK under --config=tt_metal.
#include <cstdio>
#include <tt-metalium/host_api.hpp>

#if defined(METAL_SHIM)
constexpr bool kBuiltAgainstShim = true;
#else
constexpr bool kBuiltAgainstShim = false;
#endif

int main() {
    const bool want_real_sdk = EXPECT_REAL_SDK != 0;
    std::printf("//:metalium resolved to %s\n", kBuiltAgainstShim ? "the metal_shim" : "the SDK at TT_METAL_HOME");
    if (want_real_sdk == kBuiltAgainstShim) {
        std::printf("FAIL: expected %s\n", want_real_sdk ? "the SDK (--config=tt_metal)" : "the shim (default build)");
        return 1;
    }
    return 0;
}
