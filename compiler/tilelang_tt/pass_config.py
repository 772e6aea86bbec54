"""``tilelang.PassConfigKey``: the names of TileLang's pass options, so programs that pass
``pass_configs={...}`` to ``tilelang.jit`` / ``tilelang.compile`` compile unchanged.

Every key selects a CUDA/HIP code-generation or TVM-lowering behaviour (TMA, warp specialisation, thread
storage sync, fast math, vectorisation, CSE, ptxas, ...) that has no counterpart in the Tenstorrent
pipeline, so each is accepted and has no effect. Fast math in particular: a GPU's ``__expf`` is within a few
ulp, while the SDK's fast exponential is within 3.2% (examples/flash_attention_bshd.py's output 5.7% of its
largest value off the reference), so TL_ENABLE_FAST_MATH keeps the accurate one and checks keep passing. The
IR dumps TL_ENABLE_DUMP_IR asks for are written by ``compile(..., dump_ir=DIR)`` / ``tools/compile.py
--dump-ir``. A key that is not one of these (a typo) is a TTCompileError, as TVM's PassContext rejects
unknown options upstream. TileLang-TT adds two keys of its own: ``"tl.tt.math_fidelity"``
(``TT_MATH_FIDELITY``): LoFi, HiFi2, HiFi3 or HiFi4 (the default) for the compute kernels' matrix engine;
and ``"tl.tt.approximate_exp"`` (``TT_APPROXIMATE_EXP``): True makes ``T.exp`` and ``T.exp2`` the SDK's fast
approximation (``exp_tile<true>``, within 3.2% of e^x, 19× cheaper than the accurate form on Wormhole; what
Tenstorrent's own attention uses for its softmax).

    kernel = tilelang.compile(func, out_idx=[-1], pass_configs={
        tilelang.PassConfigKey.TL_DISABLE_TMA_LOWER: True,
        "tl.disable_warp_specialized": True,        # the string values work too (a str Enum)
    })
"""

from __future__ import annotations

import difflib
import enum

from .errors import TTCompileError

__all__ = [
    "PassConfigKey",
    "TT_APPROXIMATE_EXP",
    "TT_MATH_FIDELITY",
    "check_pass_configs",
    "with_approximate_exp",
]

TT_MATH_FIDELITY = "tl.tt.math_fidelity"
# Also the PrimFunc attribute that carries the option into the pipeline (ApplyTTDefaults' tt.options).
TT_APPROXIMATE_EXP = "tl.tt.approximate_exp"


