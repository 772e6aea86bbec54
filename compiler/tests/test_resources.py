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
        + "\n            T.copy(S0, C[0, 0])\n"
    )
    path = tmp_path / "many.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("many", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.many


def test_too_many_circular_buffers(tmp_path):
    with pytest.raises(
        TTResourceError, match="needs more input circular buffers than wormhole provides"
    ) as err:
        tilelang_tt.compile(_many_inputs(tmp_path, 17))
    assert err.value.lineno is not None
