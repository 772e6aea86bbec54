"""Programs of upstream TileLang, exported as TVMScript by upstream's own tilelang 0.1.15
(tools/upstream_export.py on programs.py), compiled by TileLang-TT and run on the mock device against
numpy; and the errors an exported program the bridge cannot take gets, at its line."""

from pathlib import Path

import numpy as np
import pytest
import tilelang_tt
from tilelang_tt import upstream_import
from tilelang_tt.errors import TTCompileError

HERE = Path(__file__).parent

REFERENCES = {
    "gemm": lambda A, B: A.astype(np.float32) @ B.astype(np.float32),
    "add": lambda A, B: np.maximum(A + B * 2, 0),
    "rowsum": lambda A: A.sum(axis=1) + A.max(axis=1),
}


@pytest.mark.parametrize(
    "name, target",
    [("gemm", "wormhole"), ("add", "wormhole"), ("rowsum", "blackhole")],
)
def test_an_exported_upstream_program_runs_and_matches_numpy(name, target):
    kernel = upstream_import.compile_file(HERE / f"{name}.tvmscript", out_idx=[-1], target=target)
    result = tilelang_tt.check_against_reference(kernel, REFERENCES[name])
    assert result.passed, f"{name}.tvmscript on {target}: {result}"


def _edited(tmp_path: Path, old: str, new: str) -> Path:
    text = (HERE / "add.tvmscript").read_text()
    assert old in text, f"add.tvmscript no longer holds {old!r}: regenerate the test's edit"
    path = tmp_path / "edited.tvmscript"
    path.write_text(text.replace(old, new, 1))
    return path


def test_a_program_reading_the_thread_index_is_an_error(tmp_path):
    path = _edited(tmp_path, "B_s[i, j] * T.float32(2.0)", 'B_s[i, j] * T.Cast("float32", tx)')
    with pytest.raises(
        TTCompileError, match=r"edited.tvmscript:11:13: error: the program reads the thread index tx"
    ):
        upstream_import.parse_file(path)


def test_a_strided_parameter_is_an_error_at_its_line(tmp_path):
    path = _edited(tmp_path, "strides=(128, 1)", "strides=(256, 1)")
    with pytest.raises(TTCompileError, match=r"edited.tvmscript:5:\d+: .*strides \[256, 1\] \(not compact\)"):
        upstream_import.parse_file(path)


def test_a_form_we_do_not_take_is_named_at_its_line(tmp_path):
    path = _edited(tmp_path, "T.copy(T.region(A[", "T.tma_copy(T.region(A[")
    with pytest.raises(TTCompileError, match=r"edited.tvmscript:\d+:\d+: .*T\.tma_copy"):
        upstream_import.parse_file(path)
