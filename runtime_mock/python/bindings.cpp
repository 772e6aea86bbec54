// The pybind11 module runtime_mock._runtime_mock: maps the runtime's C++ API (runtime_mock/*.hpp) to Python names
// and types, nothing more; the friendly API is the Python package runtime_mock on top.
//
// HostLibrary loads an SDK-style host program built as a shared object and calls its main() or its
// tilelang_tt_run(). The program's runtime symbols resolve against this module, which the package
// loads with RTLD_GLOBAL, so a process has one runtime. Libraries stay loaded until the process ends.
#include <dlfcn.h>
#include <pybind11/operators.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime_mock/arch.hpp"
#include "runtime_mock/device.hpp"
#include "runtime_mock/kernel_abi/tensor_accessor_word.h"
#include "runtime_mock/profile.hpp"
#include "runtime_mock/program_spec.hpp"

namespace py = pybind11;

namespace {

// The bytes of a C-contiguous Python buffer (numpy array, bytes, bytearray); the view keeps it alive.
class ContiguousBytes {
public:
    ContiguousBytes(const py::buffer& buffer, bool writable) : info_(buffer.request(writable)) {
        py::ssize_t stride = info_.itemsize;
        for (py::ssize_t dim = info_.ndim - 1; dim >= 0; --dim) {
            if (info_.shape[dim] != 1 && info_.strides[dim] != stride) {
                throw py::value_error("the array must be C-contiguous (use numpy.ascontiguousarray)");
            }
            stride *= info_.shape[dim];
        }
    }
    void* data() const { return info_.ptr; }
    size_t size() const { return static_cast<size_t>(info_.size * info_.itemsize); }

private:
    py::buffer_info info_;
};

class HostLibrary {
public:
    explicit HostLibrary(const std::string& path) : path_(path) {
        handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle_ == nullptr) {
            throw std::runtime_error("cannot load host program " + path + ": " + dlerror());
        }
    }

    bool has_symbol(const std::string& name) const { return dlsym(handle_, name.c_str()) != nullptr; }

    // Calls main(argc, argv) with argv[0] = the library's path; returns main's exit status.
    int main(const std::vector<std::string>& args) const {
        using Main = int (*)(int, char**);
        auto entry = reinterpret_cast<Main>(symbol("main"));
        std::vector<std::string> storage{path_};
        storage.insert(storage.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& arg : storage) {
            argv.push_back(arg.data());
        }
        argv.push_back(nullptr);
        py::gil_scoped_release release;
        FlushOnExit flush;
        return entry(static_cast<int>(storage.size()), argv.data());
    }

    // Calls tilelang_tt_run(kernel_dir, tensors, n, sizes, num_sizes): outputs are written into the arrays
    // in place. The program's devices get `arch` (this call's thread only), else the default arch.
    void run(const std::string& kernel_dir, const std::vector<py::buffer>& tensors, const std::vector<uint32_t>& sizes,
             std::optional<runtime_mock::Arch> arch) const {
        using Run = void (*)(const char*, void* const*, int, const uint32_t*, int);
        auto entry = reinterpret_cast<Run>(symbol("tilelang_tt_run"));
        std::vector<ContiguousBytes> views;
        std::vector<void*> pointers;
        for (const py::buffer& tensor : tensors) {
            views.emplace_back(tensor, true);
            pointers.push_back(views.back().data());
        }
        py::gil_scoped_release release;
        FlushOnExit flush;
        std::optional<runtime_mock::ThreadArch> thread_arch;
        if (arch)
            thread_arch.emplace(*arch);
        entry(kernel_dir.c_str(), pointers.data(), static_cast<int>(pointers.size()), sizes.data(),
              static_cast<int>(sizes.size()));
    }

private:
    // The program's C stdio output reaches the terminal before Python prints anything else.
    struct FlushOnExit {
        ~FlushOnExit() { std::fflush(nullptr); }
    };

    void* symbol(const char* name) const {
        void* address = dlsym(handle_, name);
        if (address == nullptr) {
            throw std::runtime_error(std::string("host program ") + path_ + " does not define " + name);
        }
        return address;
    }

