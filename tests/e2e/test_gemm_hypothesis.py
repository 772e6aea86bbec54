"""Property test: random shapes, block sizes, dtypes and partitions all match numpy."""

import tilelang_tt
from gemm_check import check
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from programs import gemm


@st.composite
def configs(draw):
    bm, bn, bk = (draw(st.sampled_from([32, 64, 128])) for _ in range(3))
    m, n, k = bm * draw(st.integers(1, 3)), bn * draw(st.integers(1, 3)), bk * draw(st.integers(1, 3))
    return dict(
        M=m,
        N=n,
        K=k,
        bM=bm,
        bN=bn,
        bK=bk,
        dtype=draw(st.sampled_from(["bfloat16", "float16"])),
        trans_b=draw(st.booleans()),
        c_shared=draw(st.booleans()),
    ), draw(st.sampled_from(["row_major", "column_major", "block"]))


@settings(
    max_examples=2,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(configs())
def test_random_gemms_match_numpy(config):
    program, partition = config
    kernel = tilelang_tt.compile(gemm(**program), out_idx=[-1], partition=partition)
    check(kernel, program["trans_b"])
