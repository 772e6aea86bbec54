// The SDK's host-side checks. TT_FATAL(condition, format, args...) and TT_ASSERT(condition[, format,
// args...]) throw std::runtime_error when the condition is false; TT_THROW(format, args...) always
// throws. Messages are formatted with {fmt}. Unlike the SDK's release builds, TT_ASSERT is always
// checked: the mock is meant to catch mistakes. The message is assembled and thrown out of line
// (metal_shim/src/assert.cpp, in the runtime library).
#pragma once

#include <fmt/format.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace tt::assert {

// Throws std::runtime_error("<kind> @ <file>:<line>[: <condition>][\ninfo:\n<message>]").
[[noreturn]] void throw_error(const char* kind, const char* file, int line, const char* condition,
                              const std::string& message);

inline std::string format_message() {
    return {};
}

template <typename... Args>
std::string format_message(fmt::format_string<Args...> format, Args&&... args) {
    return fmt::format(format, std::forward<Args>(args)...);
}

}  // namespace tt::assert

#define TT_THROW(...) ::tt::assert::throw_error("TT_THROW", __FILE__, __LINE__, nullptr, ::fmt::format(__VA_ARGS__))

#define TT_FATAL(condition, ...)                                                  \
    do {                                                                          \
        if (!(condition)) {                                                       \
            ::tt::assert::throw_error("TT_FATAL", __FILE__, __LINE__, #condition, \
                                      ::tt::assert::format_message(__VA_ARGS__)); \
        }                                                                         \
    } while (0)

#define TT_ASSERT(condition, ...)                                                  \
    do {                                                                           \
        if (!(condition)) {                                                        \
            ::tt::assert::throw_error("TT_ASSERT", __FILE__, __LINE__, #condition, \
                                      ::tt::assert::format_message(__VA_ARGS__));  \
        }                                                                          \
    } while (0)
