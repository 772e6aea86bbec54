"""Every public name of upstream ``tilelang.language`` lowers, is an accepted GPU hint, or is a located
"not supported on Tenstorrent yet" error (``tilelang_tt/surface.py``)."""

import importlib.util

import ml_dtypes
import numpy as np
import pytest
import tilelang_tt
import tilelang_tt.language as T
import tvm.script.tirx as tvmscript
import tvm_ffi
from test_language import COPY_PROGRAM
from tilelang_tt import surface
from tilelang_tt.errors import TTCompileError, TTUnsupportedNameError

UPSTREAM = surface.upstream_names()


def test_every_upstream_name_has_a_standing():
    unknown = [n for n in UPSTREAM if surface.standing(n) is None]
    assert not unknown, (
        f"upstream tilelang.language exports {unknown}, which surface.py does not classify: add each "
        "to the table as lowered, ignored (with why it is safe) or rejected (with why)"
    )


def test_the_table_names_only_upstream_or_tvmscript_names():
    stale = [n for n in surface._TABLE if n not in UPSTREAM and not hasattr(tvmscript, n)]
    assert not stale, f"surface.py lists {stale}, which neither TileLang nor TVMScript exports"


@pytest.mark.parametrize("status", [surface.LOWERED, surface.IGNORED])
def test_lowered_and_ignored_names_are_in_the_language(status):
    missing = []
    for name in (n for n in UPSTREAM if surface.standing(n).status == status):
        try:
            getattr(T, name)
        except AttributeError as err:
            missing.append(f"{name}: {err}")
    assert not missing, f"{status} names that T does not provide: {missing}"


FIRST_STATEMENT_LINE = 9  # of COPY_PROGRAM


def _load(path, statements: list[str]):
    """The function ``f`` of COPY_PROGRAM with ``statements`` in its kernel, written to ``path``."""
    path.write_text(COPY_PROGRAM.format(statement="\n        ".join(statements)))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def test_rejected_names_are_located_errors(tmp_path):
    rejected = [n for n in UPSTREAM if surface.standing(n).status == surface.REJECTED]
    wrong = []
    for i, name in enumerate(rejected):
        path = tmp_path / f"uses_{i}.py"
        try:
            _load(path, [f"T.{name}(A_s)"])
            wrong.append(f"T.{name} parsed")
        except TTCompileError as err:
            expected = f"T.{name} is not supported on Tenstorrent yet: {surface.standing(name).reason}"
            if err.message != expected or (err.filename, err.lineno) != (str(path), FIRST_STATEMENT_LINE):
                wrong.append(f"T.{name}: {err.filename}:{err.lineno}: {err.message}")
    assert not wrong, f"{len(wrong)} of {len(rejected)} rejected names are not located rejections: {wrong}"


def test_a_rejected_name_in_python_code_is_located_at_its_line(tmp_path):
    name = next(n for n in UPSTREAM if surface.standing(n).status == surface.REJECTED)
    path = tmp_path / "defaults.py"
    path.write_text(f"import tilelang_tt.language as T\n\n\ndef kernel(dtype=T.{name}):\n    pass\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    with pytest.raises(TTUnsupportedNameError) as caught:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert (caught.value.filename, caught.value.lineno) == (str(path), 4), str(caught.value)
    assert (
        caught.value.message
        == f"T.{name} is not supported on Tenstorrent yet: {surface.standing(name).reason}"
    )
    assert not hasattr(T, name), "a rejected name must stay a missing attribute (an AttributeError)"


def test_ignored_hints_change_nothing(tmp_path):
    hints = [f"T.{n}()" for n in UPSTREAM if surface.standing(n).status == surface.IGNORED]
    kernel = tilelang_tt.compile(_load(tmp_path / "hints.py", [*hints, "T.copy(A[0, 0], A_s)"]), out_idx=[1])
    a = np.random.default_rng(0).standard_normal((64, 64)).astype(ml_dtypes.bfloat16)
    assert np.array_equal(kernel(a), a), "a program with every ignored hint does not copy its input"


def test_fast_math_spellings_are_the_sfpu_functions():
    from tvm import tirx

    x = tirx.Var("x", "float32")
    for name in ("__exp", "__log2", "__sin"):
        made = getattr(T, name)(x)
        assert tvm_ffi.structural_equal(made, getattr(tvmscript, name[2:])(x)), (name, made)