    std::string path_;
    void* handle_;
};

void bind_errors(py::module_& m) {
    // Translators run most recent first, so the base class is registered before its subclasses.
    const py::object base = py::register_exception<runtime_mock::DeviceError>(m, "DeviceError", PyExc_RuntimeError);
    py::register_exception<runtime_mock::DeadlockError>(m, "DeadlockError", base);
    py::register_exception<runtime_mock::CircularBufferError>(m, "CircularBufferError", base);
    py::register_exception<runtime_mock::NocAccessError>(m, "NocAccessError", base);
    py::register_exception<runtime_mock::DstError>(m, "DstError", base);
    py::register_exception<runtime_mock::ArgumentError>(m, "ArgumentError", base);
    py::register_exception<runtime_mock::KernelBuildError>(m, "KernelBuildError", base);
    py::register_exception<runtime_mock::KernelFaultError>(m, "KernelFaultError", base);
    py::register_exception<runtime_mock::DataRaceError>(m, "DataRaceError", base);
}

void bind_arch(py::module_& m) {
    py::enum_<runtime_mock::Arch>(m, "Arch")
        .value("Wormhole", runtime_mock::Arch::Wormhole)
        .value("Blackhole", runtime_mock::Arch::Blackhole);
    py::class_<runtime_mock::ArchSpec>(m, "ArchSpec")
        .def_readonly("arch", &runtime_mock::ArchSpec::arch)
        .def_property_readonly("name", [](const runtime_mock::ArchSpec& s) { return std::string(s.name); })
        .def_readonly("grid_x", &runtime_mock::ArchSpec::grid_x)
        .def_readonly("grid_y", &runtime_mock::ArchSpec::grid_y)
        .def_readonly("l1_bytes", &runtime_mock::ArchSpec::l1_bytes)
        .def_readonly("l1_reserved_bytes", &runtime_mock::ArchSpec::l1_reserved_bytes)
        .def_readonly("dram_banks", &runtime_mock::ArchSpec::dram_banks)
        .def_readonly("dram_bank_bytes", &runtime_mock::ArchSpec::dram_bank_bytes)
        .def_readonly("num_circular_buffers", &runtime_mock::ArchSpec::num_circular_buffers)
        .def_readonly("dram_alignment", &runtime_mock::ArchSpec::dram_alignment)
        .def_readonly("l1_alignment", &runtime_mock::ArchSpec::l1_alignment)
        .def_readonly("dst_tiles_16bit", &runtime_mock::ArchSpec::dst_tiles_16bit)
        .def_property_readonly("clock_ghz", [](const runtime_mock::ArchSpec& s) { return s.timing->clock_ghz; });
    m.def("arch_spec", &runtime_mock::arch_spec, py::return_value_policy::reference);
    // The TensorAccessorArgs compile-time word of an interleaved DRAM buffer (L1: 0).
    m.attr("TENSOR_ACCESSOR_DRAM") = uint32_t(runtime_mock::kernel_abi::accessor_word::kIsDram);
    m.def("build_program_kernels", &runtime_mock::build_program_kernels, py::arg("program"), py::arg("arch"),
          py::call_guard<py::gil_scoped_release>());
    m.def("wait_for_scrubber", &runtime_mock::wait_for_scrubber, py::call_guard<py::gil_scoped_release>());
    m.def("parse_arch", &runtime_mock::parse_arch);
    m.def("default_arch", &runtime_mock::default_arch);
    m.def("set_default_arch", &runtime_mock::set_default_arch);
}

