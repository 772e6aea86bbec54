"""TileLang's autotuner, tuned against the device timing model: ``@autotune`` above a ``@tilelang.jit``
factory, and the ``AutoTuner`` class of TileLang's older examples.

    @autotune(configs=[{"block_M": 64, "block_N": 64}, {"block_M": 128, "block_N": 128}], warmup=10, rep=10)
    @tilelang.jit(out_idx=[3])
    def flashattn(batch, heads, seq, dim, block_M=64, block_N=64): ...

    kernel = flashattn(1, 8, 1024, 128)        # tunes: compiles every config, keeps the fastest
    kernel.latency, kernel.config              # its modelled milliseconds and its config
    kernel = flashattn(1, 8, 1024, 128, block_M=64, block_N=64)   # a tunable given: compiled, not tuned

    result = (AutoTuner.from_kernel(kernel=make_gemm, configs=configs)      # make_gemm(**config) → PrimFunc
              .set_compile_args(out_idx=[-1])
              .set_profile_args(ref_prog=ref_program)
              .run(warmup=3, rep=20))                                       # AutotuneResult
    result.latency, result.config, result.kernel

Each config's kernel is timed by ``kernel.get_profiler(supply_type).do_bench()``: the modelled device time
of one call (profiler.py), deterministic, so ``warmup`` and ``rep`` have nothing to average. A config that
does not compile (it does not fit the core's L1, say) or, with ``ref_prog``, gives a wrong answer
(``assert_allclose`` with ``rtol``/``atol``) is left out; ``ref_latency`` is the reference program's host
wall time on the same inputs. When every config fails, a TTCompileError lists each one's reason. As
upstream, an ``@autotune``d call that gives a tunable parameter itself is compiled as given. Unlike
upstream, the factory's own defaults of the tuned parameters are a candidate too (when each has one), so
tuning never returns a kernel slower than the untuned call would.

Results are cached twice: per process, and on disk beside the kernel cache (``<cache>/programs/autotune/``,
keyed as a kernel is, ``kernel_cache.entry_key``, plus the configs and the check, its reference program by
name), so a later process compiles only the winner — from the kernel cache, without TVM, when it is
there. ``TILELANG_TT_KERNEL_CACHE=0`` turns both caches off.

Candidates compile and run in this process, in forked worker processes, or as tasks on a Ray cluster this
process has connected (tuning_pool.py says how each is chosen: TileLang's
``TILELANG_AUTO_TUNING_CPU_COUNTS`` and its siblings, or ``ray.init(...)`` before tuning). Each way gives
the same result; ``result.trials`` lists every candidate's outcome and where it ran.

Accepted for TileLang's signature, with no effect here: ``timeout``, ``supply_prog``,
``manual_check_prog``, ``cache_input_tensors``, ``do_not_specialize``, ``early_stop``,
``early_stop_factor``, ``backend``, and ``run``'s knobs of CUDA's compile and benchmark pipeline.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import inspect
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import config, kernel_cache
from .eager import EagerKernelFactory
from .errors import TTCompileError, TTError
from .factory import KernelFactory, freeze, source_def_loc
from .tensor_supply import TensorSupplyType
from .tuning_pool import Trial, run_trials, this_worker

__all__ = [
    "AutoTuner",
    "AutotuneResult",
    "TunedFactory",
    "autotune",
    "get_autotune_inputs",
    "set_autotune_inputs",
]

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


@dataclasses.dataclass
class AutotuneResult:
    """The fastest config: its modelled ``latency`` (ms), ``config``, the reference's host wall time
    ``ref_latency`` (None without ``ref_prog``), its ``kernel`` and ``libcode`` (the kernels' source);
    ``func`` is the kernel's PrimFunc. ``trials``: every candidate's Trial in the configs' order (empty
    when the choice came from the disk cache)."""

    latency: float
    config: dict
    ref_latency: float | None
    libcode: str
    kernel: object
    trials: list[Trial] = dataclasses.field(default_factory=list)

    @property
    def func(self):
        return self.kernel.func


@dataclasses.dataclass(frozen=True)
class _Check:
    supply_type: TensorSupplyType = TensorSupplyType.Auto
    ref_prog: Callable | None = None
    rtol: float = 1e-2
    atol: float = 1e-2
    max_mismatched_ratio: float = 0.01
    skip_check: bool = False


class AutoTuner:
    """TileLang's ``AutoTuner``: ``fn(**config)`` builds a PrimFunc (``from_kernel``); ``run`` compiles each
    config with ``set_compile_args``' arguments, checks and times it as ``set_profile_args`` says, and
    returns the fastest as an AutotuneResult."""

    def __init__(self, fn: Callable, configs: list[dict] | Callable):
        self.fn = fn
        self.configs = configs
        self.compile_args: dict = {}
        self.check = _Check()
        # How run() compiles one config; @autotune gives its factory's, with the call's arguments.
        self._compile_config: Callable[[dict], object] | None = None
        self._cache_identity: tuple = ()

    @classmethod
    def from_kernel(cls, kernel: Callable, configs: list[dict] | Callable) -> AutoTuner:
        return cls(kernel, configs)

    def set_compile_args(
        self,
        out_idx=None,
        target=None,
        execution_backend=None,
        target_host=None,
        verbose=None,
        pass_configs=None,
        **tenstorrent_options,
    ) -> AutoTuner:
        """``tilelang.compile``'s arguments for every candidate (Tenstorrent options such as ``partition``
        too)."""
        self.compile_args = dict(
            out_idx=out_idx,
            target=target,
            execution_backend=execution_backend,
            target_host=target_host,
            verbose=verbose,
            pass_configs=pass_configs,
            **tenstorrent_options,
        )
        return self

    def set_profile_args(
        self,
        warmup: int = 25,
        rep: int = 100,
        timeout: int = 30,
        supply_type: TensorSupplyType = TensorSupplyType.Auto,
        ref_prog: Callable | None = None,
        supply_prog: Callable | None = None,
        rtol: float = 1e-2,
        atol: float = 1e-2,
        max_mismatched_ratio: float = 0.01,
        skip_check: bool = False,
        manual_check_prog: Callable | None = None,
        cache_input_tensors: bool = False,
        backend: str = "event",
    ) -> AutoTuner:
        self.check = _Check(supply_type, ref_prog, rtol, atol, max_mismatched_ratio, skip_check)
        return self

    def _compiler(self) -> Callable[[dict], object]:
        if self._compile_config is not None:
            return self._compile_config
        from .jit import compile as compile_prim_func

        factory = KernelFactory(self.fn, functools.partial(compile_prim_func, **self.compile_args))
        return functools.partial(_compile_candidate, factory, (), {})

    def _configs(self, *args, **kwargs) -> list[dict]:
        configs = self.configs(*args, **kwargs) if callable(self.configs) else self.configs
        configs = [dict(c) for c in configs]
        if not configs:
            raise TTCompileError(f"the autotuner of {getattr(self.fn, '__name__', self.fn)} has no configs")
        return configs

    def _result(self, kernel, latency: float, config: dict, trials: list[Trial]) -> AutotuneResult:
        ref_prog = self.check.ref_prog
        profiler = kernel.get_profiler(self.check.supply_type)
        ref_latency = profiler.do_bench(ref_prog, input_tensors=get_autotune_inputs()) if ref_prog else None
        kernel.latency, kernel.config, kernel.ref_latency = latency, config, ref_latency
        return AutotuneResult(latency, config, ref_latency, kernel.get_kernel_source(), kernel, trials)

    def run(self, warmup: int = 25, rep: int = 100, timeout: int = 30, **pipeline_knobs) -> AutotuneResult:
        """The fastest passing config's AutotuneResult (see the module docstring)."""
        configs = self._configs()
        compile_config = self._compiler()
        cached = _load_choice(self._choice_key(configs))
        if cached is not None and cached["config"] in configs:
            try:
                kernel = compile_config(cached["config"])
            except TTError:
                kernel = None  # the compiler changed under the entry: tune again
            if kernel is not None:
                kernel.latency, kernel.config = cached["latency"], cached["config"]
                kernel.ref_latency = cached["ref_latency"]
                return AutotuneResult(
                    cached["latency"],
                    cached["config"],
                    cached["ref_latency"],
                    kernel.get_kernel_source(),
                    kernel,
                )
        trials = run_trials(_CandidateTrial(compile_config, self.check, get_autotune_inputs()), configs)
        passing = [trial for trial in trials if trial.latency is not None]
        if not passing:
            name = getattr(self.fn, "__name__", "the kernel")
            failures = [f"{trial.config}: {trial.failure}" for trial in trials]
            raise TTCompileError(f"autotuning {name}: no config gives a kernel:\n  " + "\n  ".join(failures))
        best = min(passing, key=lambda trial: trial.latency)  # the first of equals, as one loop would keep
        # A winner timed in another process came back as data: rebuilt here, compiled again only when it
        # could not travel (a StagedKernel).
        kernel = best.kernel
        if kernel is None:
            kernel = kernel_cache.from_portable(best.portable, lambda: compile_config(best.config).func)
        if kernel is None:
            kernel = compile_config(best.config)
        result = self._result(kernel, best.latency, best.config, trials)
        _store_choice(self._choice_key(configs), result)
        return result

    def _choice_key(self, configs: list[dict]) -> str | None:
        """The disk entry of this tuning: what keys a kernel, plus the configs and the check."""
        if get_autotune_inputs() is not None:
            return None  # tuned on the caller's data, which no key describes
        check = dataclasses.asdict(dataclasses.replace(self.check, ref_prog=None))
        check["supply_type"] = self.check.supply_type.name
        ref = getattr(self.check.ref_prog, "__qualname__", repr(self.check.ref_prog))
        described = {"identity": self._cache_identity, "configs": configs, "check": check, "ref": ref}
        return kernel_cache.entry_key(self.fn, described, self.compile_args)


