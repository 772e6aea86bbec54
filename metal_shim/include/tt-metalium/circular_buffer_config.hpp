// CircularBufferConfig: one region of `total_size` bytes in L1, used by one or more CB indices (each
// with its own data format and page size). Several indices in one config share the memory.
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

    CircularBufferConfig(uint32_t total_size, const std::map<uint8_t, tt::DataFormat>& data_format_spec)
        : total_size_(total_size) {
        for (const auto& [index, format] : data_format_spec) {
            check_index(index);
            data_formats_[index] = format;
            buffer_indices_.insert(index);
        }
    }

    // Globally allocated (sharded) CBs live in an L1 buffer; the mock has no sharded buffers.
    CircularBufferConfig(uint32_t, const std::map<uint8_t, tt::DataFormat>&, const Buffer&) {
        TT_THROW("CircularBufferConfig: globally allocated circular buffers are not supported by the mock device");
    }

    CircularBufferConfig& set_page_size(uint8_t buffer_index, uint32_t page_size) {
        TT_FATAL(buffer_indices_.count(buffer_index) != 0,
                 "Illegal circular buffer index {}. Page size can only be specified for buffer indices configured "
                 "during config creation",
                 buffer_index);
        TT_FATAL(page_size != 0 && total_size_ % page_size == 0,
                 "Total circular buffer size {} B must be divisible by page size {} B", total_size_, page_size);
        page_sizes_[buffer_index] = page_size;
        return *this;
    }

    CircularBufferConfig& set_total_size(uint32_t total_size) {
        for (uint8_t index : buffer_indices_) {
            TT_FATAL(!page_sizes_[index] || total_size % *page_sizes_[index] == 0,
                     "Total circular buffer size {} B must be divisible by page size {} B of index {}", total_size,
                     *page_sizes_[index], index);
        }
        total_size_ = total_size;
        return *this;
    }

    CircularBufferConfig& set_globally_allocated_address(const Buffer&) {
        TT_THROW("CircularBufferConfig: globally allocated circular buffers are not supported by the mock device");
    }

    // config.index(i).set_data_format(f).set_page_size(p): configure index i.
    class Builder {
    public:
        Builder(CircularBufferConfig& parent, uint8_t buffer_index) : parent_(parent), index_(buffer_index) {
            check_index(buffer_index);
        }
        const Builder& set_data_format(tt::DataFormat format) const {
            parent_.data_formats_[index_] = format;
            parent_.buffer_indices_.insert(index_);
            return *this;
        }
        const Builder& set_total_size(uint32_t total_size) const {
            parent_.set_total_size(total_size);
            return *this;
        }
        const Builder& set_page_size(uint32_t page_size) const {
            parent_.set_page_size(index_, page_size);
            return *this;
        }

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
    static void check_index(uint8_t index) {
        TT_FATAL(index < NUM_CIRCULAR_BUFFERS, "Circular buffer index {} out of range [0, {})", index,
                 NUM_CIRCULAR_BUFFERS);
    }

    uint32_t total_size_ = 0;
    std::array<std::optional<tt::DataFormat>, NUM_CIRCULAR_BUFFERS> data_formats_;
    std::array<std::optional<uint32_t>, NUM_CIRCULAR_BUFFERS> page_sizes_;
    std::set<uint8_t> buffer_indices_;
};

}  // namespace tt::tt_metal
