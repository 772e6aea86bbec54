// DRAM read bandwidth: reader kernels on many cores each read their share of one large interleaved DRAM
// buffer into a CB and drop it (kernels/dataflow/reader_dram_checksum.cpp); each returns a checksum of
// what it read, which the host compares with its own. Parameters:
//   readers=all       every core of the grid, each reading a contiguous run of pages (so every bank in turn)
//   readers=one       core (0, 0) alone
//   readers=per_bank  one reader per DRAM bank, reader b reading only the pages in bank b
//   pages_per_reader, page_bytes, block_pages (pages per read barrier)
// Bytes read = readers x pages_per_reader x page_bytes.
#include <random>

#include "calibration_host.hpp"

using namespace calibration;

int main(int argc, char** argv) {
    const Params params(
        argc, argv, {{"readers", "all"}, {"pages_per_reader", "64"}, {"page_bytes", "2048"}, {"block_pages", "16"}});
    const std::string placement = params.text("readers");
    const uint32_t pages_per_reader = params.number("pages_per_reader");
    const uint32_t page_bytes = params.number("page_bytes");
    const uint32_t block_pages = params.number("block_pages");
    TT_FATAL(placement == "all" || placement == "one" || placement == "per_bank",
             "readers={} is not one of all, one, per_bank", placement);
    TT_FATAL(block_pages > 0 && page_bytes % 32 == 0, "block_pages must be > 0 and page_bytes a multiple of 32");

    Mesh mesh;
    const CoreCoord grid = mesh.grid();
    const uint32_t num_banks = mesh.device->num_dram_channels();
    const uint32_t num_readers = placement == "all" ? grid.x * grid.y : placement == "one" ? 1 : num_banks;
    TT_FATAL(num_readers <= grid.x * grid.y, "{} readers do not fit the {}x{} grid", num_readers, grid.x, grid.y);
    const uint32_t num_pages = num_readers * pages_per_reader;

    std::vector<uint32_t> data(size_t{num_pages} * page_bytes / sizeof(uint32_t));
    std::mt19937 random(7);
    for (uint32_t& word : data) {
        word = random();
    }
    BufferPtr data_buffer = upload(mesh, data, num_pages, page_bytes);
    constexpr uint32_t checksum_page_bytes = 32;
    BufferPtr checksum_buffer = dram_buffer(mesh, num_readers, checksum_page_bytes);

    // Readers fill the grid row by row.
    std::vector<CoreCoord> readers;
    for (uint32_t r = 0; r < num_readers; ++r) {
        readers.push_back({r % grid.x, r / grid.x});
    }
    const CoreRangeSet reader_cores(std::vector<CoreRange>(readers.begin(), readers.end()));
    Program program = CreateProgram();
    page_cb(program, reader_cores, tt::CBIndex::c_0, block_pages, page_bytes);
    const KernelHandle reader =
        CreateKernel(program, params.kernels() + "/dataflow/reader_dram_checksum.cpp", reader_cores,
                     ReaderDataMovementConfig(accessor_args({data_buffer, checksum_buffer})));

    // Reader r's pages, and the host's checksum of them.
    std::vector<uint32_t> expected(num_readers, 0);
    for (uint32_t r = 0; r < num_readers; ++r) {
        const bool per_bank = placement == "per_bank";
        const uint32_t first_page = per_bank ? r : r * pages_per_reader;
        const uint32_t page_stride = per_bank ? num_banks : 1;
        SetRuntimeArgs(program, reader, readers[r],
                       {address(data_buffer), page_bytes, first_page, page_stride, pages_per_reader, block_pages,
                        address(checksum_buffer), r});
        for (uint32_t p = 0; p < pages_per_reader; ++p) {
            const size_t word0 = size_t{first_page + p * page_stride} * page_bytes / sizeof(uint32_t);
            for (size_t w = 0; w < page_bytes / sizeof(uint32_t); ++w) {
                expected[r] += data[word0 + w];
            }
        }
    }
    run(mesh, std::move(program));

    const std::vector<uint32_t> checksums = download<uint32_t>(mesh, checksum_buffer);
    size_t mismatches = 0;
    std::string first;
    for (uint32_t r = 0; r < num_readers; ++r) {
        const uint32_t got = checksums.at(size_t{r} * checksum_page_bytes / sizeof(uint32_t));
        if (got != expected[r] && mismatches++ == 0) {
            first = fmt::format("reader {} at core ({}, {}): checksum {:#x}, expected {:#x}", r, readers[r].x,
                                readers[r].y, got, expected[r]);
        }
    }
    fmt::print("dram_read: {} readers x {} pages x {} B = {} bytes\n", num_readers, pages_per_reader, page_bytes,
               uint64_t{num_pages} * page_bytes);
    return report("dram_read", mismatches, first);
}