void bind_program_spec(py::module_& m) {
    py::class_<runtime_mock::LogicalCore>(m, "LogicalCore")
        .def(py::init([](uint32_t x, uint32_t y) { return runtime_mock::LogicalCore{x, y}; }), py::arg("x"),
             py::arg("y"))
        .def_readwrite("x", &runtime_mock::LogicalCore::x)
        .def_readwrite("y", &runtime_mock::LogicalCore::y)
        .def(py::self == py::self)
        .def(py::self < py::self)
        .def("__hash__",
             [](const runtime_mock::LogicalCore& c) { return std::hash<uint64_t>{}((uint64_t{c.x} << 32) | c.y); })
        .def("__repr__", [](const runtime_mock::LogicalCore& c) {
            return "LogicalCore(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
        });

    py::enum_<runtime_mock::DataFormat>(m, "DataFormat")
        .value("Float32", runtime_mock::DataFormat::Float32)
        .value("Float16", runtime_mock::DataFormat::Float16)
        .value("Bfp8", runtime_mock::DataFormat::Bfp8)
        .value("Bfp4", runtime_mock::DataFormat::Bfp4)
        .value("Float16_b", runtime_mock::DataFormat::Float16_b)
        .value("Bfp8_b", runtime_mock::DataFormat::Bfp8_b)
        .value("Bfp4_b", runtime_mock::DataFormat::Bfp4_b)
        .value("UInt32", runtime_mock::DataFormat::UInt32)
        .value("UInt16", runtime_mock::DataFormat::UInt16)
        .value("Int32", runtime_mock::DataFormat::Int32)
        .value("UInt8", runtime_mock::DataFormat::UInt8);

    py::enum_<runtime_mock::KernelRole>(m, "KernelRole")
        .value("DataMovement0", runtime_mock::KernelRole::DataMovement0)
        .value("DataMovement1", runtime_mock::KernelRole::DataMovement1)
        .value("Compute", runtime_mock::KernelRole::Compute);

    py::class_<runtime_mock::ComputeOptions>(m, "ComputeOptions")
        .def(py::init<>())
        .def_readwrite("math_fidelity", &runtime_mock::ComputeOptions::math_fidelity)
        .def_readwrite("fp32_dest_acc_en", &runtime_mock::ComputeOptions::fp32_dest_acc_en)
        .def_readwrite("dst_full_sync_en", &runtime_mock::ComputeOptions::dst_full_sync_en)
        .def_readwrite("math_approx_mode", &runtime_mock::ComputeOptions::math_approx_mode);

    py::class_<runtime_mock::KernelSpec>(m, "KernelSpec")
        .def(py::init<>())
        .def_readwrite("source_path", &runtime_mock::KernelSpec::source_path)
        .def_readwrite("role", &runtime_mock::KernelSpec::role)
        .def_readwrite("noc", &runtime_mock::KernelSpec::noc)
        .def_readwrite("cores", &runtime_mock::KernelSpec::cores)
        .def_readwrite("compile_args", &runtime_mock::KernelSpec::compile_args)
        .def_readwrite("defines", &runtime_mock::KernelSpec::defines)
        .def_readwrite("named_compile_args", &runtime_mock::KernelSpec::named_compile_args)
        .def_readwrite("compute", &runtime_mock::KernelSpec::compute)
        .def_readwrite("runtime_args", &runtime_mock::KernelSpec::runtime_args)
        .def_readwrite("common_runtime_args", &runtime_mock::KernelSpec::common_runtime_args);

    py::class_<runtime_mock::CircularBufferSpec::Index>(m, "CircularBufferIndex")
        .def(py::init([](uint32_t index, runtime_mock::DataFormat format, uint32_t page_size) {
                 return runtime_mock::CircularBufferSpec::Index{index, format, page_size};
             }),
             py::arg("index"), py::arg("format"), py::arg("page_size"))
        .def_readwrite("index", &runtime_mock::CircularBufferSpec::Index::index)
        .def_readwrite("format", &runtime_mock::CircularBufferSpec::Index::format)
        .def_readwrite("page_size", &runtime_mock::CircularBufferSpec::Index::page_size);

    py::class_<runtime_mock::CircularBufferSpec>(m, "CircularBufferSpec")
        .def(py::init<>())
        .def_readwrite("cores", &runtime_mock::CircularBufferSpec::cores)
        .def_readwrite("total_size", &runtime_mock::CircularBufferSpec::total_size)
        .def_readwrite("indices", &runtime_mock::CircularBufferSpec::indices);

    py::class_<runtime_mock::SemaphoreSpec>(m, "SemaphoreSpec")
        .def(py::init<>())
        .def_readwrite("id", &runtime_mock::SemaphoreSpec::id)
        .def_readwrite("cores", &runtime_mock::SemaphoreSpec::cores)
        .def_readwrite("initial_value", &runtime_mock::SemaphoreSpec::initial_value);

    py::class_<runtime_mock::ProgramSpec>(m, "ProgramSpec")
        .def(py::init<>())
        .def_readwrite("kernels", &runtime_mock::ProgramSpec::kernels)
        .def_readwrite("circular_buffers", &runtime_mock::ProgramSpec::circular_buffers)
        .def_readwrite("semaphores", &runtime_mock::ProgramSpec::semaphores);
}

