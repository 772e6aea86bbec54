"""Compile a PrimFunc into a callable kernel that runs the generated C++ on the mock device.

    kernel = tilelang_tt.compile(gemm, out_idx=[-1], target="wormhole", partition="row_major")
    C = kernel(A, B)                      # numpy in (ml_dtypes.bfloat16 / float16 / float32), numpy out
    print(kernel.get_kernel_source())     # reader.cpp + compute.cpp + writer.cpp
    kernel.get_profiler().assert_allclose(ref_program)   # TileLang's check (profiler.py)
    kernel.write_artifacts("out/")        # the five artifacts

Calling a kernel writes the artifacts to a directory keyed by their hash and the options, builds main.cpp
into a shared object with the device package (``runtime_mock``), cached under the hash of main.cpp, and runs
``tilelang_tt_run`` from it in-process on the three kernels in a directory keyed by their text alone; the
device JIT-compiles and caches them itself. Kernels take the problem's sizes as runtime arguments, so the
kernels of a program at a new shape are usually the same text, and their built objects are reused.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from . import config, eager, host_sizes
from .arguments import bind_arguments, output_indices
from .errors import TTCompileError, TTRuntimeError
from .factory import KernelFactory, source_def_loc
from .options import CompileOptions
from .pass_config import TT_MATH_FIDELITY, check_pass_configs, with_approximate_exp
from .profiler import KernelProfile, Profiler
from .tensor_supply import TensorSupplyType

if TYPE_CHECKING:
    import tvm
    from tvm import tirx

__all__ = ["CompiledKernel", "JITKernel", "compile", "function_name", "jit", "par_compile"]

MOCK_ARCHS = ("wormhole", "blackhole")
KERNEL_FILES = ("reader.cpp", "compute.cpp", "writer.cpp")


@functools.lru_cache(maxsize=4)
def _headers_digest(include_dir: str) -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(include_dir).rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(include_dir)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def shim_fingerprint() -> str:
    """Digest of every header under the device's include roots in use: the shim's and the kernel ABI's
    (hashed once per process and directory)."""
    include_dirs = config.find_include_dirs()
    return ",".join(_headers_digest(d) for d in include_dirs.values()) if include_dirs else "no shim"


def is_prim_func(value) -> bool:
    """Whether ``value`` is a PrimFunc; without importing TVM, since a program that has not imported it
    cannot hold one."""
    tvm = sys.modules.get("tvm")
    return tvm is not None and isinstance(value, tvm.tirx.PrimFunc)


def function_name(func: tirx.PrimFunc) -> str:
    """The name a kernel compiled from ``func`` goes by: its global symbol, else "main"."""
    return str(func.attrs["global_symbol"]) if func.attrs and "global_symbol" in func.attrs else "main"


class CompiledKernel:
    """What every compiled kernel offers beside its call: TileLang's profiler and a profiled call. A
    subclass has ``name``, ``options``, ``params``, ``out_idx``, ``build()`` and ``__call__``."""

    def get_profiler(self, tensor_supply_type: TensorSupplyType = TensorSupplyType.Auto) -> Profiler:
        """TileLang's profiler for this kernel: ``assert_allclose(ref_program)``, ``do_bench()``,
        ``run_once()`` on inputs drawn as ``tensor_supply_type`` says (``profiler.py``)."""
        return Profiler(self, tensor_supply_type)

    def run_once(self, func=None):
        """TileLang's ``kernel.run_once()``: the kernel (or ``func``) called once on generated inputs; its
        result (``Profiler.run_once``)."""
        return self.get_profiler().run_once(func)

    def profile(self, *args) -> KernelProfile:
        """One call, with ``__call__``'s arguments (none: generated inputs), under the device timing model:
        modelled time, per-core per-RISC breakdown, TFLOPS against the peak, Chrome trace (profiler.py)."""
        if not args:
            return self.get_profiler().profile()
        runtime_mock = _device()
        self.build()  # a first call's host build and kernel JIT are not device time
        with runtime_mock.profiling() as session:
            self(*args)
        return KernelProfile(session, self.name, self.options.target, self.options.math_fidelity)


class JITKernel(CompiledKernel):
    """A compiled program: its artifacts, per-pass timings and a ``__call__`` that runs it. ``func`` is the
    PrimFunc and ``lowered`` the IRModule after the passes; a kernel read from the kernel cache
    (``from_artifacts``, ``from_cache`` True) never saw TVM and builds them only when asked."""

    def __init__(self, func: tirx.PrimFunc, options: CompileOptions, dump_ir: str | None = None):
        from .pipeline import emit_tt_artifacts

        self._func, self._rebuild = func, None
        self.from_cache = False
        self.options = options
        self.pass_timings: list[tuple[str, float]] = []
        start = time.perf_counter()
        self.name = function_name(func)
        self._lowered = self._run_passes(dump_ir, self.pass_timings)
        lowered_at = time.perf_counter()
        self._take_artifacts(emit_tt_artifacts(self.lowered))
        self.codegen_seconds = time.perf_counter() - lowered_at
        self.compile_seconds = time.perf_counter() - start

    @classmethod
    def from_artifacts(
        cls, name: str, options: CompileOptions, artifacts: dict[str, str], rebuild: Callable
    ) -> JITKernel:
        """The kernel whose compile produced ``artifacts`` (kernel_cache.py), without compiling it again;
        ``rebuild()`` gives its PrimFunc when ``func`` is asked for."""
        kernel = cls.__new__(cls)
        kernel._func, kernel._rebuild, kernel._lowered = None, rebuild, None
        kernel.from_cache = True
        kernel.options, kernel.name = options, name
        kernel.pass_timings = []
        kernel.codegen_seconds = kernel.compile_seconds = 0.0
        kernel._take_artifacts(artifacts)
        return kernel

    @property
    def func(self) -> tirx.PrimFunc:
        if self._func is None:
            self._func = self._rebuild()
        return self._func

    @property
    def lowered(self) -> tvm.IRModule:
        """The IRModule after the passes (for a kernel from the cache: its PrimFunc compiled again)."""
        if self._lowered is None:
            self._lowered = self._run_passes()
        return self._lowered

    def _run_passes(self, dump_ir: str | None = None, timings: list | None = None) -> tvm.IRModule:
        import tvm

        from .pipeline import run_pipeline

        mod = tvm.IRModule({self.name: self.func})
        return run_pipeline(mod, **self.options.pipeline_kwargs(), dump_ir=dump_ir, timings=timings)

    def _take_artifacts(self, artifacts: dict[str, str]) -> None:
        self.artifacts: dict[str, str] = artifacts
        self.plan = json.loads(self.artifacts["tt.plan.json"])
        self.params = self.plan["tensors"]
        self.out_idx = output_indices(self.params, self.options.out_idx, self.name)
        self._host = None
        # What a warm call would otherwise recompute or read again (see _memoised, _holds).
        self._memo: dict[str, tuple[tuple, str]] = {}
        self._checked: dict[Path, tuple[int, int, int, int]] = {}

    @property
    def cores_used(self) -> int:
        return len(self.plan["core_work"])

    def get_kernel_source(self, which: str | None = None) -> str:
        """One artifact by name (``"compute.cpp"``...), or the three kernels one after another."""
        if which is not None:
            return self.artifacts[which]
        return "\n".join(
            f"// ===== {n} =====\n{self.artifacts[n]}" for n in ("reader.cpp", "compute.cpp", "writer.cpp")
        )

    @property
    def programs(self) -> list[JITKernel]:
        """The device programs a call runs: this one."""
        return [self]

    def write_artifacts(self, path: str) -> list[str]:
        os.makedirs(path, exist_ok=True)
        written = []
        for name, text in self.artifacts.items():
            target = os.path.join(path, name)
            with open(target, "w") as f:
                f.write(text)
            written.append(target)
        return written

    def _memoised(self, what: str, inputs: tuple, compute) -> str:
        """compute(), computed again only when ``inputs`` (what it reads) changed: a warm call compares the
        artifact texts by identity instead of hashing them (tests edit ``artifacts`` in place)."""
        cached = self._memo.get(what)
        if cached is None or cached[0] != inputs:
            cached = self._memo[what] = (inputs, compute())
        return cached[1]

    @staticmethod
    def _digest(prefix: str, named_texts) -> str:
        digest = hashlib.sha256(prefix.encode())
        for name, text in named_texts:
            digest.update(name.encode() + b"\0" + text.encode())
        return digest.hexdigest()[:24]

    @property
    def build_hash(self) -> str:
        """Key of the kernel directory: the options and every artifact."""
        named = tuple(sorted(self.artifacts.items()))
        return self._memoised("build", (self.options, named), lambda: self._digest(repr(self.options), named))

    @property
    def kernels_hash(self) -> str:
        """Key of the directory the device builds the kernels from: the options and the three kernels."""
        named = tuple((name, self.artifacts[name]) for name in KERNEL_FILES)
        return self._memoised(
            "kernels", (self.options, named), lambda: self._digest(repr(self.options), named)
        )

    @property
    def host_hash(self) -> str:
        """Key of the host shared object: main.cpp and the shim headers it is compiled against (kernels
        are JIT-built, and cached, by the device), so a changed header never reuses a stale object."""
        named = (("main.cpp", self.artifacts["main.cpp"]),)
        return self._memoised(
            "host", (shim_fingerprint(), named), lambda: self._digest(shim_fingerprint(), named)
        )

    def build(self) -> tuple[str, str]:
        """Write the artifacts and build (or reuse) the host shared object: (kernel dir, host .so).

        Nothing cached is trusted: artifact files must equal this kernel's artifacts (edited or emptied ones
        are rewritten), and the host object must match its manifest (runtime_mock.cache_entry) and load (a
        damaged one is rebuilt). A warm cache is only read; an unusable cache directory raises TTRuntimeError
        naming it and TILELANG_TT_CACHE_DIR."""
        runtime_mock = _device()
        directory = self._artifact_directory(self.build_hash, self.artifacts)
        return str(directory), str(self._host_object(runtime_mock, directory))

    def _kernel_program(self, runtime_mock, kernel_dir: Path):
        """The plan's kernels and circular buffers as a runtime_mock.Program: what the host program will give
        the device, as far as building the kernels goes (their sources, arguments, CB formats)."""
        plan = self.plan
        cores = [tuple(w["core"]) for w in plan["core_work"]]
        memory = {t["name"]: t["memory"] for t in plan["tensors"]}
        program = runtime_mock.Program()
        for k in plan["kernels"]:
            role = {"RISCV_0": "riscv_0", "RISCV_1": "riscv_1"}.get(k.get("processor"), "compute")
            words = [
                w
                for a in k["compile_time_args"]
                for w in runtime_mock.tensor_accessor_args(memory[a["tensor"]])
            ]
            program.add_kernel(
                kernel_dir / k["file"], cores, role, compile_args=words, **k.get("compute_config", {})
            )
        for cb in plan["circular_buffers"]:
            program.add_circular_buffer(cores, cb["cb"], cb["format"], cb["page_size"], cb["depth"])
        return program

    def _kernel_directory(self) -> Path:
        """<cache>/programs/kernels/<kernels hash>/ holding this kernel's reader, compute and writer: the
        same directory for every shape whose kernels are the same text, so the device reuses their objects."""
        return self._artifact_directory(
            Path("kernels") / self.kernels_hash, {name: self.artifacts[name] for name in KERNEL_FILES}
        )

    def _artifact_directory(self, key: str | Path, artifacts: dict[str, str]) -> Path:
        """<cache>/programs/<key>/ holding exactly ``artifacts``."""
        from runtime_mock import cache_entry

        directory = Path(config.cache_dir()) / key
        stale = [name for name, text in artifacts.items() if not self._holds(directory / name, text)]
        if stale:
            cache_entry.writable_directory(directory, config.CACHE_DIR_VARIABLE, TTRuntimeError)
            for name in stale:
                (directory / name).parent.mkdir(parents=True, exist_ok=True)  # a sequence's <program>/
                cache_entry.write_atomically(directory / name, artifacts[name].encode())
                self._checked[directory / name] = cache_entry.stamp(directory / name)
        return directory

    def _holds(self, path: Path, text: str) -> bool:
        """Whether the file at ``path`` holds ``text``: read once, then trusted while its stamp (size, mtime,
        inode) is the one it had when it was read or written."""
        from runtime_mock import cache_entry

        now = cache_entry.stamp(path)
        if now is not None and self._checked.get(path) == now:
            return True
        if self._text_or_none(path) != text:
            return False
        self._checked[path] = now
        return True

    def _host_object(self, runtime_mock, directory: Path) -> Path:
        """<cache>/programs/host/<host hash>.so built from ``directory``/main.cpp, intact and loadable."""

        so_path = Path(config.cache_dir()) / "host" / f"{self.host_hash}.so"
        if self._loadable(runtime_mock, so_path):
            return so_path
        # The kernels build on the other cores while the host program compiles. A kernel that does not
        # compile is reported by the run, which builds it again, with its compiler's diagnostics.
        kernels = threading.Thread(target=self._prebuild_kernels, args=(runtime_mock,), daemon=True)
        kernels.start()
        try:
            self._build_host_object(runtime_mock, directory, so_path)
        finally:
            kernels.join()
        return so_path

    def _prebuild_kernels(self, runtime_mock) -> None:
        """Builds the kernels into the device's cache; any failure is left to the run to report."""
        with contextlib.suppress(TTRuntimeError, runtime_mock.DeviceError, RuntimeError, OSError, ValueError):
            self._kernel_program(runtime_mock, self._kernel_directory()).build_kernels(self.options.target)

    def _build_host_object(self, runtime_mock, directory: Path, so_path: Path) -> None:
        from runtime_mock import cache_entry

        with cache_entry.build_lock(so_path, config.CACHE_DIR_VARIABLE, TTRuntimeError):
            if not self._loadable(
                runtime_mock, so_path
            ):  # else another process built it while this one waited
                partial = so_path.with_name(f"{so_path.name}.{os.getpid()}.tmp")
                try:
                    runtime_mock.build_host_program([directory / "main.cpp"], [], {}, partial)
                except (runtime_mock.DeviceError, RuntimeError) as err:
                    raise TTRuntimeError(f"building the host program of {self.name} failed: {err}") from err
                cache_entry.publish(partial, so_path)

    @staticmethod
    def _text_or_none(path: Path) -> str | None:
        try:
            return path.read_text()
        except (OSError, UnicodeDecodeError):
            return None

    @staticmethod
    def _loadable(runtime_mock, so_path: Path) -> bool:
        """Whether the cached host object is intact and loads (one that does not is marked for rebuilding)."""
        from runtime_mock import cache_entry

        if not cache_entry.intact(so_path):
            return False
        try:
            runtime_mock.HostProgram(so_path)
        except runtime_mock.DeviceError:
            return False
        return True

    def __call__(self, *args):
        require_mock_device(self.options.target)
        call = bind_arguments(self.params, self.out_idx, args, self.name)
        self._run_on_device(call.device, host_sizes.values(self.plan))
        return call.finish()

    def _run_on_device(self, arrays: list[np.ndarray], sizes: list[int]) -> None:
        """The host program on ``arrays`` (one per tensor of ``params``, in place) with ``sizes``."""
        _, so_path = self.build()
        directory = self._kernel_directory()
        runtime_mock = _device()
        if self._host is None:
            self._host = runtime_mock.HostProgram(so_path)
        try:
            # The device contract passes 16-bit floats as their uint16 bits (views: outputs land in place).
            self._host.run(
                directory,
                [
                    (a.view(np.uint16) if a.dtype.itemsize == 2 else a).reshape(p["shape"])
                    for a, p in zip(arrays, self.params, strict=True)
                ],
                arch=self.options.target,
                sizes=sizes,
            )
        except RuntimeError as err:  # runtime_mock.DeviceError and its subclasses, or a TT_FATAL in main.cpp
            report = self._name_buffers(str(err))
            raise TTRuntimeError(
                f"{self.name} failed on the {self.options.target} mock device: {report}",
                device_error=type(err).__name__,
            ) from err

    def _name_buffers(self, message: str) -> str:
        """The device names buffers by creation order ("DRAM buffer #1"); main.cpp creates one per tensor,
        in parameter order, before anything else, so #i is tensor i: say which."""

        def named(match: re.Match) -> str:
            index = int(match.group(1))
            if index >= len(self.params):
                return match.group(0)
            return f"{match.group(0)} (tensor {self.params[index]['name']})"

        return re.sub(r"(?:DRAM|L1) buffer #(\d+)", named, message)


