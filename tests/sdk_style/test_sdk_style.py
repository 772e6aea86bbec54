"""SDK-style host programs of this directory, run on the mock device and compared with numpy.

Each host program (a .cpp here) is built as C++17, like generated host code, with its shape as host
defines, and called through tilelang_tt_run with row-major bf16 tensors (uint16 bits).
"""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
import tt_mock

HERE = Path(__file__).absolute().parent
KERNELS = HERE / "kernels"
BF16 = ml_dtypes.bfloat16


def run_host_program(name: str, defines: dict[str, int], inputs: list[np.ndarray], out_shape) -> np.ndarray:
    """Builds HERE/name.cpp with the defines, runs it on bf16 inputs, returns the output as float32."""
    so = tt_mock.build_host_program(
        [HERE / f"{name}.cpp"], defines={k: str(v) for k, v in defines.items()}, std="c++17"
    )
    tensors = [np.ascontiguousarray(x.astype(BF16)).view(np.uint16) for x in inputs]
    out = np.zeros(out_shape, np.uint16)
    tt_mock.HostProgram(so).run(KERNELS, [*tensors, out])
    return out.view(BF16).astype(np.float32)


def bf16(x: np.ndarray) -> np.ndarray:
    """x rounded to bf16, as float32 (what the device sees as input)."""
    return x.astype(BF16).astype(np.float32)


def pcc(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.corrcoef(a.reshape(-1), b.reshape(-1))[0, 1])


@pytest.mark.parametrize("op, reference", [(0, np.add), (1, np.subtract), (2, np.multiply)])
def test_eltwise_binary(op, reference):
    rng = np.random.default_rng(op)
    a, b = (bf16(rng.uniform(-2, 2, (96, 320))) for _ in range(2))
    out = run_host_program("eltwise_binary", {"ROWS": 96, "COLS": 320, "ELTWISE_OP": op}, [a, b], (96, 320))
    np.testing.assert_allclose(out, reference(a, b), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize(
    "code, reference, low, high",
    [
        (0, np.exp, -2.0, 2.0),
        (1, lambda x: np.maximum(x, 0), -2.0, 2.0),
        (2, np.sqrt, 0.1, 4.0),
        (3, np.reciprocal, 0.5, 4.0),
    ],
)
def test_sfpu_unary(code, reference, low, high):
    a = bf16(np.random.default_rng(code).uniform(low, high, (64, 256)))
    out = run_host_program("sfpu_unary", {"ROWS": 64, "COLS": 256, "SFPU_OP_CODE": code}, [a], (64, 256))
    np.testing.assert_allclose(out, reference(a), rtol=2e-2, atol=2e-2)


def test_reduce_rows():
    a = bf16(np.random.default_rng(7).uniform(-1, 1, (128, 256)))
    out = run_host_program("reduce_rows", {"ROWS": 128, "COLS": 256}, [a], (128, 32))
    np.testing.assert_allclose(out[:, 0], a.sum(axis=1), rtol=2e-2, atol=5e-2)


def matmul_inputs(m: int, k: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return bf16(rng.uniform(-0.5, 0.5, (m, k))), bf16(rng.uniform(-0.5, 0.5, (k, n)))


@pytest.mark.parametrize("max_cores", [1, 0], ids=["single_core", "multi_core"])
def test_matmul_tiles(max_cores):
    m, k, n = 96, 128, 160
    a, b = matmul_inputs(m, k, n, max_cores)
    out = run_host_program(
        "matmul_tiles", {"SHAPE_M": m, "SHAPE_K": k, "SHAPE_N": n, "MAX_CORES": max_cores}, [a, b], (m, n)
    )
    np.testing.assert_allclose(out, a @ b, rtol=2e-2, atol=2e-2)


@pytest.mark.parametrize("program", ["matmul_block_reuse", "matmul_mcast"])
@pytest.mark.parametrize("m, k, n, in0_block_w", [(256, 256, 256, 2), (192, 128, 320, 4)])
def test_block_matmuls(program, m, k, n, in0_block_w):
    a, b = matmul_inputs(m, k, n, m + n)
    defines = {"SHAPE_M": m, "SHAPE_K": k, "SHAPE_N": n, "IN0_BLOCK_W": in0_block_w}
    out = run_host_program(program, defines, [a, b], (m, n))
    assert pcc(out, a @ b) > 0.999
    np.testing.assert_allclose(out, a @ b, rtol=2e-2, atol=3e-2)


def test_single_device_api_and_runtime_args_edited_in_place(capfd):
    program = tt_mock.HostProgram(tt_mock.build_host_program([HERE / "legacy_api.cpp"], std="c++17"))
    assert program.main([str(KERNELS)]) == 0, capfd.readouterr().out
    assert "legacy_api: pass" in capfd.readouterr().out
