"""tt_example: an example DSL program whose artifacts are generated at build time and tested.

    load("//compiler:defs.bzl", "tt_example")
    tt_example(name = "gemm", src = "gemm.py")

creates
  :gemm_artifacts  genrule running //tools:generate: gemm/{reader,compute,writer,main}.cpp + gemm/tt.plan.json
  :gemm_host       cc_binary of gemm/main.cpp, compiled with -Wall -Werror against //:metalium
  :gemm_test       runs :gemm_host standalone on random inputs and compares with the file's ref_program
"""

load("//bazel:pytest.bzl", "py_pytest")

ARTIFACTS = ["reader.cpp", "compute.cpp", "writer.cpp", "main.cpp", "tt.plan.json"]

def tt_example(name, src, target = "wormhole", partition = "row_major", size = "medium", **kwargs):
    outs = ["%s/%s" % (name, f) for f in ARTIFACTS]
    native.genrule(
        name = name + "_artifacts",
        srcs = [src],
        outs = outs,
        cmd = ("$(execpath //tools:generate) $(execpath {src}) --target {target} --partition {partition} " +
               "--out $(RULEDIR)/{name} > /dev/null").format(
            src = src,
            target = target,
            partition = partition,
            name = name,
        ),
        tools = ["//tools:generate"],
    )
    native.cc_binary(
        name = name + "_host",
        srcs = [name + "/main.cpp"],
        copts = [
            "-std=c++20",  # as the SDK builds host programs (0.81's API takes std::span)
            "-Wall",
            "-Werror",
        ],
        deps = ["//:metalium"],
    )
    py_pytest(
        name = name + "_test",
        size = size,
        srcs = ["//compiler:tt_example_test.py"],
        data = [
            src,
            ":%s_host" % name,
            "//metal_shim:headers",
        ] + outs,
        env = {
            # Poisoned fresh L1 (NaN where nothing wrote): an example that reads never-written L1 fails.
            "RUNTIME_MOCK_L1_FILL": "poison",
            "TT_EXAMPLE_SRC": "$(rootpath %s)" % src,
            "TT_EXAMPLE_HOST": "$(rootpath :%s_host)" % name,
            "TT_EXAMPLE_PLAN": "$(rootpath %s/tt.plan.json)" % name,
        },
        deps = ["//compiler:tilelang_tt"],
        **kwargs
    )
