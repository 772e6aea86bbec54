"""The eager ``tilelang.jit`` style without a device: constants from shapes or keywords, T.empty outputs,
one kernel per shape, and located errors for what it does not take. ``matmul`` is TileLang's eager GEMM
example (tilelang_gemm_programs.py)."""

import numpy as np
import pytest
import tilelang_tt as tilelang
import tilelang_tt.language as T
from tilelang_gemm_programs import matmul, matmul_dynamic_mnk
from tilelang_tt.errors import TTArgumentError
from tilelang_tt.ir_utils import tensor_params


def _line_of(text: str) -> int:
    """The line of this file holding ``text`` (once)."""
    with open(__file__) as f:
        (line,) = [i for i, t in enumerate(f, 1) if text in t and "_line_of" not in t]
    return line


def _shapes(kernel):
    return {p["name"]: tuple(p["shape"]) for p in kernel.params}


def test_compile_takes_the_constants_by_keyword():
    kernel = matmul.compile(M=128, N=64, K=96, block_M=64, block_N=64, block_K=32)
    assert _shapes(kernel) == {"A": (128, 96), "B": (96, 64), "C": (128, 64)}
    assert kernel.out_idx == [2] and isinstance(matmul, tilelang.eager.EagerKernelFactory)


def test_constants_come_from_the_tensor_shapes():
    kernel = matmul.compile(np.zeros((64, 96)), np.zeros((96, 32)), 32, 32, 32)
    assert _shapes(kernel) == {"A": (64, 96), "B": (96, 32), "C": (64, 32)}
    func = matmul.get_tir(np.zeros((64, 96)), np.zeros((96, 32)), 32, 32, 32)
    assert [int(i) for i in func.attrs["tl.out_idx"]] == [-1]


def test_one_kernel_per_shape_and_block_sizes():
    kernel = matmul.compile(M=64, N=64, K=64, block_M=32, block_N=32, block_K=32)
    a = np.zeros((64, 64))
    assert matmul.compile(a, a, 32, 32, 32) is kernel
    assert matmul.compile(M=64, N=64, K=64, block_M=64, block_N=32, block_K=32) is not kernel


def test_compiled_primfunc_keeps_its_outputs():
    func = matmul.get_tir(M=64, N=64, K=64, block_M=32, block_N=32, block_K=32)
    assert tilelang.compile(func).out_idx == [2]
    with pytest.raises(tilelang.TTCompileError, match=r"T.empty outputs already fix out_idx=\[-1\]"):
        tilelang.compile(func, out_idx=[0])


def test_kernel_body_errors_point_at_the_users_line():
    @tilelang.jit
    def bad(A, block):
        N = T.const("N")
        A: T.Tensor((N,), "bfloat16")
        C = T.empty((N,), "bfloat16")
        with T.Kernel(1) as bx:
            T.copy(A[0], C[0], no_such_keyword=1)
        return C

    with pytest.raises(tilelang.TTCompileError) as err:
        bad.compile(N=64, block=32)
    assert err.value.filename == __file__ and err.value.lineno == _line_of("no_such_keyword=1)\n"), str(
        err.value
    )
    assert "T.copy(A[0], C[0], no_such_keyword=1)" in str(err.value)


def _error(factory, *args, **kwargs) -> str:
    with pytest.raises((tilelang.TTError, TypeError)) as err:
        factory.compile(*args, **kwargs)
    return str(err.value)


def test_a_constant_without_a_value_says_how_to_give_one():
    message = _error(matmul, block_M=32, block_N=32, block_K=32)
    assert (
        "T.const M has no value: pass M=<int> or the tensor whose shape gives it (dimension 0 of A)"
        in message
    )


def test_a_constant_used_only_inside_expressions_must_be_passed():
    @tilelang.jit
    def doubled(A):
        N = T.const("N")
        A: T.Tensor((N * 2,), "bfloat16")
        C = T.empty((N * 2,), "bfloat16")
        with T.Kernel(1) as bx:
            T.copy(A[0], C[0])
        return C

    with pytest.raises(TTArgumentError, match="T.const N has no value.*no tensor dimension by itself"):
        doubled(np.zeros(64))


def test_wrong_tensor_rank_and_unknown_keywords():
    with pytest.raises(TTArgumentError, match=r"A must have 2 dimensions \(M, K\), got shape \(64,\)"):
        matmul(np.zeros(64), np.zeros((64, 64)), 32, 32, 32)
    assert "unexpected keyword argument(s) L" in _error(
        matmul, M=1, N=1, K=1, L=1, block_M=1, block_N=1, block_K=1
    )


