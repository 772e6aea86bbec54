// CircularBufferConfig (tt-metalium/circular_buffer_config.hpp): the checks of a config as it is built —
// indices in range, page sizes only for configured indices and dividing the total size, an L1 buffer for a
// globally allocated CB (the device checks that it holds the CB).
#include <tt-metalium/buffer.hpp>
#include <tt-metalium/circular_buffer_config.hpp>

namespace tt::tt_metal {

CircularBufferConfig::CircularBufferConfig(uint32_t total_size,
                                           const std::map<uint8_t, tt::DataFormat>& data_format_spec)
    : total_size_(total_size) {
    for (const auto& [index, format] : data_format_spec) {
        check_index(index);
        data_formats_[index] = format;
        buffer_indices_.insert(index);
    }
}

CircularBufferConfig::CircularBufferConfig(uint32_t total_size,
                                           const std::map<uint8_t, tt::DataFormat>& data_format_spec,
                                           const Buffer& buffer)
    : CircularBufferConfig(total_size, data_format_spec) {
    set_globally_allocated_address(buffer);
}

CircularBufferConfig& CircularBufferConfig::set_page_size(uint8_t buffer_index, uint32_t page_size) {
    TT_FATAL(buffer_indices_.count(buffer_index) != 0,
             "Illegal circular buffer index {}. Page size can only be specified for buffer indices configured "
             "during config creation",
             buffer_index);
    TT_FATAL(page_size != 0 && total_size_ % page_size == 0,
             "Total circular buffer size {} B must be divisible by page size {} B", total_size_, page_size);
    page_sizes_[buffer_index] = page_size;
    return *this;
}

CircularBufferConfig& CircularBufferConfig::set_total_size(uint32_t total_size) {
    for (uint8_t index : buffer_indices_) {
        TT_FATAL(!page_sizes_[index] || total_size % *page_sizes_[index] == 0,
                 "Total circular buffer size {} B must be divisible by page size {} B of index {}", total_size,
                 *page_sizes_[index], index);
    }
    total_size_ = total_size;
    return *this;
}

CircularBufferConfig& CircularBufferConfig::set_globally_allocated_address(const Buffer& buffer) {
    TT_FATAL(buffer.is_l1(), "CircularBufferConfig: a globally allocated circular buffer lives in an L1 buffer, not {}",
             buffer.buffer_type());
    buffer_address_ = buffer.address();
    return *this;
}

void CircularBufferConfig::check_index(uint8_t index) {
    TT_FATAL(index < NUM_CIRCULAR_BUFFERS, "Circular buffer index {} out of range [0, {})", index,
             NUM_CIRCULAR_BUFFERS);
}

CircularBufferConfig::Builder::Builder(CircularBufferConfig& parent, uint8_t buffer_index)
    : parent_(parent), index_(buffer_index) {
    check_index(buffer_index);
}

const CircularBufferConfig::Builder& CircularBufferConfig::Builder::set_data_format(tt::DataFormat format) const {
    parent_.data_formats_[index_] = format;
    parent_.buffer_indices_.insert(index_);
    return *this;
}

const CircularBufferConfig::Builder& CircularBufferConfig::Builder::set_total_size(uint32_t total_size) const {
    parent_.set_total_size(total_size);
    return *this;
}

const CircularBufferConfig::Builder& CircularBufferConfig::Builder::set_page_size(uint32_t page_size) const {
    parent_.set_page_size(index_, page_size);
    return *this;
}

}  // namespace tt::tt_metal
