// bfloat16: the upper 16 bits of an IEEE float (1 sign, 8 exponent, 7 mantissa bits), the Tensix's
// main data type. Semantics of the SDK since 2025-09: constructing from any arithmetic value rounds
// to nearest even (NaN becomes 0x7FC0); bfloat16::truncate() drops the low bits; conversion to float
// is exact; comparisons and arithmetic go through float. The vector helpers are defined in
// metal_shim/src/bfloat16.cpp.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iosfwd>
#include <type_traits>
#include <utility>
#include <vector>

class bfloat16 {
public:
    bfloat16() = default;

    template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
    bfloat16(T value) noexcept : bits_(round_to_nearest_even(static_cast<float>(value))) {}

    static bfloat16 truncate(float value) {
        bfloat16 result;
        result.bits_ = static_cast<uint16_t>(float_bits(value) >> 16);
        return result;
    }

    operator float() const {
        const uint32_t bits = static_cast<uint32_t>(bits_) << 16;
        float value;
        std::memcpy(&value, &bits, sizeof(value));
        return value;
    }

    bool operator==(bfloat16 rhs) const { return static_cast<float>(*this) == static_cast<float>(rhs); }
    bool operator!=(bfloat16 rhs) const { return !(*this == rhs); }
    bool operator<(bfloat16 rhs) const { return static_cast<float>(*this) < static_cast<float>(rhs); }
    bool operator>(bfloat16 rhs) const { return rhs < *this; }
    bool operator<=(bfloat16 rhs) const { return static_cast<float>(*this) <= static_cast<float>(rhs); }
    bool operator>=(bfloat16 rhs) const { return rhs <= *this; }

    bfloat16 operator+(bfloat16 rhs) const { return bfloat16(static_cast<float>(*this) + static_cast<float>(rhs)); }
    bfloat16 operator-(bfloat16 rhs) const { return bfloat16(static_cast<float>(*this) - static_cast<float>(rhs)); }
    bfloat16 operator*(bfloat16 rhs) const { return bfloat16(static_cast<float>(*this) * static_cast<float>(rhs)); }
    bfloat16 operator/(bfloat16 rhs) const { return bfloat16(static_cast<float>(*this) / static_cast<float>(rhs)); }
    bfloat16& operator+=(bfloat16 rhs) noexcept { return *this = *this + rhs; }
    bfloat16& operator-=(bfloat16 rhs) noexcept { return *this = *this - rhs; }
    bfloat16& operator*=(bfloat16 rhs) noexcept { return *this = *this * rhs; }
    bfloat16& operator/=(bfloat16 rhs) noexcept { return *this = *this / rhs; }

private:
    static uint32_t float_bits(float value) {
        uint32_t bits;
        std::memcpy(&bits, &value, sizeof(bits));
        return bits;
    }

    static uint16_t round_to_nearest_even(float value) {
        if (std::isnan(value)) {
            return 0x7FC0;
        }
        const uint32_t bits = float_bits(value);
        return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    }

    uint16_t bits_ = 0;
};

static_assert(sizeof(bfloat16) == 2 && std::is_trivially_copyable_v<bfloat16>);

inline uint16_t bfloat16_bits(bfloat16 value) {
    uint16_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
}

// Prints the raw bits, as the SDK does.
std::ostream& operator<<(std::ostream& os, const bfloat16& value);

// Bitwise equality of two vectors.
bool operator==(const std::vector<bfloat16>& lhs, const std::vector<bfloat16>& rhs);

// first -> low 16 bits, second -> high 16 bits.
inline uint32_t pack_two_bfloat16_into_uint32(std::pair<bfloat16, bfloat16> two_bfloats) {
    return static_cast<uint32_t>(bfloat16_bits(two_bfloats.first)) |
           (static_cast<uint32_t>(bfloat16_bits(two_bfloats.second)) << 16);
}

std::vector<uint32_t> pack_bfloat16_vec_into_uint32_vec(const std::vector<bfloat16>& data);

inline bfloat16 bfloat16_identity_transform(const bfloat16& input) {
    return input;
}

// Two values per word (the low half first), each passed through `transform`.
std::vector<bfloat16> unpack_uint32_vec_into_bfloat16_vec(
    const std::vector<uint32_t>& data,
    const std::function<bfloat16(const bfloat16&)>& transform = bfloat16_identity_transform);

// num_bytes / 2 values drawn uniformly from [offset, offset + rand_max_float) with std::mt19937(seed).
std::vector<bfloat16> create_random_vector_of_bfloat16_native(size_t num_bytes, float rand_max_float, int seed,
                                                              float offset = 0.0f);

// The same values packed two per uint32 (first in the low half).
std::vector<uint32_t> create_random_vector_of_bfloat16(size_t num_bytes, int rand_max_float, int seed,
                                                       float offset = 0.0f);

std::vector<uint32_t> create_constant_vector_of_bfloat16(size_t num_bytes, float value);

// |a - b| <= atol + rtol * |b|.
bool is_close(float a, float b, float rtol = 0.01f, float atol = 0.001f);
