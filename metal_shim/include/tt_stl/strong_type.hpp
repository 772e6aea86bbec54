// ttsl::StrongType<T, Tag>: a T that does not convert to or from other StrongTypes of the same T (the SDK
// names ids this way, e.g. SubDeviceId). Namespace ttsl as in the SDK, so signatures that take one have the
// SDK's mangled names.
#pragma once

#include <utility>

namespace ttsl {

template <typename T, typename Tag>
class StrongType {
public:
    constexpr explicit StrongType(T value) : value_(std::move(value)) {}

    constexpr const T& operator*() const { return value_; }

    constexpr bool operator==(const StrongType& other) const { return value_ == other.value_; }
    constexpr bool operator!=(const StrongType& other) const { return value_ != other.value_; }

private:
    T value_;
};

}  // namespace ttsl