class PassConfigKey(str, enum.Enum):
    """TileLang's pass option names and values (tilelang/transform/pass_config.py, v0.1.9 to v0.1.13)."""

    CUDA_KERNELS_OUTPUT_DIR = "cuda.kernels_output_dir"
    TIR_ADD_LOWER_PASS = "tirx.add_lower_pass"
    TIR_DISABLE_CSE = "tirx.disable_cse_tir"
    TIR_DISABLE_STORAGE_REWRITE = "tirx.disable_storage_rewrite"
    TIR_DISABLE_VECTORIZE = "tirx.disable_vectorize"
    TIR_ENABLE_DEBUG = "tirx.enable_debug"
    TIR_ENABLE_EQUIV_TERMS_IN_CSE = "tir.enable_equiv_terms_in_cse_tir"
    TIR_MERGE_STATIC_SMEM = "tirx.merge_static_smem"
    TIR_NOALIAS = "tirx.noalias"
    TIR_SIMPLIFY = "tirx.Simplify"
    TIR_USE_ASYNC_COPY = "tirx.use_async_copy"
    TL_AST_PRINT_ENABLE = "tl.ast_print_enable"
    TL_CONFIG_INDEX_BITWIDTH = "tl.config_index_bitwidth"
    TL_DEBUG_MERGE_SHARED_MEMORY_ALLOCATIONS = "tl.debug_merge_shared_memory_allocations"
    TL_DEVICE_COMPILE_FLAGS = "tl.device_compile_flags"
    TL_DISABLE_BUFFER_INIT_CHECK = "tl.disable_buffer_init_check"
    TL_DISABLE_DATA_RACE_CHECK = "tl.disable_data_race_check"
    TL_DISABLE_LOOP_UNSWITCHING = "tl.disable_loop_unswitching"
    TL_DISABLE_OUT_OF_BOUND_WARNING = "tl.disable_out_of_bound_warning"
    TL_DISABLE_PRELOWER_SEMANTIC_CHECK = "tl.disable_prelower_semantic_check"
    TL_DISABLE_SAFE_MEMORY_ACCESS = "tl.disable_safe_memory_legalize"
    TL_DISABLE_SHARED_MEMORY_REUSE = "tl.disable_shared_memory_reuse"
    TL_DISABLE_SHUFFLE_ELECT = "tl.disable_shuffle_elect"
    TL_DISABLE_THREAD_STORAGE_SYNC = "tl.disable_thread_storage_sync"
    TL_DISABLE_TMA_LOWER = "tl.disable_tma_lower"
    TL_DISABLE_VECTORIZE_256 = "tl.disable_vectorize_256"
    TL_DISABLE_WARP_SPECIALIZED = "tl.disable_warp_specialized"
    TL_DISABLE_WGMMA = "tl.disable_wgmma"
    TL_DUMP_IR_DIR = "tl.dump_ir_path"
    TL_EMIT_LINE_DIRECTIVES = "tl.emit_line_directives"
    TL_ENABLE_AGGRESSIVE_SHARED_MEMORY_MERGE = "tl.enable_aggressive_shared_memory_merge"
    TL_ENABLE_ASYNC_COPY = "tl.enable_async_copy"
    TL_ENABLE_DUMP_IR = "tl.enable_dump_ir"
    TL_ENABLE_FAST_MATH = "tl.enable_fast_math"
    TL_ENABLE_LOWER_LDGSTG = "tl.enable_lower_ldgstg"
    TL_ENABLE_LOWER_LDGSTG_PREDICATED = "tl.enable_lower_ldgstg_predicated"
    TL_ENABLE_PTXAS_VERBOSE_OUTPUT = "tl.enable_ptxas_verbose_output"
    TL_ENABLE_REDUCER_PLAN_VERBOSE = "tl.enable_reducer_plan_verbose"
    TL_ENABLE_VECTORIZE_PLANNER_VERBOSE = "tl.enable_vectorize_planner_verbose"
    TL_FORCE_LET_INLINE = "tl.force_let_inline"
    TL_IF_STMT_BINDING_INLINE_REPLAYABLE_BINDS = "tl.if_stmt_binding_inline_replayable_binds"
    TL_LAYOUT_COST_MODEL = "tl.layout_cost_model"
    TL_LAYOUT_VISUALIZATION_ENABLE = "tl.layout_visualization_enable"
    TL_LAYOUT_VISUALIZATION_FORMATS = "tl.layout_visualization_formats"
    TL_LOOP_UNSWITCHING_ALLOW_NON_TRIVIAL_ELSE = "tl.loop_unswitching_allow_non_trivial_else"
    TL_PASS_PROFILE = "tl.pass_profile"
    TL_PASS_PROFILE_THRESHOLD_MS = "tl.pass_profile_threshold_ms"
    TL_PTXAS_REGISTER_USAGE_LEVEL = "tl.ptxas_register_usage_level"
    TL_REDUCER_FORCE_BASELINE = "tl.reducer_force_baseline"
    TL_SIMPLIFY = "tl.Simplify"
    TL_SIMPLIFY_APPLY_CONSTRAINTS_TO_BOOLEAN_BRANCHES = "apply_constraints_to_boolean_branches"
    TL_SIMPLIFY_CONVERT_BOOLEAN_TO_AND_OF_ORS = "convert_boolean_to_and_of_ors"
    TL_SIMPLIFY_ENABLE_LET_INLINE = "enable_simplify_let_inline"
    TL_SIMPLIFY_PROPAGATE_KNOWNS_TO_PROVE_CONDITIONAL = "propagate_knowns_to_prove_conditional"
    TL_SIMPLIFY_PROPAGATE_KNOWNS_TO_SIMPLIFY_EXPRESSIONS = "propagate_knowns_to_simplify_expressions"
    TL_SIMPLIFY_TRANSITIVELY_PROVE_INEQUALITIES = "transitively_prove_inequalities"
    TL_STORAGE_REWRITE_DETECT_INPLACE = "tl.storage_rewrite_detect_inplace"


def check_pass_configs(pass_configs: dict | None) -> dict[str, object]:
    """``pass_configs`` with its keys as plain option strings; an unknown key is a TTCompileError."""
    checked: dict[str, object] = {}
    known = {key.value for key in PassConfigKey} | {TT_MATH_FIDELITY, TT_APPROXIMATE_EXP}
    for key, value in (pass_configs or {}).items():
        name = key.value if isinstance(key, PassConfigKey) else key
        if name not in known:
            close = difflib.get_close_matches(str(name), sorted(known), n=2)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise TTCompileError(
                f"pass_configs has an unknown key {name!r}: keys are tilelang.PassConfigKey members or "
                f"their string values{hint}"
            )
        if name == TT_APPROXIMATE_EXP and not isinstance(value, bool):
            raise TTCompileError(f"pass_configs[{name!r}] is True or False, got {value!r}")
        checked[name] = value
    return checked


def with_approximate_exp(func, configs: dict[str, object]):
    """``func`` marked (TT_APPROXIMATE_EXP) for the fast exponential when the checked ``configs`` ask for it,
    else as it is."""
    if configs.get(TT_APPROXIMATE_EXP):
        return func.with_attr(TT_APPROXIMATE_EXP, True)
    return func
