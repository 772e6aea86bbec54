"""tt.plan.json: versioned, schema-validated, carrying the tables host and kernels come from."""

import json

import jsonschema
import pytest
from programs import gemm, lower
from tilelang_tt.codegen.plan import SCHEMA_VERSION, build_plan, render_plan, validator


def test_plan_is_versioned_and_valid():
    plan = json.loads(render_plan(lower(gemm(), "VerifyTTIR")))
    assert plan["schema_version"] == SCHEMA_VERSION and not list(validator().iter_errors(plan))


def test_plan_lists_the_kernels_with_their_schemas():
    plan = build_plan(lower(gemm(), "VerifyTTIR"))
    assert [k["role"] for k in plan["kernels"]] == ["reader", "compute", "writer"]


def test_schema_rejects_too_many_runtime_args():
    plan = build_plan(lower(gemm(), "VerifyTTIR"))
    plan["kernels"][0]["core_runtime_args"][0]["values"] = [0] * 342
    with pytest.raises(jsonschema.ValidationError):
        validator().validate(plan)


def test_schema_rejects_unknown_version():
    plan = build_plan(lower(gemm(), "VerifyTTIR"))
    plan["schema_version"] = 99
    with pytest.raises(jsonschema.ValidationError):
        validator().validate(plan)
