"""py_wheel_dir: packs Python libraries, with their data and extensions, into an installable wheel.

    py_wheel_dir(
        name = "wheel",
        distribution = "tilelang_tt",
        libraries = ["//compiler:tilelang_tt", "//runtime_mock:runtime_mock"],
        install_paths = {"compiler/tilelang_tt": "tilelang_tt", ...},
        ...
    )

The wheel holds every file of the libraries' runfiles (sources, data files, compiled extensions), each
at the path `install_paths` gives its longest matching workspace-path prefix; a file no prefix matches
fails the build, so nothing is dropped silently. The wheel's name carries the version and the tag of the
interpreter and platform that build it, which analysis cannot know: the output is a directory holding
the one wheel, `bazel-bin/<package>/<name>/<distribution>-<version>-<tag>.whl`. Bazel 4.2.3 offline
has no rules_python wheel rule; bazel/build_wheel.py writes the zip, METADATA, WHEEL and RECORD.
"""

def _install_path(short_path, install_paths):
    best = None
    for prefix in install_paths:
        if short_path == prefix or short_path.startswith(prefix + "/"):
            if best == None or len(prefix) > len(best):
                best = prefix
    if best == None:
        return None
    return install_paths[best] + short_path[len(best):]

def _py_wheel_dir_impl(ctx):
    files = depset(transitive = [
        depset(transitive = [lib[DefaultInfo].files, lib[DefaultInfo].default_runfiles.files])
        for lib in ctx.attr.libraries
    ])
    manifest_lines = []
    for f in files.to_list():
        if "/__pycache__/" in f.short_path:
            continue  # the build's bytecode for tests (bytecode.bzl); pip compiles its own on install
        destination = _install_path(f.short_path, ctx.attr.install_paths)
        if destination == None:
            fail("%s: %s is in the runfiles of %s but under none of install_paths %s" % (
                ctx.label,
                f.short_path,
                [str(lib.label) for lib in ctx.attr.libraries],
                sorted(ctx.attr.install_paths.keys()),
            ))
        manifest_lines.append("%s\t%s" % (f.path, destination))
    manifest = ctx.actions.declare_file(ctx.label.name + ".files.tsv")
    ctx.actions.write(manifest, "\n".join(sorted(manifest_lines)) + "\n")

    out = ctx.actions.declare_directory(ctx.label.name)
    args = ctx.actions.args()
    args.add("--out-dir", out.path)
    args.add("--distribution", ctx.attr.distribution)
    args.add("--summary", ctx.attr.summary)
    args.add("--module-file", ctx.file.module_file)
    args.add("--lock", ctx.file.lock)
    args.add("--files", manifest)
    args.add_all("--requires", ctx.attr.requires)
    ctx.actions.run(
        executable = ctx.executable._build_wheel,
        arguments = [args],
        inputs = depset(
            [manifest, ctx.file.module_file, ctx.file.lock],
            transitive = [files],
        ),
        outputs = [out],
        mnemonic = "PyWheel",
        progress_message = "Packing the %s wheel" % ctx.attr.distribution,
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

py_wheel_dir = rule(
    implementation = _py_wheel_dir_impl,
    attrs = {
        "distribution": attr.string(mandatory = True, doc = "the wheel's distribution name"),
        "summary": attr.string(mandatory = True, doc = "METADATA Summary: one line"),
        "libraries": attr.label_list(mandatory = True, doc = "py_library targets packed with their runfiles"),
        "install_paths": attr.string_dict(
            mandatory = True,
            doc = "workspace path prefix -> path inside the wheel (the longest matching prefix wins)",
        ),
        "module_file": attr.label(mandatory = True, allow_single_file = True, doc = "MODULE.bazel: the version"),
        "lock": attr.label(mandatory = True, allow_single_file = True, doc = "requirements.txt: pinned versions"),
        "requires": attr.string_list(doc = "runtime dependencies, pinned to the lock's == versions"),
        "_build_wheel": attr.label(
            default = "//bazel:build_wheel",
            executable = True,
            cfg = "exec",
        ),
    },
    doc = "A directory holding one wheel of the given libraries for the building interpreter and platform.",
)
