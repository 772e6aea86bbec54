"""The pipeline entry points: build_tt_pipeline, run_pipeline, validate_module_for_tt, emit_tt_artifacts."""

import json

import tvm
from programs import gemm
from tilelang_tt.codegen import ARTIFACT_NAMES
from tilelang_tt.pipeline import (
    build_tt_pipeline,
    emit_tt_artifacts,
    pass_names,
    run_pipeline,
    validate_module_for_tt,
)


def _mod():
    return tvm.IRModule({"gemm": gemm()})


def test_passes_in_design_order():
    assert pass_names() == [
        "InlineRegionIndicesTT", "ResolveTensorViewsTT", "StageIndexTablesTT", "SerializeSplitKTT",
        "SelectElementBranchesTT",
        "KeepNamedValuesTT",
        "CoarsenSubTileRowsTT", "VectorizeThreadsTT", "VectorizeElementLoopsTT",
        "LegalizeVectorsTT", "StageElementGlobalsTT",
        "ApplyTTDefaults", "ReblockGemmForCoresTT", "InferTTLayout", "PropagateTTLayout",
        "AttachTensorAccessorTT",
        "CheckTileBoundsTT", "LayoutAwareWorkPartitionTT", "GridToCoreGrid", "LowerTileProgramTT",
        "LowerSharedToCB",
        "LowerTTTileIntrinsics",
        "BuildTileDFGTT", "SplitDeviceKernel", "ConfigureTensorAccessorTT", "LowerCBIntrinsics",
        "InsertComputeInitTT", "InsertDSTManagementTT", "ScheduleTileComputeTT",
        "FinalizePersistentSignatureTT", "VerifyTTIR",
    ]  # fmt: skip


def test_build_tt_pipeline_is_a_sequential():
    assert isinstance(build_tt_pipeline(), tvm.transform.Sequential)


def test_plan_path_writes_the_plan(tmp_path):
    path = tmp_path / "tt.plan.json"
    build_tt_pipeline(target_device="blackhole", plan_path=str(path))(_mod())
    assert json.loads(path.read_text())["target"]["name"] == "blackhole"


def test_run_pipeline_writes_the_plan_too(tmp_path):
    run_pipeline(_mod(), plan_path=str(tmp_path / "plan.json"))
    assert (tmp_path / "plan.json").exists()


def test_dump_ir_after_every_pass(tmp_path):
    run_pipeline(_mod(), dump_ir=str(tmp_path))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 31 and names[0] == "01_InlineRegionIndicesTT.py" and names[-1] == "31_VerifyTTIR.py"


def test_timings_are_reported():
    timings = []
    run_pipeline(_mod(), timings=timings)
    assert [n for n, _ in timings] == pass_names()


def test_validate_module_for_tt():
    mod = run_pipeline(_mod())
    assert validate_module_for_tt(mod) == []
    del mod["gemm_reader"]
    assert validate_module_for_tt(mod) == ["internal error after SplitDeviceKernel: gemm lacks reader"]


def test_emit_tt_artifacts():
    assert tuple(emit_tt_artifacts(run_pipeline(_mod()))) == ARTIFACT_NAMES