// Spans and flows cross as packed bytes that runtime_mock.profile reads with numpy (its dtypes mirror these).
static_assert(sizeof(runtime_mock::TraceSpan) == 32 && offsetof(runtime_mock::TraceSpan, name) == 16 &&
              offsetof(runtime_mock::TraceSpan, core) == 20 && offsetof(runtime_mock::TraceSpan, track) == 24 &&
              offsetof(runtime_mock::TraceSpan, category) == 25);
static_assert(sizeof(runtime_mock::TraceFlow) == 32 && offsetof(runtime_mock::TraceFlow, from_core) == 8 &&
              offsetof(runtime_mock::TraceFlow, from_track) == 12 &&
              offsetof(runtime_mock::TraceFlow, to_cycle) == 16 && offsetof(runtime_mock::TraceFlow, to_core) == 24 &&
              offsetof(runtime_mock::TraceFlow, to_track) == 28);

template <typename T>
py::bytes packed(const std::vector<T>& items) {
    return py::bytes(reinterpret_cast<const char*>(items.data()), items.size() * sizeof(T));
}

void bind_profile(py::module_& m) {
    py::class_<runtime_mock::RiscProfile>(m, "RiscProfile")
        .def_readonly("present", &runtime_mock::RiscProfile::present)
        .def_readonly("busy_cycles", &runtime_mock::RiscProfile::busy_cycles)
        .def_readonly("end_cycle", &runtime_mock::RiscProfile::end_cycle)
        .def_readonly("waits", &runtime_mock::RiscProfile::waits);
    py::class_<runtime_mock::CoreProfile>(m, "CoreProfile")
        .def_readonly("core", &runtime_mock::CoreProfile::core)
        .def_property_readonly("riscs", [](const runtime_mock::CoreProfile& c) {
            return std::vector<runtime_mock::RiscProfile>(std::begin(c.riscs), std::end(c.riscs));
        });
    py::class_<runtime_mock::RunProfile, std::shared_ptr<runtime_mock::RunProfile>>(m, "RunProfile")
        .def_readonly("arch", &runtime_mock::RunProfile::arch)
        .def_readonly("clock_ghz", &runtime_mock::RunProfile::clock_ghz)
        .def_readonly("cycles", &runtime_mock::RunProfile::cycles)
        .def_readonly("cores", &runtime_mock::RunProfile::cores)
        .def_readonly("matmul_tiles", &runtime_mock::RunProfile::matmul_tiles)
        .def_readonly("dram_bytes_read", &runtime_mock::RunProfile::dram_bytes_read)
        .def_readonly("dram_bytes_written", &runtime_mock::RunProfile::dram_bytes_written)
        .def_readonly("noc_bytes", &runtime_mock::RunProfile::noc_bytes)
        .def_readonly("forced_waits", &runtime_mock::RunProfile::forced_waits)
        .def_readonly("names", &runtime_mock::RunProfile::names)
        .def("packed_spans", [](const runtime_mock::RunProfile& p) { return packed(p.spans); })
        .def("packed_flows", [](const runtime_mock::RunProfile& p) { return packed(p.flows); });
    py::class_<runtime_mock::ProfilingSession>(m, "ProfilingSession")
        .def(py::init<>())
        .def("close", &runtime_mock::ProfilingSession::close)
        .def_property_readonly("runs", [](const runtime_mock::ProfilingSession& s) {
            std::vector<std::shared_ptr<runtime_mock::RunProfile>> runs;
            for (const auto& run : s.runs())
                runs.push_back(std::const_pointer_cast<runtime_mock::RunProfile>(run));
            return runs;
        });
}

