"""``@autotune`` over the timing model: the fastest config's kernel, configs that do not compile or give a
wrong answer left out (and named when none is left), a call that sets a tunable compiled as given."""

import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest
import tilelang_tt as tilelang
from programs import gemm
from tilelang_gemm_programs import matmul as eager_matmul  # TileLang's eager style: T.const sizes
from tilelang_tt.autotuner import AutoTuner, autotune, set_autotune_inputs
from tilelang_tt.errors import TTCompileError
from tilelang_tt.tuning_pool import this_worker, worker_count

matmul = tilelang.jit(out_idx=[-1])(gemm)  # gemm(M, N, K, bM, bN, bK, ...) builds the PrimFunc


@tilelang.jit(out_idx=[-1])
def matmul_without_defaults(M, N, K, bM, bN, bK):  # noqa: N803
    """A factory whose block sizes have no defaults: its configs are the only candidates."""
    return gemm(M, N, K, bM, bN, bK)


def ref_program(A, B):
    return A.astype(np.float32) @ B.astype(np.float32)


CONFIGS = [{"bM": 32, "bN": 32, "bK": 32}, {"bM": 64, "bN": 64, "bK": 64}, {"bM": 128, "bN": 128, "bK": 32}]
TOO_BIG = {"bM": 1024, "bN": 1024, "bK": 512}  # more L1 than a core has


def test_tuning_keeps_the_config_that_models_fastest():
    tuned = autotune(configs=CONFIGS, ref_prog=ref_program)(matmul)
    kernel = tuned(256, 256, 256)
    modelled = {tuple(c.values()): matmul(256, 256, 256, **c).get_profiler().do_bench() for c in CONFIGS}
    assert kernel.latency == min(modelled.values()), f"chose {kernel.config} of {modelled}"
    assert modelled[tuple(kernel.config.values())] == kernel.latency
    assert kernel.ref_latency > 0
    assert tuned(256, 256, 256) is kernel, "a second call with the same arguments should not tune again"


def test_a_config_that_does_not_fit_is_left_out():
    kernel = autotune(configs=[TOO_BIG, CONFIGS[0]])(matmul_without_defaults)(256, 256, 256)
    assert kernel.config == CONFIGS[0]


def test_a_config_giving_a_wrong_answer_is_left_out():
    def wrong(A, B):
        return ref_program(A, B) + 1.0

    with pytest.raises(TTCompileError, match=r"no config gives a kernel:\n  \{'bM': 32.*wrong result"):
        autotune(configs=CONFIGS[:1], ref_prog=wrong)(matmul)(128, 128, 128)


def test_when_no_config_compiles_each_reason_is_named():
    with pytest.raises(TTCompileError, match=r"\{'bM': 1024, 'bN': 1024, 'bK': 512\}: TTResourceError"):
        autotune(configs=[TOO_BIG])(matmul_without_defaults)(256, 256, 256)


def test_a_call_that_sets_a_tunable_is_compiled_as_given():
    kernel = autotune(configs=[TOO_BIG])(matmul)(128, 128, 128, bM=64, bN=64, bK=64)
    assert not hasattr(kernel, "latency"), "the kernel was tuned although the call set block sizes"
    a, b = (np.ones((128, 128), np.float32) for _ in range(2))
    np.testing.assert_allclose(np.asarray(kernel(a, b), np.float32), ref_program(a, b))


def test_tuning_on_given_inputs():
    a = np.full((128, 128), 0.5, np.float32)
    b = np.eye(128, dtype=np.float32)
    seen = []

    def identity_check(A, B):
        seen.append(float(np.asarray(A, np.float32)[0, 0]))
        return ref_program(A, B)

    with set_autotune_inputs(a, b):
        autotune(configs=CONFIGS[:1], ref_prog=identity_check)(matmul)(128, 128, 128)
    assert seen and all(v == 0.5 for v in seen), f"the reference saw {seen}, not the given inputs"


def test_the_autotuner_class_as_tilelangs_examples_use_it():
    def kernel(bM=None, bN=None, bK=None):  # noqa: N803 -- the configs' names
        return gemm(128, 128, 128, bM, bN, bK)

    result = (
        AutoTuner.from_kernel(kernel=kernel, configs=CONFIGS[:2])
        .set_compile_args(out_idx=[-1], target="auto")
        .set_profile_args(supply_type=tilelang.TensorSupplyType.Auto, ref_prog=ref_program, skip_check=False)
        .run(warmup=3, rep=20)
    )
    modelled = [kernel_of(c).get_profiler().do_bench() for c in CONFIGS[:2]]
    assert result.latency == min(modelled) and result.config == CONFIGS[modelled.index(min(modelled))]
    assert result.kernel.latency == result.latency and "void kernel_main()" in result.libcode
    assert result.func is not None


