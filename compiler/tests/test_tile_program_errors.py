"""Every error class of the tile-program passes: a located TTCompileError naming the construct."""

import pytest
import tilelang_tt
import tilelang_tt.language as T
from tilelang_tt.errors import TTCompileError

M = N = 64


def _program(body_kind):
    """Small programs, one mistake each (``body_kind`` picks it)."""

    @T.prim_func
    def program(A: T.Tensor((M, N), "float32"), C: T.Tensor((2 * M, N), "float32")):
        with T.Kernel(2, threads=128) as bx:
            A_s = T.alloc_shared((M, N), "float32")
            D_f = T.alloc_fragment((M, N), "float32")
            C_f = T.alloc_fragment((M, N), "float32")
            v = T.alloc_fragment((M,), "float32")
            T.copy(A[0, 0], A_s)
            if body_kind == "read_before_write":
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = D_f[i, j] + A_s[i, j]
            elif body_kind == "dies_with_loop":
                for _ in T.serial(2):
                    T.copy(A_s, D_f)
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = D_f[i, j] + A_s[i, j]
            elif body_kind == "branches_differ":
                T.copy(A_s, C_f)
                if bx == 0:
                    T.copy(A_s, D_f)
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = C_f[i, j] + D_f[i, j]
            elif body_kind == "vector_both_ways":
                T.reduce_sum(A_s, v, dim=1)
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = A_s[i, j] * v[i] + v[j]
            elif body_kind == "diagonal_index":
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = A_s[j, j]
            elif body_kind == "transposed_broadcast":
                col = T.alloc_fragment((M, 1), "float32")
                T.reduce_sum(A_s, col, dim=1)
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = A_s[i, j] + col[j, 0]
            elif body_kind == "partial_store":
                T.copy(A_s, C_f)
                for i, j in T.Parallel(M, N):
                    C_f[i, 0] = A_s[i, j]
            elif body_kind == "scalar_code":
                T.copy(A_s, C_f)
                C_f[0, 0] = 1.0
            elif body_kind == "strided_global":
                for i, j in T.Parallel(M // 2, N):
                    C_f[i, j] = A[i * 2, j] + A_s[i, j]
            elif body_kind == "data_dependent_gather":
                T.copy(A_s, D_f)
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = A[T.Cast("int32", D_f[i, j]), j]
            elif body_kind == "computed_gather":
                for i, j in T.Parallel(M, N):
                    row = (bx * M + i) % 48 // 3
                    C_f[i, j] = T.if_then_else(row < M, A[row, j], 0.0)
            elif body_kind == "unsupported_function":
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = T.atan2(A_s[i, j], 2.0)
            elif body_kind == "scan_along_no_dimension":
                T.cummax(A_s, dim=2)
            elif body_kind == "product_reducer":
                r = T.alloc_reducer((M,), "float32", op="prod")
                T.clear(r)
            elif body_kind == "let_of_a_value":
                T.let(bx * 2, 1)
            elif body_kind == "any_of_a_tile":
                if T.any_of(A_s):
                    T.copy(A_s, C_f)
            elif body_kind == "integer_infinity":
                T.fill(C_f, T.infinity("int32"))
            elif body_kind == "rounding_mode":
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = T.round(A_s[i, j], "upward")
            elif body_kind == "power_of_a_tile":
                for i, j in T.Parallel(M, N):
                    C_f[i, j] = T.pow(2.0, A_s[i, j])
            elif body_kind == "slice_of_tile_buffer":
                T.copy(A_s[0:32, 0:32], C_f[0:32, 0:32])
            T.copy(C_f, C[bx * M, 0])

    return program


CASES = {
    "read_before_write": "D_f is read here but holds no value",
    "dies_with_loop": "D_f is read here but holds no value",
    "branches_differ": "D_f is read here but holds no value at this point",
    "vector_both_ways": "v is used in this statement both as a row vector and as a column vector",
    "diagonal_index": "index tile buffers by the T.Parallel variables in order",
    "transposed_broadcast": "an operand is indexed in a different order than the stored buffer",
    "partial_store": r"storing C_f indexes \[i, 0\] of a \(64, 64\) buffer",
    "scalar_code": r"a store to C_f outside T.Parallel is scalar code \(a value carried",
    "strided_global": "a start plus one T.Parallel variable per dimension",
    "data_dependent_gather": r"A\[T.Cast\(\"int32\", D_f\w*\[i, j\]\), j\]: an element-wise statement",
    "computed_gather": r"a gather by computed indices is not supported yet \(a convolution's im2col",
    "unsupported_function": "T.atan2 is not supported on Tenstorrent yet: no SFPU lowering of this function",
    "scan_along_no_dimension": "T.cummax: dim 2 is out of range for the 2-D tile A_s",
    "product_reducer": r'T.alloc_reducer\(op="prod"\): "sum", "max" and "min" reducers are supported',
    "let_of_a_value": r"T.let binds a variable \(v = T.int32\(\); T.let\(v, value\)\); got Mul",
    "any_of_a_tile": "T.any_of of A_s: a region of constant extents, at most 64 elements",
    "integer_infinity": "T.infinity: int32 is not a floating-point dtype",
    "rounding_mode": "T.round: rounding_mode 'upward' is not one of 'ties-to-even', 'ties-away-from-zero'",
    "power_of_a_tile": "T.pow with an exponent that is not a constant is not supported on Tenstorrent yet",
    "slice_of_tile_buffer": "slicing a tile buffer is not supported yet",
}


@pytest.mark.parametrize("kind", sorted(CASES))
def test_tile_program_mistakes_are_located_errors(kind):
    with pytest.raises(TTCompileError, match=CASES[kind]) as err:
        tilelang_tt.compile(_program(kind), out_idx=[-1])
    assert err.value.lineno is not None, f"{kind}: the error names no DSL line: {err.value}"


@pytest.mark.parametrize(
    "knobs, message",
    [
        ({"nan_propagate": True}, r"T.reduce_max\(nan_propagate=True\) is not supported on Tenstorrent yet"),
        ({"batch": 0}, r"T.reduce_max: batch must be >= 1, got 0"),
    ],
)
def test_reduction_knobs_we_cannot_honour_are_located_errors(knobs, message):
    with pytest.raises(TTCompileError, match=message) as raised:

        @T.prim_func
        def program(A: T.Tensor((M, N), "float32"), B: T.Tensor((M,), "float32")):
            with T.Kernel(1, threads=128):
                A_f = T.alloc_fragment((M, N), "float32")
                v = T.alloc_fragment((M,), "float32")
                T.copy(A, A_f)
                T.reduce_max(A_f, v, dim=1, **knobs)
                T.copy(v, B)

    assert raised.value.filename == __file__, raised.value
