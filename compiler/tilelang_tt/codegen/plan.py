"""tt.plan.json: the runtime plan of one program, built from the lowered module's tables. The host program
is rendered from this same plan. ``plan.schema.json`` (kept next to this file) describes it; tests
validate the plans of every kind of program, and a compile validates its own plan only when
``TILELANG_TT_CHECK_PLAN=1`` (``config.check_plan``), so that a normal compile does not pay for it.

Schema version 2: work is described by ranges, never one entry per output block — ``core_work`` gives
each core's ``start`` and ``count`` (explicit ``blocks`` only for the ``list`` encoding) and
``work_partition`` is {len_k, tile_order} for the whole grid."""

from __future__ import annotations

import functools
import json
import os

import jsonschema
import tvm

from .. import config
from ..errors import TTCompileError
from ..ir_utils import get_attr

SCHEMA_VERSION = 2
SCHEMA_PATH = os.path.join(os.path.dirname(__file__), "plan.schema.json")
KERNEL_FILES = {"reader": "reader.cpp", "compute": "compute.cpp", "writer": "writer.cpp"}
PROCESSORS = {
    "reader": ("RISCV_1", "RISCV_1_default"),
    "writer": ("RISCV_0", "RISCV_0_default"),
    "compute": ("TRISC", ""),
}


@functools.lru_cache(maxsize=1)
def validator() -> jsonschema.Draft202012Validator:
    """The plan schema's validator (the schema itself is checked once per process)."""
    with open(SCHEMA_PATH) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def kernels_by_role(mod: tvm.IRModule) -> dict[str, object]:
    kernels = {get_attr(f, "tt.kernel_role"): f for _, f in mod.functions.items()}
    programs = {get_attr(f, "tt.program") for f in kernels.values()}
    if set(kernels) != set(KERNEL_FILES) or len(programs) != 1:
        raise TTCompileError(
            "emitting artifacts needs a module with exactly one lowered program "
            "(reader, compute and writer kernels); run run_pipeline on one PrimFunc"
        )
    return kernels


def build_plan(mod: tvm.IRModule) -> dict:
    kernels = kernels_by_role(mod)
    compute = kernels["compute"]
    locs = [e["loc"] for e in get_attr(compute, "tt.cb_table") if e.get("loc")]
    plan = {
        "schema_version": SCHEMA_VERSION,
        "program": get_attr(compute, "tt.program"),
        "source": os.path.basename(locs[0].rsplit(":", 2)[0]) if locs else "",
        "target": get_attr(compute, "tt.target"),
        "options": get_attr(compute, "tt.options"),
        "grid": get_attr(compute, "tt.grid"),
        "core_ranges": get_attr(compute, "tt.core_ranges"),
        "work_encoding": get_attr(compute, "tt.work_encoding"),
        "core_work": get_attr(compute, "tt.core_work"),
        "work_partition": get_attr(compute, "tt.work_partition"),
        "layouts": get_attr(compute, "tt.layout_desc"),
        "tensors": get_attr(compute, "tt.tensor_accessors"),
        "circular_buffers": get_attr(compute, "tt.cb_table"),
        "accumulators": get_attr(compute, "tt.accumulators"),
        "tile_dfg": get_attr(compute, "tt.tile_dfg"),
        "kernels": [],
    }
    for role, file in KERNEL_FILES.items():
        func = kernels[role]
        processor, noc = PROCESSORS[role]
        entry = {
            "role": role,
            "file": file,
            "processor": processor,
            "noc": noc,
            "compile_time_args": [
                {"offset": a["ct_offset"], "kind": "tensor_accessor", "tensor": a["tensor"]}
                for a in get_attr(func, "tt.accessor_args", [])
            ],
            "runtime_args": get_attr(func, "tt.runtime_args"),
            "core_runtime_args": get_attr(func, "tt.core_runtime_args"),
        }
        if role == "compute":
            entry["compute_config"] = get_attr(func, "tt.compute_config")
        plan["kernels"].append(entry)
    if config.check_plan():
        validator().validate(plan)
    return plan


def render_plan(mod: tvm.IRModule) -> str:
    return json.dumps(build_plan(mod), indent=2, sort_keys=False) + "\n"
