// tt::stl::Span: a non-owning view of contiguous elements (std::span for C++17), built from a
// pointer and a count or from any container with data() and size().
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace tt::stl {

template <typename T>
class Span {
public:
    constexpr Span() = default;
    constexpr Span(T* data, std::size_t size) : data_(data), size_(size) {}

    template <typename Container,
              typename = std::enable_if_t<std::is_convertible_v<decltype(std::declval<Container&>().data()), T*>>>
    constexpr Span(Container& container) : data_(container.data()), size_(container.size()) {}

    template <typename Container,
              typename = std::enable_if_t<std::is_convertible_v<decltype(std::declval<const Container&>().data()), T*>>>
    constexpr Span(const Container& container) : data_(container.data()), size_(container.size()) {}

    constexpr T* data() const { return data_; }
    constexpr std::size_t size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    constexpr T& operator[](std::size_t i) const { return data_[i]; }
    constexpr T* begin() const { return data_; }
    constexpr T* end() const { return data_ + size_; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace tt::stl