def require_mock_device(target: str) -> None:
    """TTRuntimeError unless programs for ``target`` can run on the mock device."""
    if target not in MOCK_ARCHS:
        raise TTRuntimeError(
            f"the mock device simulates {' and '.join(MOCK_ARCHS)}; {target} programs can be compiled but "
            f"not run"
        )


def _device():
    config.ensure_device_env()
    try:
        import runtime_mock
    except ImportError as err:
        raise TTRuntimeError(
            "running a kernel needs the device package runtime_mock (//runtime_mock:runtime_mock)"
        ) from err
    return runtime_mock


# TileLang's execution backends: how a CUDA kernel is called from Python. Here calls always go through
# the generated host program on the mock device, so the choice has no effect.
EXECUTION_BACKENDS = ("auto", "tvm_ffi", "cython", "nvrtc", "torch", "cutedsl")
# TVM target kinds of GPU/CPU backends: a TileLang program naming one runs on the default Tenstorrent target.
GPU_TARGET_KINDS = ("cuda", "hip", "rocm", "metal", "webgpu", "llvm", "c", "cutedsl")


def _tt_target_name(target) -> str | None:
    """A Tenstorrent target name from ``target`` (a name, a dict with "kind", a tvm Target); None (the
    default device) for "auto" and GPU targets."""
    if target is None:
        return None
    if isinstance(target, dict):
        kind = str(target.get("kind", ""))
    elif isinstance(target, str):
        kind = target.split()[0] if target.strip() else target
    else:
        kind = str(getattr(getattr(target, "kind", None), "name", target))
    return None if kind in ("auto", *GPU_TARGET_KINDS) else kind


