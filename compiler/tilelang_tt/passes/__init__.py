"""The TileLang-TT pass pipeline, stages A–F, one pass per module (see ``pipeline.py`` for the order)."""

from .apply_tt_defaults import ApplyTTDefaults
from .attach_tensor_accessor_tt import AttachTensorAccessorTT
from .build_tile_dfg_tt import BuildTileDFGTT
from .check_tile_bounds_tt import CheckTileBoundsTT
from .coarsen_sub_tile_rows_tt import CoarsenSubTileRowsTT
from .configure_tensor_accessor_tt import ConfigureTensorAccessorTT
from .finalize_persistent_signature_tt import FinalizePersistentSignatureTT
from .grid_to_core_grid import GridToCoreGrid
from .infer_tt_layout import InferTTLayout
from .inline_region_indices_tt import InlineRegionIndicesTT
from .insert_compute_init_tt import InsertComputeInitTT
from .insert_dst_management_tt import InsertDSTManagementTT
from .keep_named_values_tt import KeepNamedValuesTT
from .layout_aware_work_partition_tt import LayoutAwareWorkPartitionTT
from .legalize_vectors_tt import LegalizeVectorsTT
from .lower_cb_intrinsics import LowerCBIntrinsics
from .lower_shared_to_cb import LowerSharedToCB
from .lower_tile_program_tt import LowerTileProgramTT
from .lower_tt_tile_intrinsics import LowerTTTileIntrinsics
from .propagate_tt_layout import PropagateTTLayout
from .reblock_gemm_for_cores_tt import ReblockGemmForCoresTT
from .resolve_tensor_views_tt import ResolveTensorViewsTT
from .schedule_tile_compute_tt import ScheduleTileComputeTT
from .select_element_branches_tt import SelectElementBranchesTT
from .serialize_split_k_tt import SerializeSplitKTT
from .split_device_kernel import SplitDeviceKernel
from .stage_element_globals_tt import StageElementGlobalsTT
from .stage_index_tables_tt import StageIndexTablesTT
from .vectorize_element_loops_tt import VectorizeElementLoopsTT
from .vectorize_threads_tt import VectorizeThreadsTT
from .verify_tt_ir import VerifyTTIR, verify_module

__all__ = [
    "InlineRegionIndicesTT",
    "ResolveTensorViewsTT",
    "StageIndexTablesTT",
    "SerializeSplitKTT",
    "SelectElementBranchesTT",
    "KeepNamedValuesTT",
    "CoarsenSubTileRowsTT",
    "VectorizeThreadsTT",
    "VectorizeElementLoopsTT",
    "LegalizeVectorsTT",
    "StageElementGlobalsTT",
    "ApplyTTDefaults",
    "ReblockGemmForCoresTT",
    "InferTTLayout",
    "PropagateTTLayout",
    "AttachTensorAccessorTT",
    "CheckTileBoundsTT",
    "LayoutAwareWorkPartitionTT",
    "GridToCoreGrid",
    "LowerTileProgramTT",
    "LowerSharedToCB",
    "LowerTTTileIntrinsics",
    "BuildTileDFGTT",
    "SplitDeviceKernel",
    "ConfigureTensorAccessorTT",
    "LowerCBIntrinsics",
    "InsertComputeInitTT",
    "InsertDSTManagementTT",
    "ScheduleTileComputeTT",
    "FinalizePersistentSignatureTT",
    "VerifyTTIR",
    "verify_module",
]
