// CircularBufferConfig: one region of `total_size` bytes in L1, used by one or more CB indices (each
// with its own data format and page size). Several indices in one config share the memory. Defined in
// metal_shim/src/circular_buffer_config.cpp.
#pragma once

#include <hostdevcommon/kernel_structs.h>
#include <tt-metalium/tt_backend_api_types.hpp>
#include <tt_stl/assert.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

namespace tt::tt_metal {

class Buffer;

using CBHandle = uintptr_t;

constexpr uint32_t NUM_CIRCULAR_BUFFERS = 64;

class CircularBufferConfig {
public:
    CircularBufferConfig(uint32_t total_size) : total_size_(total_size) {}

    // Each index with its data format; throws for an index out of [0, NUM_CIRCULAR_BUFFERS).
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& data_format_spec);

    // A globally allocated CB: its pages are the L1 buffer's (see set_globally_allocated_address).
    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& data_format_spec,
                         const Buffer& buffer);

    // Throws unless the index was configured and page_size divides the total size.
    CircularBufferConfig& set_page_size(uint8_t buffer_index, uint32_t page_size);

    // Throws unless every configured page size divides total_size.
    CircularBufferConfig& set_total_size(uint32_t total_size);

    // The CB's pages are the L1 buffer's on every core of the CB (a sharded buffer: each core's shard), so
    // what the host wrote into the buffer is in the CB when the kernels start, and what they pack into it is
    // in the buffer. Throws unless the buffer is an allocated L1 buffer.
    CircularBufferConfig& set_globally_allocated_address(const Buffer& buffer);
    // The L1 buffer's address, if globally allocated.
    std::optional<uint64_t> globally_allocated_address() const { return buffer_address_; }

    // config.index(i).set_data_format(f).set_page_size(p): configure index i.
    class Builder {
    public:
        Builder(CircularBufferConfig& parent, uint8_t buffer_index);
        const Builder& set_data_format(tt::DataFormat format) const;
        const Builder& set_total_size(uint32_t total_size) const;
        const Builder& set_page_size(uint32_t page_size) const;

    private:
        CircularBufferConfig& parent_;
        uint8_t index_;
    };

    Builder index(uint8_t buffer_index) { return Builder(*this, buffer_index); }

    uint32_t total_size() const { return total_size_; }
    const std::set<uint8_t>& buffer_indices() const { return buffer_indices_; }
    const std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS>& data_formats() const {
        return data_formats_;
    }
    const std::array<std::optional<uint32_t>, NUM_CIRCULAR_BUFFERS>& page_sizes() const { return page_sizes_; }

private:
    static void check_index(uint8_t index);

    uint32_t total_size_ = 0;
    std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS> data_formats_;
    std::array<std::optional<uint32_t>, NUM_CIRCULAR_BUFFERS> page_sizes_;
    std::set<uint8_t> buffer_indices_;
    std::optional<uint64_t> buffer_address_;
};

}  // namespace tt::tt_metal