def _out_idx_of(func: tirx.PrimFunc, out_idx):
    """``out_idx`` as given, or the outputs an eager-style PrimFunc declares; both given must agree."""
    declared = func.attrs[eager.OUT_IDX_ATTR] if func.attrs and eager.OUT_IDX_ATTR in func.attrs else None
    if declared is None:
        return out_idx
    declared = [int(i) for i in declared]
    given = None if out_idx is None else [out_idx] if isinstance(out_idx, int) else list(out_idx)
    if given is not None and given != declared:
        raise TTCompileError(
            f"out_idx={out_idx} given for a kernel whose T.empty outputs already fix out_idx={declared}; "
            f"drop out_idx"
        )
    return declared


def compile(
    func: tirx.PrimFunc,
    out_idx=None,
    execution_backend: str | None = None,
    target=None,
    target_host=None,
    verbose: bool | None = None,
    pass_configs: dict | None = None,
    compile_flags=None,
    *,
    partition: str | None = None,
    enable_double_buffer: bool = True,
    enable_prefetch: bool = True,
    dump_ir: str | None = None,
    math_fidelity: str | None = None,
    packer_l1_acc: bool = False,
) -> CompiledKernel:
    """Compile ``func`` into a kernel (TileLang's ``tilelang.compile``, same arguments): a JITKernel, or for
    a function of several ``T.Kernel`` blocks or with ``T.alloc_global`` workspaces a StagedKernel, which
    runs one program per block (``stages.py``).

    ``out_idx``: the parameters the kernel allocates and returns (an int or a list, negative from the end).
    ``target``: "wormhole" (default), "blackhole" or "grayskull"; None, "auto" and GPU targets ("cuda",
    "hip", ...) mean the default. ``pass_configs``: ``PassConfigKey`` keys (checked, no effect on
    Tenstorrent), and ``"tl.tt.math_fidelity"``. No effect either: ``execution_backend`` (one of
    TileLang's), ``target_host``, ``verbose``, ``compile_flags``. Tenstorrent options: ``partition``
    (auto | row_major | column_major | z_order | block | balanced; auto is block, with multicast, where the
    cores divide the blocks evenly, a block holds 16 tiles or more, the rectangles use every core row_major
    would and every block loops alike; balanced where a loop's trip count grows with a grid axis, as
    causal attention's does: that axis's blocks are handed out from both ends; else row_major; a tensor's
    ``tile_id_order`` layout hint overrides auto and row_major),
    ``enable_double_buffer``, ``enable_prefetch``,
    ``dump_ir`` (a directory for the IR after every pass), ``math_fidelity`` (LoFi | HiFi2 | HiFi3 | HiFi4,
    default HiFi4; or the pass_configs key), ``packer_l1_acc`` (the SDK's option: CompileOptions)."""
    if not is_prim_func(func):
        raise TTCompileError(f"compile() takes a T.prim_func, got {type(func).__name__}")
    if execution_backend is not None and execution_backend not in EXECUTION_BACKENDS:
        raise TTCompileError(
            f"unknown execution_backend {execution_backend!r}; TileLang's are "
            f"{', '.join(EXECUTION_BACKENDS)} (none changes how a Tenstorrent kernel is called)"
        )
    configs = check_pass_configs(pass_configs)
    func = with_approximate_exp(func, configs)
    configured = configs.get(TT_MATH_FIDELITY)
    if math_fidelity is not None and configured is not None and configured != math_fidelity:
        raise TTCompileError(
            f"math_fidelity={math_fidelity!r} and pass_configs[{TT_MATH_FIDELITY!r}]={configured!r} disagree"
        )
    options = CompileOptions.make(
        _tt_target_name(target),
        partition,
        _out_idx_of(func, out_idx),
        enable_double_buffer,
        enable_prefetch,
        math_fidelity or configured,
        packer_l1_acc,
    )
    from .atomic_shares import share_moving_atomic_adds
    from .stages import split_kernels

    func = share_moving_atomic_adds(func)
    stages = split_kernels(func, function_name(func))
    if stages is not None:
        from .staged_kernel import StagedKernel  # it builds on JITKernel

        return StagedKernel(func, stages, options, dump_ir=dump_ir)
    return JITKernel(func, options, dump_ir=dump_ir)


