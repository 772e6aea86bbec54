"""TileLang's profiler: check a kernel against a reference program, and time it.

    profiler = kernel.get_profiler(tilelang.TensorSupplyType.Auto)
    profiler.assert_allclose(ref_program, atol=1e-2, rtol=1e-2)   # AssertionError with the errors if not
    latency_ms = profiler.do_bench()                               # the kernel on generated inputs
    ref_ms = profiler.do_bench(ref_program)                        # any function on the same inputs
    C = profiler.run_once()

    from tilelang_tt.profiler import do_bench                      # TileLang's tilelang.profiler.do_bench
    ms = do_bench(lambda: kernel(a, b), warmup=50, rep=200)

    profile = kernel.profile()          # KernelProfile: modelled time, per-core breakdown, trace
    print(profile.summary()); profile.write_trace("trace.json")   # open in https://ui.perfetto.dev

Inputs are numpy arrays in each parameter's dtype (``tensor_supply.py``); the kernel runs on the mock
device. A reference program, or a function timed, that is torch code
(``torch_interop.wants_torch``) gets the same inputs as torch tensors sharing their memory, as upstream's
profiler gives them (a reference whose torch shows only in its arguments' methods, ``A.view(n, m)``, gets
them when it fails on numpy arrays: ``torch_interop.call_reference``); results are compared as numpy,
whichever side made them.

``Profiler.do_bench()`` of the kernel returns **modelled device time** in milliseconds: the simulator's
timing model (runtime_mock.profile, constants in runtime_mock/arch/<arch>.json) replays one call and says
how long the Tenstorrent chip would take. The model is deterministic, so one call is the measurement.
``Profiler.do_bench(func)`` of any other function, ``Profiler.do_bench_wall()`` and the module-level
``do_bench`` measure **host wall time** instead (the median over repetitions by default): what the
simulator, or numpy, costs on this machine. GPU-only knobs (``backend``, ``device``, ``fast_flush``,
``cache_size``, ``early_stop_baseline``, ``dynamic_symbolic_constraints``) are accepted and have no effect.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

import numpy as np

from . import torch_interop
from .arguments import caller_shape
from .tensor_supply import TensorSupplyType, make_tensor

__all__ = ["Profiler", "KernelProfile", "do_bench", "assert_close"]

BACKENDS = ("event", "cupti", "cudagraph")
RETURN_MODES = {"min": min, "max": max, "mean": statistics.fmean, "median": statistics.median}


def _as_list(outputs) -> list:
    if outputs is None:
        return []
    if isinstance(outputs, tuple | list):
        return list(outputs)
    return [outputs]


def assert_close(actual, expected, atol: float, rtol: float, max_mismatched_ratio: float, name: str) -> None:
    """Pass when at most ``max_mismatched_ratio`` of the elements fail |a - e| ≤ atol + rtol·|e| (NaN equals
    NaN); else AssertionError with the mismatch count, the largest absolute and relative errors and the
    first mismatch. Both sides are compared as float64, so a float32 numpy reference checks a bf16 kernel."""
    a = np.asarray(torch_interop.to_numpy(actual)).astype(np.float64)
    e = np.asarray(torch_interop.to_numpy(expected)).astype(np.float64)
    if a.shape != e.shape:
        raise AssertionError(f"{name}: the kernel gives shape {a.shape}, the reference {e.shape}")
    mismatched = ~np.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
    count, total = int(mismatched.sum()), a.size
    allowed = int(total * max_mismatched_ratio)
    if count <= allowed:
        return
    diff = np.abs(a - e)
    rel = diff / (np.abs(e) + 1e-12)
    first = tuple(int(i) for i in np.argwhere(mismatched)[0])
    raise AssertionError(
        f"{name}: {count} of {total} elements differ beyond atol={atol}, rtol={rtol} "
        f"({100 * count / total:.2f}%, {100 * max_mismatched_ratio:.2f}% allowed); "
        f"max abs error {np.nanmax(diff):.6g}, max rel error {np.nanmax(rel):.6g}; "
        f"first mismatch at {first}: kernel {a[first]:.6g}, reference {e[first]:.6g}"
    )


def do_bench(
    fn: Callable[[], object],
    warmup: float = 25,
    rep: float = 100,
    _n_warmup: int = 0,
    _n_repeat: int = 0,
    quantiles: Sequence[float] | None = None,
    fast_flush: bool = True,
    backend: str = "event",
    return_mode: str = "median",
    device=None,
    cache_size: int = 256,
    early_stop_baseline: float | None = None,
) -> float | list[float]:
    """Milliseconds per call of ``fn()`` (host wall time; see the module docstring).

    ``warmup`` and ``rep`` are time budgets in ms, turned into iteration counts from one timed call (at
    least one each); ``_n_warmup`` / ``_n_repeat`` set the counts directly. A first call before all of
    that is never timed: on a cold cache it builds the host program and kernels. Returns the
    ``return_mode`` ("median" by default; "mean", "min", "max") of the timed calls, or their
    ``quantiles``."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if return_mode not in RETURN_MODES:
        raise ValueError(f"return_mode must be one of {', '.join(RETURN_MODES)}, got {return_mode!r}")
    fn()
    start = time.perf_counter()
    fn()
    estimate_ms = max((time.perf_counter() - start) * 1e3, 1e-6)
    n_warmup = _n_warmup or max(1, int(warmup / estimate_ms))
    n_repeat = _n_repeat or max(1, int(rep / estimate_ms))
    for _ in range(n_warmup):
        fn()
    times = []
    for _ in range(n_repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    if quantiles is not None:
        return [float(q) for q in np.quantile(times, quantiles)]
    return float(RETURN_MODES[return_mode](times))


class KernelProfile:
    """One call of a kernel under the device timing model (``kernel.profile()``): the modelled time, how
    each core's RISCs spent it, the throughput against the target's peak, and a Chrome trace."""

    def __init__(self, session, kernel_name: str, target: str, math_fidelity: str):
        self.session = session  # runtime_mock.ProfilingSession: its ``runs`` hold the per-core, per-RISC data
        self.kernel_name = kernel_name
        self.target = target
        self.math_fidelity = math_fidelity

    @property
    def cycles(self) -> int:
        return self.session.cycles

    @property
    def device_ms(self) -> float:
        return self.session.seconds * 1e3

    @property
    def tflops(self) -> float:
        """Matmul throughput (2·32³ flops per tile product); 0 for a program without matmuls."""
        flops = sum(run.flops for run in self.session.runs)
        return flops / self.session.seconds / 1e12 if self.session.seconds else 0.0

    @property
    def peak_tflops(self) -> float:
        import runtime_mock

        return runtime_mock.profile.peak_tflops(self.target, self.math_fidelity)

    @property
    def dram_gb_s(self) -> float:
        moved = sum(run.dram_bytes_read + run.dram_bytes_written for run in self.session.runs)
        return moved / self.session.seconds / 1e9 if self.session.seconds else 0.0

    def summary(self) -> str:
        """Per-core, per-RISC busy and wait breakdown, TFLOPS and DRAM GB/s against the peak, and the
        bottleneck in one sentence (runtime_mock.profile.summary)."""
        import runtime_mock

        return (
            f"{self.kernel_name} on {self.target} ({self.math_fidelity}):\n"
            + runtime_mock.profile.summary(self.session, self.math_fidelity)
        )

    def write_trace(self, path: str) -> None:
        """A Chrome trace-event JSON file Perfetto's UI opens: a track per core and RISC."""
        import runtime_mock

        runtime_mock.profile.write_chrome_trace(self.session, path)

    def __repr__(self) -> str:
        return (
            f"KernelProfile({self.kernel_name}, {self.target}, {self.device_ms:.4f} ms modelled, "
            f"{self.tflops:.2f} TFLOPS of {self.peak_tflops:.1f})"
        )


class Profiler:
    """Generated inputs for one compiled kernel (``kernel.get_profiler()``), and the checks and timings
    TileLang's profiler runs on them. ``seed`` makes the generated inputs reproducible."""

    def __init__(self, kernel, tensor_supply_type: TensorSupplyType = TensorSupplyType.Auto, seed: int = 0):
        if not isinstance(tensor_supply_type, TensorSupplyType):
            raise TypeError(
                f"tensor_supply_type must be a tilelang.TensorSupplyType, got {tensor_supply_type!r}"
            )
        self.kernel = kernel
        self.supply_type = tensor_supply_type
        self._rng = np.random.default_rng(seed)

    @property
    def func(self):
        return self.kernel

    def __call__(self, *args):
        return self.kernel(*args)

    def _get_inputs(self) -> list[np.ndarray]:
        """A fresh array for every parameter that is not an output (``out_idx``), in parameter order."""
        return [
            make_tensor(self.supply_type, caller_shape(p), p["dtype"], self._rng)
            for i, p in enumerate(self.kernel.params)
            if i not in self.kernel.out_idx
        ]

    @staticmethod
    def _inputs_for(func: Callable, inputs: list) -> list:
        """``inputs`` as ``func`` takes them: torch tensors over the same memory for torch code."""
        if not torch_interop.wants_torch(func):
            return inputs
        return [torch_interop.from_numpy(a) if isinstance(a, np.ndarray) else a for a in inputs]

    def run_once(self, func: Callable | None = None):
        """``func`` (default: the kernel) called once on generated inputs; its result."""
        func = func or self.kernel
        return func(*self._inputs_for(func, self._get_inputs()))

    def assert_allclose(
        self,
        reference_program: Callable,
        input_tensors: Sequence | None = None,
        atol: float = 1e-2,
        rtol: float = 1e-2,
        max_mismatched_ratio: float = 0.01,
    ) -> None:
        """Run ``reference_program`` and the kernel on the same inputs (generated, or ``input_tensors``)
        and compare their outputs one by one (``assert_close``); AssertionError names the output."""
        inputs = self._get_inputs() if input_tensors is None else list(input_tensors)
        expected = _as_list(torch_interop.call_reference(reference_program, inputs))
        actual = _as_list(self.kernel(*inputs))
        if len(actual) != len(expected):
            raise AssertionError(
                f"{self.kernel.name} returns {len(actual)} outputs but the reference program {len(expected)}"
            )
        for index, (got, ref) in zip(self.kernel.out_idx, zip(actual, expected, strict=True), strict=True):
            if got is not None and ref is not None:  # TileLang skips outputs the reference leaves out
                name = f"{self.kernel.name} output {self.kernel.params[index]['name']}"
                assert_close(got, ref, atol, rtol, max_mismatched_ratio, name)

    def profile(self, input_tensors: Sequence[np.ndarray] | None = None) -> KernelProfile:
        """The kernel called once under the device timing model, on generated inputs or
        ``input_tensors``."""
        inputs = self._get_inputs() if input_tensors is None else list(input_tensors)
        return self.kernel.profile(*inputs)

    def do_bench(
        self,
        func: Callable | None = None,
        warmup: float = 25,
        rep: float = 100,
        n_warmup: int = 0,
        n_repeat: int = 0,
        input_tensors: Sequence[np.ndarray] | None = None,
        backend: str = "event",
        quantiles: Sequence[float] | None = None,
        return_mode: str = "median",
        dynamic_symbolic_constraints: dict | None = None,
        device=None,
        early_stop_baseline: float | None = None,
    ) -> float | list[float]:
        """Milliseconds per call on one set of inputs (generated, or ``input_tensors``): for the kernel
        (``func`` None or the kernel), the modelled device time of one call (``quantiles`` of a
        deterministic model are all that time); for any other ``func``, its host wall time
        (module-level ``do_bench``)."""
        inputs = self._get_inputs() if input_tensors is None else list(input_tensors)
        if func is None or func is self.kernel:
            ms = self.kernel.profile(*inputs).device_ms
            return [ms for _ in quantiles] if quantiles is not None else ms
        return self._wall(func, inputs, warmup, rep, n_warmup, n_repeat, backend, quantiles, return_mode)

    def do_bench_wall(
        self,
        func: Callable | None = None,
        warmup: float = 25,
        rep: float = 100,
        n_warmup: int = 0,
        n_repeat: int = 0,
        input_tensors: Sequence[np.ndarray] | None = None,
        backend: str = "event",
        quantiles: Sequence[float] | None = None,
        return_mode: str = "median",
    ) -> float | list[float]:
        """Host wall-time milliseconds per call of ``func`` (default: the kernel on the simulator)."""
        inputs = self._get_inputs() if input_tensors is None else list(input_tensors)
        return self._wall(
            func or self.kernel, inputs, warmup, rep, n_warmup, n_repeat, backend, quantiles, return_mode
        )

    @staticmethod
    def _wall(target, inputs, warmup, rep, n_warmup, n_repeat, backend, quantiles, return_mode):
        inputs = Profiler._inputs_for(target, inputs)
        return do_bench(
            lambda: target(*inputs),
            warmup=warmup,
            rep=rep,
            _n_warmup=n_warmup,
            _n_repeat=n_repeat,
            quantiles=quantiles,
            backend=backend,
            return_mode=return_mode,
        )
