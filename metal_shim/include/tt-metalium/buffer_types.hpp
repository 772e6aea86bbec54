// Where a buffer lives and how it is laid out: DRAM or L1, interleaved over the banks or sharded over a
// grid of cores (buffer.hpp: ShardSpecBuffer). {fmt} prints the enums by name, as the SDK's reflection does.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace tt::tt_metal {

enum class TensorMemoryLayout {
    INTERLEAVED = 0,
    HEIGHT_SHARDED = 2,
    WIDTH_SHARDED = 3,
    BLOCK_SHARDED = 4,
};

enum class ShardOrientation {
    ROW_MAJOR = 0,
    COL_MAJOR,
};

enum class BufferType {
    DRAM,
    L1,
    SYSTEM_MEMORY,
    L1_SMALL,
    TRACE,
};

constexpr std::string_view enum_name(TensorMemoryLayout layout) {
    switch (layout) {
        case TensorMemoryLayout::INTERLEAVED:
            return "INTERLEAVED";
        case TensorMemoryLayout::HEIGHT_SHARDED:
            return "HEIGHT_SHARDED";
        case TensorMemoryLayout::WIDTH_SHARDED:
            return "WIDTH_SHARDED";
        case TensorMemoryLayout::BLOCK_SHARDED:
            return "BLOCK_SHARDED";
    }
    return "TensorMemoryLayout(?)";
}

constexpr std::string_view enum_name(ShardOrientation orientation) {
    return orientation == ShardOrientation::ROW_MAJOR ? "ROW_MAJOR" : "COL_MAJOR";
}

constexpr std::string_view enum_name(BufferType type) {
    switch (type) {
        case BufferType::DRAM:
            return "DRAM";
        case BufferType::L1:
            return "L1";
        case BufferType::SYSTEM_MEMORY:
            return "SYSTEM_MEMORY";
        case BufferType::L1_SMALL:
            return "L1_SMALL";
        case BufferType::TRACE:
            return "TRACE";
    }
    return "BufferType(?)";
}

// A sharded layout (HEIGHT, WIDTH or BLOCK).
constexpr bool is_sharded(TensorMemoryLayout layout) {
    return layout == TensorMemoryLayout::HEIGHT_SHARDED || layout == TensorMemoryLayout::WIDTH_SHARDED ||
           layout == TensorMemoryLayout::BLOCK_SHARDED;
}

}  // namespace tt::tt_metal

namespace tt::tt_metal::detail {

template <typename Enum>
struct EnumNameFormatter : fmt::formatter<std::string_view> {
    auto format(Enum value, fmt::format_context& ctx) const {
        return fmt::formatter<std::string_view>::format(enum_name(value), ctx);
    }
};

}  // namespace tt::tt_metal::detail

template <>
struct fmt::formatter<tt::tt_metal::TensorMemoryLayout>
    : tt::tt_metal::detail::EnumNameFormatter<tt::tt_metal::TensorMemoryLayout> {};
template <>
struct fmt::formatter<tt::tt_metal::ShardOrientation>
    : tt::tt_metal::detail::EnumNameFormatter<tt::tt_metal::ShardOrientation> {};
template <>
struct fmt::formatter<tt::tt_metal::BufferType> : tt::tt_metal::detail::EnumNameFormatter<tt::tt_metal::BufferType> {};
