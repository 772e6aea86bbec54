"""Codegen: the five artifacts of a lowered program.

emit_artifacts(mod) → {"reader.cpp", "compute.cpp", "writer.cpp", "main.cpp", "tt.plan.json"} → text
"""

from __future__ import annotations

import json

import tvm

from .formatting import format_sources
from .host import render_host
from .kernel import render_kernel
from .plan import KERNEL_FILES, build_plan, kernels_by_role

ARTIFACT_NAMES = ("reader.cpp", "compute.cpp", "writer.cpp", "main.cpp", "tt.plan.json")

__all__ = ["emit_artifacts", "ARTIFACT_NAMES"]


def emit_artifacts(mod: tvm.IRModule) -> dict[str, str]:
    plan = build_plan(mod)
    sources = {KERNEL_FILES[role]: render_kernel(func) for role, func in kernels_by_role(mod).items()}
    sources["main.cpp"], plan["host_sizes"] = render_host(plan)
    artifacts = format_sources(sources)
    artifacts["tt.plan.json"] = json.dumps(plan, indent=2) + "\n"
    return {name: artifacts[name] for name in ARTIFACT_NAMES}