def par_compile(funcs, num_workers: int | None = None, ignore_error: bool = False, **compile_args) -> list:
    """TileLang's ``tilelang.par_compile``: ``compile(func, **compile_args)`` of each PrimFunc (``out_idx``,
    ``target``, ``pass_configs`` ... as ``compile`` takes them), in worker processes (parallel_compile.py);
    with ``ignore_error``, None for a function that does not compile."""
    from .parallel_compile import compile_all

    return compile_all(
        lambda func: compile(func, **compile_args), lambda func: func, list(funcs), num_workers, ignore_error
    )


def jit(
    func=None,
    *,
    out_idx=None,
    target=None,
    target_host=None,
    execution_backend: str | None = None,
    verbose: bool | None = None,
    pass_configs: dict | None = None,
    debug_root_path: str | None = None,
    compile_flags=None,
    partition: str | None = None,
    enable_double_buffer: bool = True,
    enable_prefetch: bool = True,
    math_fidelity: str | None = None,
    packer_l1_acc: bool = False,
):
    """TileLang's ``@tilelang.jit``, with or without arguments (those of ``compile``; ``debug_root_path``
    has no effect either). On:

    - a ``T.prim_func``: the compiled JITKernel;
    - a function that returns a PrimFunc (classic style): a ``KernelFactory`` whose call returns the
      JITKernel for its arguments, compiled once per distinct argument tuple (``factory.py``);
    - a function whose body holds the kernel itself (eager style: ``T.const``, annotated tensor
      parameters, ``T.empty`` outputs returned): an ``EagerKernelFactory`` whose call takes tensors and
      returns the outputs (``eager.py``).
    """
    settings = dict(
        execution_backend=execution_backend,
        target=target,
        target_host=target_host,
        verbose=verbose,
        pass_configs=pass_configs,
        compile_flags=compile_flags,
        partition=partition,
        enable_double_buffer=enable_double_buffer,
        enable_prefetch=enable_prefetch,
        math_fidelity=math_fidelity,
        packer_l1_acc=packer_l1_acc,
    )

    def wrap(f):
        if is_prim_func(f):
            return compile(f, out_idx=out_idx, **settings)
        if eager.is_eager(f):
            if out_idx is not None:
                raise TTCompileError.at(
                    source_def_loc(f),
                    f"{f.__name__} returns T.empty outputs, which fix out_idx; "
                    f"drop out_idx from tilelang.jit",
                )
            return eager.EagerKernelFactory(f, functools.partial(compile, **settings))
        return KernelFactory(f, functools.partial(compile, out_idx=out_idx, **settings))

    return wrap(func) if func is not None else wrap
