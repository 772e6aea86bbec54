"""tt.plan.json: the runtime plan of one program, built from the lowered module's tables. The host program
is rendered from this same plan. ``plan.schema.json`` (kept next to this file) describes it; tests
validate the plans of every kind of program, and a compile validates its own plan only when
``TILELANG_TT_CHECK_PLAN=1`` (``config.check_plan``), so that a normal compile does not pay for it.

Schema version 2: work is described by ranges, never one entry per output block — ``core_work`` gives
each core's ``start`` and ``count`` (explicit ``blocks`` only for the ``list`` encoding) and
``work_partition`` is {len_k, tile_order} for the whole grid.
Schema version 3: each entry is the ``asdict`` of the typed record the passes attach (records.py), with the
same field names; a core range is {x0, y0, x1, y1}, a grid axis {tag, blocks}; unset optional fields are
left out."""

from __future__ import annotations

import functools
import json
import os

import jsonschema
import tvm

from .. import config
from ..errors import TTCompileError
from ..ir_utils import get_attr
from ..records import asdict

SCHEMA_VERSION = 3
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


def _plain(value):
    """A function attribute as JSON-ready Python: records → dicts without their unset (None) fields."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return _plain(asdict(value))


def _attr(func, key: str, default=None):
    return _plain(get_attr(func, key, default))


def build_plan(mod: tvm.IRModule) -> dict:
    kernels = kernels_by_role(mod)
    compute = kernels["compute"]
    locs = [e.loc for e in get_attr(compute, "tt.cb_table") if e.loc]
    plan = {
        "schema_version": SCHEMA_VERSION,
        "program": _attr(compute, "tt.program"),
        "source": os.path.basename(locs[0].rsplit(":", 2)[0]) if locs else "",
        "target": _attr(compute, "tt.target"),
        "options": _attr(compute, "tt.options"),
        "grid": _attr(compute, "tt.grid"),
        "core_ranges": _attr(compute, "tt.core_ranges"),
        "work_encoding": _attr(compute, "tt.work_encoding"),
        "lockstep_grid": _attr(compute, "tt.lockstep_grid"),
        "core_work": _attr(compute, "tt.core_work"),
        "work_partition": _attr(compute, "tt.work_partition"),
        "layouts": _attr(compute, "tt.layout_desc"),
        "tensors": _attr(compute, "tt.tensor_accessors"),
        "circular_buffers": _attr(compute, "tt.cb_table"),
        "accumulators": _attr(compute, "tt.accumulators"),
        "tile_dfg": _attr(compute, "tt.tile_dfg"),
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
                {"offset": a.ct_offset, "kind": "tensor_accessor", "tensor": a.tensor}
                for a in get_attr(func, "tt.accessor_args", [])
            ],
            "runtime_args": _attr(func, "tt.runtime_args"),
            "core_runtime_args": _attr(func, "tt.core_runtime_args"),
        }
        if role == "compute":
            entry["compute_config"] = _attr(func, "tt.compute_config")
        if role == "reader":
            entry["multicast"] = _attr(func, "tt.multicast", [])
        plan["kernels"].append(entry)
    if config.check_plan():
        validator().validate(plan)
    return plan


def render_plan(mod: tvm.IRModule) -> str:
    return json.dumps(build_plan(mod), indent=2, sort_keys=False) + "\n"
