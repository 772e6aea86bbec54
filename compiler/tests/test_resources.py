"""Resource limits that need generated programs: circular-buffer count."""

import importlib.util
import textwrap

import pytest
import tilelang_tt
from tilelang_tt.errors import TTResourceError


def _many_inputs(tmp_path, n):
    copies = "\n".join(
        f"            S{i} = T.alloc_shared((32, 32), 'bfloat16')\n            T.copy(A[0, 0], S{i})"
        for i in range(n)
    )
    source = (
        textwrap.dedent("""
        import tilelang_tt.language as T

        @T.prim_func
        def many(A: T.Tensor((32, 32), "bfloat16"), C: T.Tensor((32, 32), "bfloat16")):
            with T.Kernel(1, 1) as (bx, by):
        """)
        + copies
        + "\n            for i, j in T.Parallel(32, 32):\n                C[i, j] = "
        + " + ".join(f"S{i}[i, j]" for i in range(n))
        + "\n"
    )
    path = tmp_path / "many.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("many", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.many


def test_too_many_circular_buffers(tmp_path):
    with pytest.raises(TTResourceError, match="needs more than the 32 circular buffers wormhole has") as err:
        tilelang_tt.compile(_many_inputs(tmp_path, 33))
    assert err.value.lineno is not None