def _compile_candidate(factory: KernelFactory, args: tuple, kwargs: dict, config: dict):
    """``factory``'s kernel for a call with ``args`` and ``kwargs``, the candidate's ``config`` added. As
    upstream, a config's ``pass_configs`` (a reserved key) is not an argument: it is merged into the
    factory's own for this candidate (``{"tl.tt.math_fidelity": "LoFi"}`` tunes the fidelity)."""
    config = dict(config)
    pass_configs = config.pop("pass_configs", None)
    if pass_configs is not None:
        settings = dict(getattr(factory.compile_fn, "keywords", {}))
        settings["pass_configs"] = {**(settings.get("pass_configs") or {}), **pass_configs}
        compile_fn = functools.partial(getattr(factory.compile_fn, "func", factory.compile_fn), **settings)
        factory = type(factory)(factory.func, compile_fn)
    return factory.compile(*args, **{**kwargs, **config})


@dataclasses.dataclass(frozen=True)
class _CandidateTrial:
    """Compiles, checks and times one candidate; picklable (for a Ray task) when its parts are."""

    compile_config: Callable[[dict], object]
    check: _Check
    inputs: list | None  # the caller's set_autotune_inputs, carried to the process that runs the trial

    def __call__(self, config: dict) -> Trial:
        try:
            kernel = self.compile_config(config)
        except TTError as err:
            return Trial(config, None, f"{type(err).__name__}: {str(err).splitlines()[0]}", this_worker())
        profiler = kernel.get_profiler(self.check.supply_type)
        if self.check.ref_prog is not None and not self.check.skip_check:
            try:
                profiler.assert_allclose(
                    self.check.ref_prog,
                    input_tensors=self.inputs,
                    atol=self.check.atol,
                    rtol=self.check.rtol,
                    max_mismatched_ratio=self.check.max_mismatched_ratio,
                )
            except AssertionError as err:
                return Trial(config, None, f"wrong result: {str(err).splitlines()[0]}", this_worker())
        return Trial(config, profiler.do_bench(input_tensors=self.inputs), None, this_worker(), kernel)


