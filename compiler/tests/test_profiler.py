"""The profiler's parts that need no device: the comparison, the timing loop, the input supply."""

import ml_dtypes
import numpy as np
import pytest
from tilelang_tt.profiler import assert_close, do_bench
from tilelang_tt.tensor_supply import TensorSupplyType, make_tensor


def test_assert_close_allows_the_mismatch_ratio():
    expected = np.zeros(1000, np.float32)
    actual = expected.copy()
    actual[:10] = 1.0
    assert_close(actual, expected, atol=1e-2, rtol=1e-2, max_mismatched_ratio=0.01, name="C")
    actual[10] = 1.0
    with pytest.raises(AssertionError) as err:
        assert_close(
            actual, expected, atol=1e-2, rtol=1e-2, max_mismatched_ratio=0.01, name="kernel output C"
        )
    assert str(err.value).startswith(
        "kernel output C: 11 of 1000 elements differ beyond atol=0.01, rtol=0.01"
    )
    assert "max abs error 1, max rel error 1e+12; first mismatch at (0,): kernel 1, reference 0" in str(
        err.value
    )


def test_assert_close_compares_a_bf16_kernel_with_a_float32_reference():
    expected = np.linspace(-3, 3, 64, dtype=np.float32).reshape(8, 8)
    assert_close(expected.astype(ml_dtypes.bfloat16), expected, 1e-2, 1e-2, 0.0, "C")


def test_assert_close_reports_a_shape_mismatch():
    with pytest.raises(AssertionError, match=r"C: the kernel gives shape \(2, 3\), the reference \(3, 2\)"):
        assert_close(np.zeros((2, 3)), np.zeros((3, 2)), 1e-2, 1e-2, 0.01, "C")


def test_do_bench_returns_milliseconds_per_call():
    calls = []
    ms = do_bench(lambda: calls.append(sum(range(1000))), _n_warmup=2, _n_repeat=5)
    assert ms > 0 and len(calls) == 2 + 2 + 5  # the untimed first call, the estimate, warmup, repeats
    assert len(do_bench(lambda: None, _n_repeat=3, quantiles=[0.2, 0.8])) == 2


@pytest.mark.parametrize("bad", [{"backend": "nvtx"}, {"return_mode": "mode"}])
def test_do_bench_rejects_unknown_modes(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        do_bench(lambda: None, **bad)


def test_supply_distributions():
    rng = np.random.default_rng(0)
    auto = make_tensor(TensorSupplyType.Auto, (64, 64), "bfloat16", rng)
    assert auto.dtype == ml_dtypes.bfloat16 and -1 <= auto.astype(np.float32).min() < -0.9
    integer = make_tensor(TensorSupplyType.Integer, (64, 64), "float32", rng)
    assert set(np.unique(integer)) == {-2, -1, 0, 1, 2}
    normal = make_tensor(TensorSupplyType.Normal, (64, 64), "float32", rng)
    assert abs(normal.mean() + 1) < 0.1 and abs(normal.std() - 1) < 0.1
    assert not make_tensor(TensorSupplyType.Zero, (4,), "float16", rng).any()
    assert (make_tensor(TensorSupplyType.One, (4,), "float16", rng) == 1).all()
    assert make_tensor(TensorSupplyType.Auto, (8,), "int32", rng).dtype == np.int32
