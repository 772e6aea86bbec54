"""Where the autotuner compiles and times its candidates: in this process, in worker processes forked from
it, or on a Ray cluster.

    trials = run_trials(trial, configs)     # trial(config) → Trial, for every config, in configs' order

The choice, as TileLang's autotuner makes it for its compile threads, from its environment variables:
``TILELANG_AUTO_TUNING_CPU_COUNTS`` workers when set above 0, else ``TILELANG_AUTO_TUNING_CPU_UTILITIES``
(default 0.9) of the CPUs this process may use, at most ``TILELANG_AUTO_TUNING_MAX_CPU_COUNT`` when set
above 0. One worker (a two-core machine's default) tunes in this process; more fork that many processes,
which inherit the tuner as it stands and send back only each candidate's Trial. Processes rather than
TileLang's threads: the compiler's passes are Python, and threads would share one interpreter lock.

A Ray session this process has connected (``ray.init(address=...)`` before tuning; a local ``ray.init()``
works too) takes precedence: each candidate becomes a Ray task of one CPU, and the cluster's scheduler
spreads them over its nodes. The task ships the tuner with cloudpickle, so the kernel's factory must be
importable where the task runs (a ``runtime_env`` with a ``working_dir`` does it on a remote cluster;
TVMScript reads the factory's source file). ``TILELANG_TT_AUTOTUNE_RAY=0`` keeps tuning off a connected
cluster. Timing is the deterministic device model, so every way gives the same Trials.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import sys
from collections.abc import Callable

from . import kernel_cache


@dataclasses.dataclass
class Trial:
    """One candidate's outcome: its modelled ``latency`` (ms) when it compiled and passed the check, else
    None and the ``failure``; ``worker`` names where it ran. ``kernel`` is the compiled kernel when it ran in
    this process; from another process, ``portable`` is that kernel as plain data (``kernel_cache.portable``,
    None for a StagedKernel), which the caller rebuilds without compiling it again."""

    config: dict
    latency: float | None
    failure: str | None
    worker: str
    kernel: object = dataclasses.field(default=None, repr=False, compare=False)
    portable: dict | None = dataclasses.field(default=None, repr=False, compare=False)

    def detached(self) -> Trial:
        """This Trial to send to another process: its kernel as plain data."""
        return dataclasses.replace(self, kernel=None, portable=kernel_cache.portable(self.kernel))


def this_worker() -> str:
    """How a Trial names the process it ran in."""
    return f"process {os.getpid()}"


def run_trials(trial: Callable[[dict], Trial], configs: list[dict]) -> list[Trial]:
    """``trial(config)`` for every config, in configs' order, where the module docstring says."""
    cluster = _connected_ray()
    if cluster is not None:
        return _on_ray(cluster, trial, configs)
    workers = min(worker_count(), len(configs))
    if workers <= 1:
        return [trial(config) for config in configs]
    return forked_map(lambda config: trial(config).detached(), configs, workers)


def worker_count() -> int:
    """How many processes tune at once, from TileLang's environment variables (module docstring)."""
    available = len(os.sched_getaffinity(0))
    counts = int(os.environ.get("TILELANG_AUTO_TUNING_CPU_COUNTS", "-1"))
    if counts > 0:
        workers = min(counts, available)
    else:
        workers = max(1, int(available * float(os.environ.get("TILELANG_AUTO_TUNING_CPU_UTILITIES", "0.9"))))
    cap = int(os.environ.get("TILELANG_AUTO_TUNING_MAX_CPU_COUNT", "-1"))
    return min(workers, cap) if cap > 0 else workers


# The function forked workers run: set before the pool forks, so each worker inherits it instead of
# unpickling it (a factory's closures and compiled kernels need not be picklable).
_FORKED_FUNCTION: Callable | None = None


def _run_forked(item):
    return _FORKED_FUNCTION(item)


def forked_map(function: Callable, items: list, workers: int) -> list:
    """``[function(item) for item in items]``, computed by ``workers`` processes forked from this one,
    which inherit ``function`` and everything it refers to; only the items and results are pickled."""
    global _FORKED_FUNCTION
    _FORKED_FUNCTION = function
    pool = multiprocessing.get_context("fork").Pool(workers)
    try:
        return pool.map(_run_forked, items, chunksize=1)
    finally:
        _FORKED_FUNCTION = None
        pool.close()  # workers leave on their own: a SIGTERM would wake whatever handler they inherited
        pool.join()


def _connected_ray():
    """The ``ray`` module when this process has connected a Ray session (and tuning may use it)."""
    ray = sys.modules.get("ray")  # not imported by the compiler: a session exists only if the user made one
    if ray is None or os.environ.get("TILELANG_TT_AUTOTUNE_RAY", "1") == "0":
        return None
    return ray if ray.is_initialized() else None


def _run_remote(trial: Callable[[dict], Trial], config: dict) -> Trial:
    """A Ray task's body: the Trial, named by the node it ran on."""
    import ray

    outcome = trial(config).detached()
    return dataclasses.replace(
        outcome, worker=f"{outcome.worker} on Ray node {ray.get_runtime_context().get_node_id()}"
    )


def _on_ray(ray, trial, configs: list[dict]) -> list[Trial]:
    task = ray.remote(num_cpus=1)(_run_remote)
    shipped = ray.put(trial)  # one copy of the tuner in the object store, not one per task
    return ray.get([task.remote(shipped, config) for config in configs])