def kernel_of(config):
    return tilelang.compile(gemm(128, 128, 128, **config), out_idx=[-1])


# Its own program: programs.py imports TVM, which the second run must not.
SCRIPT = """
import sys
import tilelang_tt as tilelang
import tilelang_tt.language as T
from tilelang_tt.autotuner import autotune


@autotune(configs=[{"block": 32}, {"block": 64}])
@tilelang.jit(out_idx=[-1])
def double(M, N, block=32):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), "float32")
            T.copy(A[by * block, bx * block], A_s)
            for i, j in T.Parallel(block, block):
                A_s[i, j] = A_s[i, j] * 2.0
            T.copy(A_s, B[by * block, bx * block])

    return main


kernel = double(128, 128)
print("tvm" in sys.modules, kernel.config, kernel.latency)
"""


def test_a_later_process_takes_the_tuned_config_from_the_cache(tmp_path):
    (tmp_path / "tune.py").write_text(SCRIPT)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(p for p in sys.path if p),
        TILELANG_TT_CACHE_DIR=str(tmp_path / "cache"),
        RUNTIME_MOCK_CACHE_DIR=str(tmp_path / "cache" / "kernels"),
    )

    def run():
        result = subprocess.run(
            [sys.executable, "tune.py"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    first, second = run(), run()
    assert first.startswith("True "), first
    assert second == "False" + first[len("True") :], (
        f"tuning again, or importing TVM: {first!r} then {second!r}"
    )


def test_the_factorys_defaults_are_a_candidate_too():
    @tilelang.jit(out_idx=[-1])
    def small_blocks(M, N, K, bM=32, bN=32, bK=32):  # noqa: N803
        return gemm(M, N, K, bM, bN, bK)

    slower = {"bM": 128, "bN": 128, "bK": 32}  # 2x2 blocks of 128 on 4 cores: slower than 8x8 of 32
    kernel = autotune(configs=[slower])(small_blocks)(256, 256, 256)
    untuned = small_blocks(256, 256, 256).get_profiler().do_bench()
    assert kernel.latency <= untuned, (
        f"tuning returned {kernel.config} at {kernel.latency} ms, {untuned} untuned"
    )


def test_an_eager_factory_is_tuned_by_its_sizes_and_run_on_its_tensors():
    configs = [{f"block_{axis}": c[f"b{axis}"] for axis in "MNK"} for c in CONFIGS[:2]]
    tuned = autotune(configs=configs)(eager_matmul)
    kernel = tuned.compile(M=128, N=128, K=128)  # sizes by keyword, as TileLang's eager examples pass them
    assert kernel.config in configs
    a = np.ones((128, 128), np.float16)
    out = tuned(a, a)  # compiled for these shapes once, then run
    np.testing.assert_allclose(np.asarray(out, np.float32), ref_program(a, a))


def test_autotune_without_tilelang_jit_is_a_located_error():
    def plain(M, N, K, bM=32, bN=32, bK=32):  # noqa: N803
        return gemm(M, N, K, bM, bN, bK)

    with pytest.raises(
        TTCompileError, match=r"test_autotune.py:\d+:\d+: error: @autotune goes above @tilelang.jit"
    ):
        autotune(configs=CONFIGS)(plain)


def test_an_unknown_autotune_argument_is_named():
    with pytest.raises(TypeError, match="autotune\\(\\): got an unexpected keyword argument 'rpe'"):
        autotune(configs=CONFIGS, rpe=10)


# Where candidates run: one process, forked worker processes, a Ray cluster (tuning_pool.py). A config that
# does not fit is among them, so failures travel back too.
WHERE_CONFIGS = [*CONFIGS, TOO_BIG]


def gemm_256(bM, bN, bK):  # noqa: N803 -- the configs' names
    return gemm(256, 256, 256, bM, bN, bK)


def tune_where(cache_dir, cpu_counts: str):
    """The AutotuneResult of tuning gemm_256 with ``cpu_counts`` worker processes and an empty cache of its
    own at ``cache_dir``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TILELANG_TT_CACHE_DIR", str(cache_dir))
        patch.setenv("TILELANG_AUTO_TUNING_CPU_COUNTS", cpu_counts)
        return (
            AutoTuner.from_kernel(kernel=gemm_256, configs=WHERE_CONFIGS)
            .set_compile_args(out_idx=[-1])
            .set_profile_args(ref_prog=ref_program)
            .run()
        )


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    """The tuning in this process that the worker processes and the Ray cluster must reproduce (run once)."""
    return tune_where(tmp_path_factory.mktemp("alone"), "1")


def outcomes(result):
    return [(trial.config, trial.latency, trial.failure) for trial in result.trials]


def test_worker_processes_tune_as_one_process_does(alone, tmp_path):
    assert {trial.worker for trial in alone.trials} == {this_worker()}
    forked = tune_where(tmp_path, "2")
    workers = {trial.worker for trial in forked.trials}
    assert this_worker() not in workers and len(workers) == 2, f"candidates ran in {workers}"
    assert outcomes(forked) == outcomes(alone)
    assert (forked.config, forked.latency) == (alone.config, alone.latency)
    assert "TTResourceError" in forked.trials[-1].failure, forked.trials[-1]
    assert forked.kernel.from_cache, "the winner should come back from its worker as data, not compile again"
    a, b = (np.random.default_rng(0).standard_normal((256, 256), np.float32) for _ in range(2))
    np.testing.assert_allclose(
        np.asarray(forked.kernel(a, b), np.float32), ref_program(a, b), rtol=2e-2, atol=0.5
    )


def test_a_ray_cluster_tunes_as_one_process_does(alone, monkeypatch, tmp_path):
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_ACCEL_ENV_VAR_OVERRIDE_ON_ZERO", "0")  # no accelerators here: quiet Ray's notice
    # A short session folder: Ray's sockets live there, and a test's TMPDIR is too long for a socket path.
    session = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        _temp_dir=session,
        runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}},
    )
    try:
        on_ray = tune_where(tmp_path, "1")
    finally:
        ray.shutdown()
        shutil.rmtree(session, ignore_errors=True)
    assert all("on Ray node" in trial.worker for trial in on_ray.trials), [t.worker for t in on_ray.trials]
    assert outcomes(on_ray) == outcomes(alone)
    assert (on_ray.config, on_ray.latency) == (alone.config, alone.latency)


@pytest.mark.parametrize(
    "variables, workers",
    [
        ({}, 7),  # 0.9 of 8 CPUs, TileLang's default
        ({"TILELANG_AUTO_TUNING_CPU_COUNTS": "3"}, 3),
        ({"TILELANG_AUTO_TUNING_CPU_COUNTS": "16"}, 8),  # no more than the CPUs
        ({"TILELANG_AUTO_TUNING_CPU_UTILITIES": "0.5"}, 4),
        ({"TILELANG_AUTO_TUNING_MAX_CPU_COUNT": "2"}, 2),
    ],
)
def test_the_worker_count_follows_tilelangs_variables(monkeypatch, variables, workers):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    for name in ("CPU_COUNTS", "CPU_UTILITIES", "MAX_CPU_COUNT"):
        monkeypatch.delenv(f"TILELANG_AUTO_TUNING_{name}", raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert worker_count() == workers, f"{variables} on 8 CPUs"


def test_a_configs_pass_configs_apply_to_its_candidate_alone():
    """Upstream's reserved ``pass_configs`` key (examples/gemm/example_gemm_autotune_pass_configs.py): merged
    into that candidate's compile, not passed to the factory. Here it tunes the math fidelity."""
    from tilelang_tt.transform import PassConfigKey

    fidelity = [
        {
            **CONFIGS[1],
            "pass_configs": {"tl.tt.math_fidelity": name, PassConfigKey.TL_DISABLE_TMA_LOWER: True},
        }
        for name in ("HiFi4", "LoFi")
    ]
    result = AutoTuner.from_kernel(kernel=gemm_256, configs=fidelity).set_compile_args(out_idx=[-1]).run()
    hifi4, lofi = (trial.latency for trial in result.trials)
    assert lofi < hifi4, f"LoFi ({lofi} ms) should model faster than HiFi4 ({hifi4} ms)"
    assert result.config == fidelity[1] and result.kernel.options.math_fidelity == "LoFi"