def test_a_call_needs_its_tensors():
    with pytest.raises(
        TTArgumentError, match=r"matmul\(\) needs its tensor argument\(s\) B; use matmul.compile"
    ):
        matmul(np.zeros((64, 64)), block_M=32, block_N=32, block_K=32)


def test_every_t_empty_must_be_returned():
    @tilelang.jit
    def forgets(A):
        N = T.const("N")
        A: T.Tensor((N,), "bfloat16")
        C = T.empty((N,), "bfloat16")
        D = T.empty((N,), "bfloat16")
        with T.Kernel(1) as bx:
            T.copy(A[0], C[0])
        return C

    assert "declares C, D and returns C" in _error(forgets, N=64)


def test_statements_after_the_kernel_are_rejected_where_they_are():
    with pytest.raises(tilelang.TTCompileError, match="may only `return` its T.empty outputs") as err:

        @tilelang.jit
        def trailing(A):
            N = T.const("N")
            A: T.Tensor((N,), "bfloat16")
            with T.Kernel(1) as bx:
                T.clear(A)
            N = N + 1

    assert err.value.lineno == _line_of("N = N + 1")


def test_signature_annotations_and_out_idx_are_rejected():
    with pytest.raises(tilelang.TTCompileError, match="not with annotations in the signature"):

        @tilelang.jit
        def annotated(A: T.Tensor((64,), "float32")):  # eager kernels declare tensors in the body
            with T.Kernel(1) as bx:
                T.clear(A)

    with pytest.raises(tilelang.TTCompileError, match="fix out_idx; drop out_idx"):

        @tilelang.jit(out_idx=[-1])
        def with_out_idx(A):
            with T.Kernel(1) as bx:
                T.clear(A)


def test_only_parameters_can_be_annotated_as_tensors():
    with pytest.raises(tilelang.TTCompileError, match="X is annotated as a tensor but is not a parameter"):

        @tilelang.jit
        def stray(A):
            X: T.Tensor((64,), "bfloat16")  # noqa: F842 -- the mistake under test
            with T.Kernel(1) as bx:
                T.clear(A)


def test_const_and_empty_outside_an_eager_kernel():
    with pytest.raises(
        tilelang.TTCompileError, match="T.const declares part of an eager @tilelang.jit kernel"
    ):
        T.const("M")
    with pytest.raises(tilelang.TTCompileError, match="T.empty declares part of an eager"):
        T.empty((64, 64), "bfloat16")
    with pytest.raises(tilelang.TTCompileError, match="T.dynamic sizes are bound per call") as err:
        T.dynamic("m")
    assert "test_eager.py" in str(err.value), err.value


def test_a_dynamic_size_is_a_constant_of_the_call():
    """T.dynamic("m") is a T.const of one name: the kernel for a call has its tensors' sizes."""
    func = matmul_dynamic_mnk.get_tir(
        np.zeros((96, 128), np.float16), np.zeros((96, 64), np.float16), 64, 64, 32, True, False,
        "float16", "float16", "float32", 2, 128,
    )  # fmt: skip
    assert [[int(d) for d in p.shape] for p in tensor_params(func)] == [[96, 128], [96, 64], [128, 64]]


def plain_matmul(A, B, block_M, block_N, block_K):
    M, N, K = T.const("M, N, K")
    A: T.Tensor((M, K), T.bfloat16)
    B: T.Tensor((K, N), T.bfloat16)
    C = T.empty((M, N), T.bfloat16)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M)) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), T.bfloat16)
        B_shared = T.alloc_shared((block_K, block_N), T.bfloat16)
        C_local = T.alloc_fragment((block_M, block_N), T.float)
        T.clear(C_local)
        for k in T.Pipelined(T.ceildiv(K, block_K)):
            T.copy(A[by * block_M, k * block_K], A_shared)
            T.copy(B[k * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.copy(C_local, C[by * block_M, bx * block_N])
    return C


def test_an_undecorated_function_and_nested_lists_compile():
    a = np.zeros((64, 32)).tolist()
    kernel = tilelang.jit(plain_matmul).compile(a, np.zeros((32, 64)).tolist(), 32, 32, 32)
    assert _shapes(kernel) == {"A": (64, 32), "B": (32, 64), "C": (64, 64)}


def test_t_dynamic_names_one_size():
    @tilelang.jit
    def copy_rows(A):
        M, N = T.dynamic("m, n")  # noqa: F841 -- the error comes first
        A: T.Tensor((64, 64), "float32")
        B = T.empty((64, 64), "float32")
        with T.Kernel(1) as bx:
            T.copy(A[0, 0], B[0, 0])
        return B

    with pytest.raises(tilelang.TTCompileError, match=r"T.dynamic\('m, n'\) names one size") as err:
        copy_rows(np.zeros((64, 64), np.float32))
    assert "test_eager.py" in str(err.value), err.value