void bind_device(py::module_& m) {
    py::enum_<runtime_mock::BufferKind>(m, "BufferKind")
        .value("Dram", runtime_mock::BufferKind::Dram)
        .value("L1", runtime_mock::BufferKind::L1);

    py::class_<runtime_mock::CoreCounters>(m, "CoreCounters")
        .def_readonly("core", &runtime_mock::CoreCounters::core)
        .def_readonly("tiles_read", &runtime_mock::CoreCounters::tiles_read)
        .def_readonly("tiles_written", &runtime_mock::CoreCounters::tiles_written)
        .def_readonly("noc_bytes_read", &runtime_mock::CoreCounters::noc_bytes_read)
        .def_readonly("noc_bytes_written", &runtime_mock::CoreCounters::noc_bytes_written)
        .def_readonly("cb_waits", &runtime_mock::CoreCounters::cb_waits);

    py::class_<runtime_mock::Device>(m, "Device")
        // Releases the GIL: a new device may wait for another thread's device to give back its L1.
        .def(py::init<runtime_mock::Arch>(), py::arg("arch"), py::call_guard<py::gil_scoped_release>())
        .def_property_readonly("spec", &runtime_mock::Device::spec, py::return_value_policy::reference)
        .def("allocate_dram", &runtime_mock::Device::allocate_dram, py::arg("size_bytes"), py::arg("page_size"))
        .def("allocate_l1", &runtime_mock::Device::allocate_l1, py::arg("size_bytes"), py::arg("page_size"))
        .def("deallocate", &runtime_mock::Device::deallocate, py::arg("kind"), py::arg("address"))
        .def(
            "write_interleaved",
            [](runtime_mock::Device& device, runtime_mock::BufferKind kind, uint64_t address, uint32_t page_size,
               const py::buffer& data) {
                const ContiguousBytes bytes(data, false);
                device.write_interleaved(kind, address, page_size, bytes.data(), bytes.size());
            },
            py::arg("kind"), py::arg("address"), py::arg("page_size"), py::arg("data"))
        .def(
            "read_interleaved",
            [](const runtime_mock::Device& device, runtime_mock::BufferKind kind, uint64_t address, uint32_t page_size,
               const py::buffer& out) {
                const ContiguousBytes bytes(out, true);
                device.read_interleaved(kind, address, page_size, bytes.data(), bytes.size());
            },
            py::arg("kind"), py::arg("address"), py::arg("page_size"), py::arg("out"))
        .def("worker_noc_coord", &runtime_mock::Device::worker_noc_coord, py::arg("logical"))
        .def("dram_bank_noc_coord", &runtime_mock::Device::dram_bank_noc_coord, py::arg("bank"))
        .def("run", &runtime_mock::Device::run, py::arg("program"), py::call_guard<py::gil_scoped_release>())
        .def("last_run_counters", &runtime_mock::Device::last_run_counters)
        .def("last_run_profile", [](const runtime_mock::Device& device) {
            return std::const_pointer_cast<runtime_mock::RunProfile>(device.last_run_profile());
        });
}

}  // namespace

PYBIND11_MODULE(_runtime_mock, m) {
    m.doc() = "Bindings of the TileLang-TT mock Tenstorrent device (use the runtime_mock package).";
    bind_errors(m);
    bind_arch(m);
    bind_program_spec(m);
    bind_profile(m);
    bind_device(m);
    py::class_<HostLibrary>(m, "HostLibrary")
        .def(py::init<const std::string&>(), py::arg("path"))
        .def("has_symbol", &HostLibrary::has_symbol, py::arg("name"))
        .def("main", &HostLibrary::main, py::arg("args"))
        .def("run", &HostLibrary::run, py::arg("kernel_dir"), py::arg("tensors"),
             py::arg("sizes") = std::vector<uint32_t>{}, py::arg("arch") = py::none());
}
