"""The DSL surface: TileLang spellings parse into tl ops that carry their DSL location."""

import importlib.util

import pytest
import tilelang_tt
import tilelang_tt.language as T
import tvm
from programs import gemm
from tilelang_tt import ops
from tilelang_tt.errors import TTCompileError
from tilelang_tt.ir_utils import find_ops


def test_ops_carry_file_line_col():
    site = find_ops(gemm().body, ("tl.gemm",))[0]
    assert site.loc.split(":")[0].endswith("programs.py") and int(site.loc.split(":")[1]) > 0


def test_start_index_takes_extents_from_the_other_side():
    site = find_ops(gemm(bM=64, bK=32).body, ("tl.copy",))[0]
    assert [int(r.extent) for r in site.call.args[0].region] == [64, 32]


def test_pipelined_records_stages():
    loops = find_ops(gemm(stages=3).body, ("tl.gemm",))[0].loops
    assert int(loops[-1].annotations["tl.pipelined_stages"]) == 3


def test_kernel_ignores_threads():
    assert "threadIdx" not in gemm().script()


def test_ceildiv_on_ints_is_an_int():
    assert T.ceildiv(100, 32) == 4


def test_tirx_names_pass_through():
    assert T.float32 is not None and T.serial is not None


def test_ops_are_registered_once():
    import importlib

    importlib.reload(ops)
    assert tvm.ir.Op.get("tl.copy").get_attr("TCallEffectKind") is not None


def test_printed_ir_shows_tile_ops():
    text = gemm().script()
    assert "T.tl.copy" in text and "T.tl.gemm" in text


@T.prim_func
def with_gpu_hints(
    A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")
):
    with T.Kernel(1, 1, threads=256) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        B_s = T.alloc_shared((64, 64), "bfloat16")
        C_f = T.alloc_fragment((64, 64), "float")
        T.annotate_layout({A_s: None, B_s: None})
        T.use_swizzle(panel_size=10, enable=True)
        T.fill(C_f, 0)
        T.copy(A[0:64, 0:64], A_s)
        T.copy(B[0, 0], B_s)
        T.gemm(A_s, B_s, C_f, policy=None, k_pack=2)
        T.copy(C_f, C[0, 0])


def test_gpu_only_hints_are_accepted_and_ignored():
    from tilelang_tt import compile

    assert "matmul_block" in compile(with_gpu_hints).get_kernel_source("compute.cpp")


COPY_PROGRAM = """
import tilelang_tt.language as T


@T.prim_func
def f(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
    with T.Kernel(1, 1) as (bx, by):
        A_s = T.alloc_shared((64, 64), "bfloat16")
        {statement}
        T.copy(A_s, C[0, 0])
"""


@pytest.mark.parametrize(
    "statement, message",
    [
        ("T.cpy(A[0, 0], A_s)", "T.cpy is not part of the TileLang-TT language; did you mean T.copy?"),
        ("T.copy(A[0, 0], A_shared)", "Undefined variable: A_shared"),
        (
            "T.copy(A[0, 0], A_s, 3, 4, 5, 6, 7)",
            "copy() takes from 2 to 6 positional arguments but 7 were given",
        ),
    ],
)
def test_parser_errors_are_located_compile_errors(tmp_path, statement, message):
    path = tmp_path / "program.py"
    path.write_text(COPY_PROGRAM.format(statement=statement))
    spec = importlib.util.spec_from_file_location("program", path)
    with pytest.raises(TTCompileError) as err:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert err.value.message == message
    assert (err.value.filename, err.value.lineno) == (str(path), 9)
    assert "tvm" not in str(err.value) and statement in str(err.value)


def test_private_prim_func_and_closure_variables_parse():
    size = 64

    @T.prim_func(private=True)
    def copy_tile(A: T.Tensor((size, size), "bfloat16"), C: T.Tensor((size, size), "bfloat16")):
        with T.Kernel(1, 1) as (bx, by):
            A_s = T.alloc_shared((size, size), "bfloat16")
            T.copy(A[0, 0], A_s)
            T.copy(A_s, C[0, 0])

    assert "global_symbol" not in (copy_tile.attrs or {}) and int(copy_tile.params[0].shape[0]) == size