def _choice_path(key: str) -> Path:
    return Path(config.cache_dir()) / "autotune" / f"{key}.json"


def _load_choice(key: str | None) -> dict | None:
    entry = None if key is None else kernel_cache.read_entry(_choice_path(key))
    return entry if entry is not None and {"config", "latency", "ref_latency"} <= set(entry) else None


def _store_choice(key: str | None, result: AutotuneResult) -> None:
    if key is not None:  # a cache that cannot be written only means the next process tunes again
        entry = {"config": result.config, "latency": result.latency, "ref_latency": result.ref_latency}
        kernel_cache.write_entry(_choice_path(key), entry)


class TunedFactory:
    """An ``@autotune``d ``@tilelang.jit`` factory: per distinct call, the AutoTuner's winner."""

    def __init__(self, factory: KernelFactory, configs, check: _Check):
        if not isinstance(factory, KernelFactory):
            raise TTCompileError.at(
                source_def_loc(factory) if callable(factory) else None,
                f"@autotune goes above @tilelang.jit on a function that builds a kernel; got "
                f"{type(factory).__name__} (put @tilelang.jit between them)",
            )
        functools.update_wrapper(self, factory.func)
        self.factory, self.configs, self.check = factory, configs, check
        self._tuned: dict = {}

    def compile(self, *args, **kwargs):
        """The kernel for these arguments: compiled as given when they set a tunable parameter, else the
        fastest config's (with ``latency``, ``config`` and ``ref_latency``)."""
        tuner = AutoTuner(self.factory.func, self.configs)
        tuner.check = self.check
        configs = tuner._configs(*args, **kwargs)
        given = self.factory.given(args, kwargs, with_defaults=False)
        if any(name in given for candidate in configs for name in candidate):
            return self.factory.compile(*args, **kwargs)
        named = self.factory.given(args, kwargs, with_defaults=True)
        for name in getattr(self.factory, "tensor_params", ()):  # an eager call's tensors: by their shapes
            if named.get(name) is not None:
                named[name] = ("shape", tuple(int(d) for d in np.shape(named[name])))
        key = tuple((name, freeze(value, f"argument {name}")) for name, value in named.items())
        if key not in self._tuned:
            tuner.configs = configs + self._defaults_unless_listed(configs)
            tuner.compile_args = dict(getattr(self.factory.compile_fn, "keywords", {}))
            tuner._cache_identity = tuple(named.items())
            tuner._compile_config = functools.partial(_compile_candidate, self.factory, args, kwargs)
            self._tuned[key] = tuner.run().kernel
        return self._tuned[key]

    def _defaults_unless_listed(self, configs: list[dict]) -> list[dict]:
        """The factory's own defaults of the tuned parameters, as one more candidate when it is complete
        and not listed: tuning then never returns a kernel slower than not tuning would."""
        parameters = self.factory.signature.parameters
        names = list(dict.fromkeys(name for candidate in configs for name in candidate))
        if any(
            name not in parameters or parameters[name].default is inspect.Parameter.empty for name in names
        ):
            return []
        defaults = {name: parameters[name].default for name in names}
        return [] if defaults in configs else [defaults]

    def __call__(self, *args, **kwargs):
        """The kernel (a classic factory), or, for an eager one, the kernel run on the tensors given."""
        kernel = self.compile(*args, **kwargs)
        if not isinstance(self.factory, EagerKernelFactory):
            return kernel
        given = self.factory.given(args, kwargs, with_defaults=False)
        return kernel(*[given[name] for name in self.factory.tensor_params])


def autotune(
    func=None,
    *,
    configs: list[dict] | Callable,
    do_not_specialize=None,
    early_stop: bool = False,
    early_stop_factor: float = 2.0,
    **profile_args,
):
    """TileLang's ``@autotune(configs=...)`` (see the module docstring), with or without arguments;
    ``profile_args`` are ``AutoTuner.set_profile_args``' (``warmup``, ``rep``, ``ref_prog``, ``rtol``...)."""
    try:
        check = AutoTuner(None, configs).set_profile_args(**profile_args).check
    except TypeError as err:
        raise TypeError(f"autotune(): {str(err).replace('AutoTuner.set_profile_args() ', '')}") from None

    def wrap(factory):
        return TunedFactory(factory, configs, check)

    return wrap(func) if func is not None else wrap
