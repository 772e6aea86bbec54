// Host-side tilize/untilize (tt-metalium/tilize_utils.hpp), which copy whole face rows (or tile rows),
// against their definition datum by datum: datum (r, c) of each m x n matrix sits at r * n + c row-major
// and, tiled, in tile (r / 32) * (n / 32) + c / 32 at offset
//   faces:    ((r % 32) / 16 * 2 + (c % 32) / 16) * 256 + (r % 16) * 16 + c % 16
//   no faces: (r % 32) * 32 + c % 32.
// Shapes cover one tile, non-square grids of tiles and several matrices back to back; the datums are
// distinct, so any misplaced one is found. A type that is not trivially copyable takes the same path.
// convert_layout (from a span) gives the same results, and refuses the conversions the mock lacks.
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <tt-metalium/tilize_utils.hpp>

#include "test_support.hpp"

namespace {

struct Shape {
    uint32_t matrices, m, n;
};

constexpr Shape kShapes[] = {{1, 32, 32}, {1, 64, 96}, {1, 128, 32}, {3, 32, 64}, {2, 96, 160}};

size_t tiled_index(size_t r, size_t c, uint32_t n, bool faces) {
    const size_t tile = (r / 32) * (n / 32) + c / 32;
    const size_t in_tile =
        faces ? ((r % 32) / 16 * 2 + (c % 32) / 16) * 256 + (r % 16) * 16 + c % 16 : (r % 32) * 32 + c % 32;
    return tile * 1024 + in_tile;
}

// The definition: where each row-major datum goes in the tiled layout.
template <typename T>
std::vector<T> tiled_by_definition(const std::vector<T>& row_major, const Shape& shape, bool faces) {
    std::vector<T> tiled(row_major.size());
    const size_t matrix = size_t(shape.m) * shape.n;
    for (size_t base = 0; base < row_major.size(); base += matrix)
        for (size_t r = 0; r < shape.m; r++)
            for (size_t c = 0; c < shape.n; c++)
                tiled[base + tiled_index(r, c, shape.n, faces)] = row_major[base + r * shape.n + c];
    return tiled;
}

template <typename T>
void expect_equal(const std::vector<T>& actual, const std::vector<T>& expected, const std::string& what) {
    CHECK(actual.size() == expected.size());
    for (size_t i = 0; i < expected.size(); i++) {
        if (!(actual[i] == expected[i]))
            throw std::runtime_error(what + ": datum " + std::to_string(i) + " differs from the definition");
    }
}

// Checks the four conversions on every shape, with datums made by make(i) (distinct for distinct i).
template <typename T, typename Make>
void check_conversions(Make make, const char* type) {
    for (const Shape& shape : kShapes) {
        std::vector<T> row_major;
        for (size_t i = 0; i < size_t(shape.matrices) * shape.m * shape.n; i++)
            row_major.push_back(make(i));
        const std::string where = std::string(type) + " " + std::to_string(shape.matrices) + " x " +
                                  std::to_string(shape.m) + "x" + std::to_string(shape.n);
        const std::vector<T> faced = tiled_by_definition(row_major, shape, true);
        const std::vector<T> plain = tiled_by_definition(row_major, shape, false);
        expect_equal(tilize_nfaces(row_major, shape.m, shape.n), faced, "tilize_nfaces " + where);
        expect_equal(untilize_nfaces(faced, shape.m, shape.n), row_major, "untilize_nfaces " + where);
        expect_equal(tilize_swizzled(row_major, shape.m, shape.n), plain, "tilize_swizzled " + where);
        expect_equal(untilize_swizzled(plain, shape.m, shape.n), row_major, "untilize_swizzled " + where);
        // convert_layout, from a span over the caller's data (here: a vector's).
        const PhysicalSize size{shape.m, shape.n};
        const std::span<const T> rows(row_major.data(), row_major.size());
        expect_equal(convert_layout(rows, size, TensorLayoutType::LIN_ROW_MAJOR, TensorLayoutType::TILED_NFACES), faced,
                     "convert_layout to faces " + where);
        expect_equal(convert_layout<T>(faced, size, TensorLayoutType::TILED_NFACES, TensorLayoutType::LIN_ROW_MAJOR),
                     row_major, "convert_layout from faces " + where);
        expect_equal(convert_layout(rows, size, TensorLayoutType::LIN_ROW_MAJOR, TensorLayoutType::TILED_SWIZZLED),
                     plain, "convert_layout to plain tiles " + where);
    }
}

}  // namespace

TEST(tilize_and_untilize_of_16_and_32_bit_datums_match_the_definition) {
    check_conversions<uint16_t>([](size_t i) { return uint16_t(i * 7919); }, "uint16_t");
    check_conversions<float>([](size_t i) { return float(i); }, "float");
}

TEST(tilize_of_a_type_that_is_not_trivially_copyable_matches_the_definition) {
    check_conversions<std::string>([](size_t i) { return std::to_string(i); }, "std::string");
}

TEST(tilize_refuses_a_size_that_is_not_whole_tiles) {
    const std::vector<uint16_t> values(48 * 32);
    try {
        tilize_nfaces(values, 48, 32);
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()).find("m = 48 and n = 32 must be multiples of 32") != std::string::npos);
        return;
    }
    throw std::runtime_error("tilize_nfaces accepted a 48x32 matrix");
}

TEST(convert_layout_refuses_what_the_mock_does_not_convert) {
    const std::vector<uint16_t> values(32 * 32);
    const auto expect_refused = [&](auto convert, const std::string& message) {
        try {
            convert();
        } catch (const std::exception& e) {
            CHECK(std::string(e.what()).find(message) != std::string::npos);
            return;
        }
        throw std::runtime_error("convert_layout accepted what it should refuse: " + message);
    };
    expect_refused(
        [&] {
            convert_layout<uint16_t>(values, {32, 32}, TensorLayoutType::TILED_NFACES,
                                     TensorLayoutType::TILED_SWIZZLED);
        },
        "between LIN_ROW_MAJOR and a tiled layout only");
    expect_refused(
        [&] {
            convert_layout<uint16_t>(values, {32, 32}, TensorLayoutType::LIN_ROW_MAJOR, TensorLayoutType::TILED_NFACES,
                                     PhysicalSize{16, 32});
        },
        "32x32 tiles of 16x16 faces without transposes only");
}

int main() {
    return test::run_all();
}