def test_persistent_loop_in_a_kernel_with_more_than_its_worker_axis_is_a_located_error():
    with pytest.raises(TTCompileError, match="T.Persistent is supported as the one loop of a kernel") as err:

        @T.prim_func
        def two_axes(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
            with T.Kernel(8, 2) as (worker, half):
                A_s = T.alloc_shared((32, 32), "bfloat16")
                for bx, by in T.Persistent([2, 2], 8, worker):
                    T.copy(A[bx * 32, by * 32], A_s)
                    T.copy(A_s, C[bx * 32, by * 32])

    assert err.value.filename == __file__, err.value


def test_reshape_of_a_tile_buffer_is_a_located_error():
    with pytest.raises(TTCompileError, match="T.reshape / T.view of a tile buffer is not supported") as err:

        @T.prim_func
        def reshape_shared(A: T.Tensor((1024,), "float32"), B: T.Tensor((32, 32), "float32")):
            with T.Kernel(1) as _:
                A_s = T.alloc_shared((1024,), "float32")
                T.copy(A, A_s)
                T.copy(T.reshape(A_s, [32, 32]), B)

    assert err.value.filename == __file__, err.value


@T.prim_func
def split_and_combine(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(1) as bx:
        a = T.alloc_fragment((64, 64), "float32")
        T.copy(A[0, 0], a)
        T.copy(a, B[0, 0])
    with T.Kernel(1) as bx:
        b = T.alloc_fragment((64, 64), "float32")
        T.copy(B[0, 0], b)
        T.copy(b, A[0, 0])


def test_the_pipeline_lowers_one_kernel_and_says_where_the_second_starts():
    """tilelang_tt.compile makes each T.Kernel block a program (stages.py); run_pipeline takes one."""
    with pytest.raises(TTCompileError, match="launches 2 kernels .* tilelang_tt.compile") as err:
        tilelang_tt.run_pipeline(tvm.IRModule({"main": split_and_combine}))
    # at the first statement of the second kernel
    assert err.value.filename == __file__ and "T.copy(B[0, 0], b)" in str(err.value), err.value


def test_a_statement_between_kernels_is_a_located_error():
    @T.prim_func
    def between(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
        with T.Kernel(1) as bx:
            a = T.alloc_fragment((64, 64), "float32")
            T.copy(A[0, 0], a)
            T.copy(a, B[0, 0])
        T.copy(B, A)
        with T.Kernel(1) as bx:
            b = T.alloc_fragment((64, 64), "float32")
            T.copy(B[0, 0], b)
            T.copy(b, A[0, 0])

    with pytest.raises(TTCompileError, match="may hold only T.alloc_global allocations and T.Kernel") as err:
        tilelang_tt.compile(between)
    assert err.value.filename == __file__ and "T.copy(B, A)" in str(err.value), err.value


@T.prim_func
def round_trip_through_a_parameter(
    A: T.Tensor((64, 64), "float32"), W: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")
):
    with T.Kernel(2) as bx:
        a = T.alloc_fragment((32, 64), "float32")
        T.copy(A[bx * 32, 0], a)
        T.copy(a, W[bx * 32, 0])
        T.copy(W[bx * 32, 0], a)
        T.copy(a, B[bx * 32, 0])


@T.prim_func
def round_trip_through_a_workspace(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32")):
    with T.Kernel(2) as bx:
        W = T.alloc_global((64, 64), "float32")
        a = T.alloc_fragment((32, 64), "float32")
        T.copy(A[bx * 32, 0], a)
        T.copy(a, W[bx * 32, 0])
        T.copy(W[bx * 32, 0], a)
        T.copy(a, B[bx * 32, 0])


@pytest.mark.parametrize("program", [round_trip_through_a_parameter, round_trip_through_a_workspace])
def test_a_kernel_reading_a_global_it_wrote_is_a_located_error(program):
    """The reader and the writer of one program are not ordered; two T.Kernel blocks are."""
    with pytest.raises(
        TTCompileError, match="this T.copy reads W, which the same kernel writes first"
    ) as err:
        tilelang_tt.compile(program)
    assert err.value.filename == __file__ and "T.copy(W[bx * 32, 0], a)" in str(err.value), err.value


@pytest.mark.parametrize("name", ["__exp", "__sin", "__log10"])
def test_fast_math_functions_take_floating_point_values_only(name):
    from tvm import tirx

    function = getattr(T, name)
    assert function.__name__ == name
    with pytest.raises(TypeError, match=rf"T\.{name} only supports floating-point inputs, but got int32"):
        function(tirx.Var("n", "int32"))
    assert str(function(tirx.Var("x", "bfloat16")).ty) == "bfloat16"
