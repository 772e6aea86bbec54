// The failure path of TT_FATAL / TT_ASSERT / TT_THROW (tt_stl/assert.hpp): builds the SDK-shaped message
// (kind, file:line, the failed condition, the formatted info) and throws it as std::runtime_error.
#include <tt_stl/assert.hpp>

#include <stdexcept>

namespace tt::assert {

void throw_error(const char* kind, const char* file, int line, const char* condition, const std::string& message) {
    std::string what = fmt::format("{} @ {}:{}", kind, file, line);
    if (condition != nullptr) {
        what += fmt::format(": {}", condition);
    }
    if (!message.empty()) {
        what += fmt::format("\ninfo:\n{}", message);
    }
    throw std::runtime_error(what);
}

}  // namespace tt::assert
