"""TileLang's ``@autotune`` over a ``@tilelang.jit`` factory, tuned against the device timing model.

    @autotune(configs=[{"block_M": 64, "block_N": 64}, {"block_M": 128, "block_N": 128}], warmup=10, rep=10)
    @tilelang.jit(out_idx=[3])
    def flashattn(batch, heads, seq, dim, block_M=64, block_N=64): ...

    kernel = flashattn(1, 8, 1024, 128)        # tunes: compiles every config, keeps the fastest
    kernel.latency, kernel.config              # its modelled milliseconds and its config
    kernel = flashattn(1, 8, 1024, 128, block_M=64, block_N=64)   # a tunable given: compiled, not tuned

Each config's kernel is timed by ``kernel.get_profiler(supply_type).do_bench()``: the modelled device time
of one call (profiler.py), which is deterministic, so ``warmup`` and ``rep`` have nothing to average and
are accepted for TileLang's signature. A config that does not compile (it does not fit the core's L1, say)
or, with ``ref_prog``, gives a wrong answer (``assert_allclose`` with ``rtol``/``atol``) is left out;
``ref_latency`` is the reference program's host wall time on the same inputs. When every config fails,
a TTCompileError lists each one's reason. As upstream, a call that gives any tunable parameter itself is
compiled as given; the result for one call's arguments is kept for the next call with them.

Accepted for TileLang's signature, with no effect here: ``timeout``, ``supply_prog``,
``manual_check_prog``, ``cache_input_tensors``, ``do_not_specialize``, ``early_stop``,
``early_stop_factor``.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Callable

from .eager import EagerKernelFactory
from .errors import TTCompileError, TTError
from .factory import KernelFactory
from .tensor_supply import TensorSupplyType

__all__ = ["AutoTuner", "autotune", "get_autotune_inputs", "set_autotune_inputs"]

_INPUTS: contextvars.ContextVar[list | None] = contextvars.ContextVar("autotune_inputs", default=None)


@contextlib.contextmanager
def set_autotune_inputs(*tensors):
    """``with set_autotune_inputs(a, b):`` tune on these inputs (one list, or one argument per input)
    instead of generated ones."""
    inputs = list(tensors[0]) if len(tensors) == 1 and isinstance(tensors[0], list | tuple) else list(tensors)
    token = _INPUTS.set(inputs)
    try:
        yield
    finally:
        _INPUTS.reset(token)


def get_autotune_inputs() -> list | None:
    """The inputs ``set_autotune_inputs`` gives, or None."""
    return _INPUTS.get()


class AutoTuner:
    """A factory whose calls pick, per distinct arguments, the config whose kernel models fastest."""

    def __init__(
        self,
        factory: KernelFactory,
        configs: list[dict] | Callable,
        supply_type: TensorSupplyType,
        ref_prog: Callable | None,
        rtol: float,
        atol: float,
        max_mismatched_ratio: float,
        skip_check: bool,
    ):
        if not isinstance(factory, KernelFactory):
            raise TypeError(
                f"@autotune goes above @tilelang.jit on a function that builds a kernel; got "
                f"{type(factory).__name__}"
            )
        functools.update_wrapper(self, factory.func)
        self.factory = factory
        self.configs = configs
        self.supply_type = supply_type
        self.ref_prog = ref_prog
        self.check = dict(rtol=rtol, atol=atol, max_mismatched_ratio=max_mismatched_ratio)
        self.skip_check = skip_check
        self._tuned: dict = {}

    def _configs(self, args, kwargs) -> list[dict]:
        configs = self.configs(*args, **kwargs) if callable(self.configs) else self.configs
        configs = list(configs)
        if not configs:
            raise TTCompileError(f"@autotune of {self.factory.func.__name__} has no configs")
        return [dict(c) for c in configs]

    def _gives_a_tunable(self, configs: list[dict], args, kwargs) -> bool:
        given = set(self.factory.signature.bind_partial(*args, **kwargs).arguments)
        return any(name in given for config in configs for name in config)

    def _measure(self, kernel):
        """(modelled ms, None) for a kernel that passes the check, else (None, why it failed)."""
        profiler, inputs = kernel.get_profiler(self.supply_type), get_autotune_inputs()
        if self.ref_prog is not None and not self.skip_check:
            try:
                profiler.assert_allclose(self.ref_prog, input_tensors=inputs, **self.check)
            except AssertionError as err:
                return None, f"wrong result: {err}"
        return profiler.do_bench(input_tensors=inputs), None

    def compile(self, *args, **kwargs):
        """The kernel for these arguments: compiled as given when they set a tunable parameter, else the
        fastest config's (with ``latency``, ``config`` and ``ref_latency``)."""
        configs = self._configs(args, kwargs)
        if self._gives_a_tunable(configs, args, kwargs):
            return self.factory.compile(*args, **kwargs)
        key = self.factory.cache_key(args, kwargs)
        if key not in self._tuned:
            self._tuned[key] = self._tune(configs, args, kwargs)
        return self._tuned[key]

    def _tune(self, configs: list[dict], args, kwargs):
        best, failures = None, []
        for config in configs:
            try:
                kernel = self.factory.compile(*args, **{**kwargs, **config})
            except TTError as err:
                failures.append(f"{config}: {type(err).__name__}: {str(err).splitlines()[0]}")
                continue
            latency, failure = self._measure(kernel)
            if failure is not None:
                failures.append(f"{config}: {failure.splitlines()[0]}")
            elif best is None or latency < best[0]:
                best = (latency, config, kernel)
        if best is None:
            raise TTCompileError(
                f"@autotune of {self.factory.func.__name__}: no config gives a kernel:\n  "
                + "\n  ".join(failures)
            )
        latency, config, kernel = best
        profiler = kernel.get_profiler(self.supply_type)
        ref_latency = (
            profiler.do_bench(self.ref_prog, input_tensors=get_autotune_inputs()) if self.ref_prog else None
        )
        kernel.latency, kernel.config, kernel.ref_latency = latency, config, ref_latency
        return kernel

    def __call__(self, *args, **kwargs):
        """The kernel (a classic factory), or, for an eager one, the kernel run on the tensors given."""
        kernel = self.compile(*args, **kwargs)
        if not isinstance(self.factory, EagerKernelFactory):
            return kernel
        bound = self.factory.bind(args, kwargs)
        return kernel(*[bound.arguments[name] for name in self.factory.tensor_params])


def autotune(
    func=None,
    *,
    configs: list[dict] | Callable,
    warmup: int = 25,
    rep: int = 100,
    timeout: int = 100,
    supply_type: TensorSupplyType = TensorSupplyType.Auto,
    ref_prog: Callable | None = None,
    supply_prog: Callable | None = None,
    rtol: float = 1e-2,
    atol: float = 1e-2,
    max_mismatched_ratio: float = 0.01,
    skip_check: bool = False,
    manual_check_prog: Callable | None = None,
    cache_input_tensors: bool = False,
    do_not_specialize=None,
    early_stop: bool = False,
    early_stop_factor: float = 2.0,
):
    """TileLang's ``@autotune(configs=...)`` (see the module docstring), with or without arguments."""

    def wrap(factory):
        return AutoTuner(
            factory, configs, supply_type, ref_prog, rtol, atol, max_mismatched_ratio, skip_check
        )

    return wrap(func) if func is not None else wrap
