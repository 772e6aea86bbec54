// DPRINT, the SDK's kernel debug print, on the simulated device.
//
// `DPRINT << "x=" << SETW(4) << x << ENDL();` formats into the kernel's line buffer (KernelContext::print);
// ENDL() (or the end of the kernel) hands the line to the runtime, which writes it to stdout prefixed with the core and
// RISC role. Manipulators SETW, SETPRECISION, FIXED, DEFAULTFLOAT, HEX, OCT, DEC and the value wrappers
// BF16, F32, U32 behave like their iostream analogues, as in the SDK. Each manipulator applies until
// changed, except SETW which applies to the next value only.
#pragma once

#include <cstdint>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <type_traits>

#include "runtime_mock/kernel_abi/kernel_context.h"
#include "runtime_mock/kernel_abi/tile_format.h"

struct BF16 {
    uint16_t val;
    BF16(uint16_t v) : val(v) {}
};
struct F32 {
    float val;
    F32(float v) : val(v) {}
};
struct U32 {
    uint32_t val;
    U32(uint32_t v) : val(v) {}
};
struct ENDL {
    char tmp;
};
struct SETPRECISION {
    char p;
    SETPRECISION(char pa) : p(pa) {}
};
struct FIXED {
    char tmp;
};
struct DEFAULTFLOAT {
    char tmp;
};
struct HEX {
    char tmp;
};
struct OCT {
    char tmp;
};
struct DEC {
    char tmp;
};
struct SETW {
    char w;
    SETW(char wa) : w(wa) {}
};

namespace runtime_mock::kernel_abi {

inline PrintState& print_state() {
    return ctx()->print;
}

inline void flush_print_line() {
    KernelContext* c = ctx();
    if (c->print.line.empty())
        return;
    c->fn->print(c, c->print.line.data(), c->print.line.size());
    c->print.line.clear();
}

inline void print_formatted(const char* format, ...) __attribute__((format(printf, 1, 2)));

inline void print_formatted(const char* format, ...) {
    char buffer[128];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof(buffer), format, args);
    va_end(args);
    PrintState& state = print_state();
    char padded[160];
    std::snprintf(padded, sizeof(padded), "%*s", state.width, buffer);
    state.width = 0;
    state.line += padded;
}

inline void print_integer(unsigned long long value, bool negative) {
    const char base = print_state().base;
    const char* format = base == 'x' ? "%s%llx" : base == 'o' ? "%s%llo" : "%s%llu";
    print_formatted(format, negative ? "-" : "", value);
}

inline void print_float(double value) {
    print_formatted(print_state().fixed ? "%.*f" : "%.*g", print_state().precision, value);
}

}  // namespace runtime_mock::kernel_abi

struct DebugPrinter {
    template <typename T>
    const DebugPrinter& operator<<(T value) const {
        runtime_mock::kernel_abi::PrintState& state = runtime_mock::kernel_abi::print_state();
        if constexpr (std::is_same_v<T, ENDL>) {
            runtime_mock::kernel_abi::flush_print_line();
        } else if constexpr (std::is_same_v<T, SETW>) {
            state.width = value.w;
        } else if constexpr (std::is_same_v<T, SETPRECISION>) {
            state.precision = value.p;
        } else if constexpr (std::is_same_v<T, FIXED>) {
            state.fixed = true;
        } else if constexpr (std::is_same_v<T, DEFAULTFLOAT>) {
            state.fixed = false;
        } else if constexpr (std::is_same_v<T, HEX>) {
            state.base = 'x';
        } else if constexpr (std::is_same_v<T, OCT>) {
            state.base = 'o';
        } else if constexpr (std::is_same_v<T, DEC>) {
            state.base = 'd';
        } else if constexpr (std::is_same_v<T, BF16>) {
            runtime_mock::kernel_abi::print_float(runtime_mock::kernel_abi::bf16_to_float(value.val));
        } else if constexpr (std::is_same_v<T, F32>) {
            runtime_mock::kernel_abi::print_float(value.val);
        } else if constexpr (std::is_same_v<T, U32>) {
            runtime_mock::kernel_abi::print_integer(value.val, false);
        } else if constexpr (std::is_same_v<T, const char*> || std::is_same_v<T, char*>) {
            runtime_mock::kernel_abi::print_formatted("%s", value);
        } else if constexpr (std::is_same_v<T, char>) {
            runtime_mock::kernel_abi::print_formatted("%c", value);
        } else if constexpr (std::is_floating_point_v<T>) {
            runtime_mock::kernel_abi::print_float(value);
        } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
            const long long v = value;
            runtime_mock::kernel_abi::print_integer(v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v,
                                                    v < 0);
        } else if constexpr (std::is_integral_v<T>) {
            runtime_mock::kernel_abi::print_integer(value, false);
        } else {
            static_assert(std::is_pointer_v<T>, "DPRINT cannot print this type");
            runtime_mock::kernel_abi::print_formatted("%p", static_cast<const void*>(value));
        }
        return *this;
    }
};

#define DPRINT DebugPrinter()
#define DPRINT_UNPACK(x) x
#define DPRINT_MATH(x) x
#define DPRINT_PACK(x) x
#define DPRINT_DATA0(x) x
#define DPRINT_DATA1(x) x
