// The SDK's bfloat16 vector helpers (tt-metalium/bfloat16.hpp): packing two values per word, random and
// constant test vectors, printing and comparison.
#include <tt-metalium/bfloat16.hpp>

#include <cmath>
#include <ostream>
#include <random>

std::ostream& operator<<(std::ostream& os, const bfloat16& value) {
    return os << bfloat16_bits(value);
}

bool operator==(const std::vector<bfloat16>& lhs, const std::vector<bfloat16>& rhs) {
    return lhs.size() == rhs.size() && (lhs.empty() || std::memcmp(lhs.data(), rhs.data(), lhs.size() * 2) == 0);
}

std::vector<uint32_t> pack_bfloat16_vec_into_uint32_vec(const std::vector<bfloat16>& data) {
    std::vector<uint32_t> packed((data.size() + 1) / 2, 0);
    std::memcpy(packed.data(), data.data(), data.size() * sizeof(bfloat16));
    return packed;
}

std::vector<bfloat16> unpack_uint32_vec_into_bfloat16_vec(const std::vector<uint32_t>& data,
                                                          const std::function<bfloat16(const bfloat16&)>& transform) {
    std::vector<bfloat16> unpacked(data.size() * 2);
    std::memcpy(static_cast<void*>(unpacked.data()), data.data(), data.size() * sizeof(uint32_t));
    for (bfloat16& value : unpacked) {
        value = transform(value);
    }
    return unpacked;
}

std::vector<bfloat16> create_random_vector_of_bfloat16_native(size_t num_bytes, float rand_max_float, int seed,
                                                              float offset) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> distribution(0, rand_max_float);
    std::vector<bfloat16> values(num_bytes / sizeof(bfloat16));
    for (bfloat16& value : values) {
        value = bfloat16(distribution(rng) + offset);
    }
    return values;
}

std::vector<uint32_t> create_random_vector_of_bfloat16(size_t num_bytes, int rand_max_float, int seed, float offset) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> distribution(0, rand_max_float);
    std::vector<uint32_t> packed(num_bytes / sizeof(uint32_t));
    for (uint32_t& word : packed) {
        const float first = distribution(rng) + offset;
        const float second = distribution(rng) + offset;
        word = pack_two_bfloat16_into_uint32({bfloat16(first), bfloat16(second)});
    }
    return packed;
}

std::vector<uint32_t> create_constant_vector_of_bfloat16(size_t num_bytes, float value) {
    return std::vector<uint32_t>(num_bytes / sizeof(uint32_t), pack_two_bfloat16_into_uint32({value, value}));
}

bool is_close(float a, float b, float rtol, float atol) {
    return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}
