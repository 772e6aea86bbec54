"""The generated host programs link against the released TT-Metalium library: every example's main.cpp,
compiled to an object against metal_shim's headers, leaves undefined only tt:: / ttsl:: symbols that the
pinned ttnn wheel's libtt_metal.so exports under the same mangled name (so the shim declares the SDK's
signatures, not look-alikes that would only compile).

The object is compiled as build_host_program compiles it: C++20, the language of the SDK's host API (its
signatures take std::span)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from runtime_mock import host_program
from tools import compile as compile_cli

SDK_PYTHON = Path(os.environ["SDK_PYTHON"]).absolute()
EXAMPLES = sorted(Path("examples").glob("*.py"))  # //examples:programs
INCLUDE_DIRS = [Path("metal_shim/include"), Path("runtime_mock/include")]  # //metal_shim:headers

# The shim's own out-of-line helpers, which the SDK's library does not have: each stands for code that is
# inline or a template in the SDK's headers, or that the SDK reaches through a virtual call.
SHIM_NAMESPACES = [
    # TT_FATAL / TT_THROW: the SDK's are header templates (tt::assert::detail::tt_throw_impl); the shim's
    # build their message inline and throw it from one out-of-line function.
    "tt::assert",
    # convert_layout / tilize / untilize: the SDK exports explicit instantiations of its global templates;
    # the shim's inline templates share one out-of-line conversion per element type.
    "tt::tilize_detail",
    # The Enqueue*Buffer / ReadShard / WriteShard templates: the SDK's call the command queue's virtual
    # methods; the shim's copy through the buffer. Also the shim's C++17 entry points for calls whose SDK
    # signature needs C++20 (std::span), unused here.
    "tt::tt_metal::host_detail",
    "tt::tt_metal::distributed::host_detail",
]


def mangled_prefix(namespace: str) -> str:
    """The Itanium mangling of a name's start in `namespace` (a function or object; not a special name)."""
    return "_ZN" + "".join(f"{len(part)}{part}" for part in namespace.split("::"))


# Names in tt:: or ttsl:: (functions, const member functions, vtables, typeinfo and its name).
SDK_NAME = re.compile(r"^_Z(?:T[VIS])?N[KVRO]*(?:2tt|4ttsl)\d")
SHIM_PREFIXES = tuple(mangled_prefix(ns) for ns in SHIM_NAMESPACES)


def libtt_metal() -> Path:
    """libtt_metal.so of the ttnn wheel in @sdk_venv (located without importing ttnn)."""
    where = subprocess.run(
        [
            SDK_PYTHON,
            "-c",
            "import importlib.util; print(importlib.util.find_spec('ttnn').submodule_search_locations[0])",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(where.stdout.strip()) / "build" / "lib" / "libtt_metal.so"


def demangle(names: list[str]) -> list[str]:
    return subprocess.run(
        ["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True
    ).stdout.split("\n")[: len(names)]


# A global function template's instantiation (convert_layout<bfloat16>(...)): its name, then its arguments.
GLOBAL_TEMPLATE = re.compile(r"^_Z(\d+)")


def global_template_name(symbol: str) -> str | None:
    """``convert_layout`` for ``_Z14convert_layoutI...``, None for any other kind of name."""
    match = GLOBAL_TEMPLATE.match(symbol)
    if match is None:
        return None
    start = match.end()
    name = symbol[start : start + int(match.group(1))]
    return name if symbol[start + len(name) : start + len(name) + 1] == "I" else None


def sdk_symbols(main_cpp: Path, obj: Path) -> tuple[set[str], set[str]]:
    """main_cpp's object: the mangled tt:: / ttsl:: names it needs from the library (shim helpers
    excepted), and the global function template instantiations it defines itself (weak)."""
    includes = [f"-I{d.absolute()}" for d in INCLUDE_DIRS]
    # build_host_program's own flags, so its precompiled header applies (a third of the time).
    compiled = subprocess.run(
        ["g++", *host_program.code_flags(), "-c", str(main_cpp), "-o", str(obj), *includes],
        capture_output=True,
        text=True,
    )
    assert compiled.returncode == 0, f"{main_cpp} does not compile against metal_shim:\n{compiled.stderr}"
    listing = subprocess.run(["nm", "--format=posix", str(obj)], capture_output=True, text=True, check=True)
    symbols = [line.split()[:2] for line in listing.stdout.splitlines() if line.strip()]
    needed = {
        n for n, kind in symbols if kind == "U" and SDK_NAME.match(n) and not n.startswith(SHIM_PREFIXES)
    }
    instantiated = {n for n, kind in symbols if kind == "W" and global_template_name(n)}
    return needed, instantiated


@pytest.fixture(scope="module")
def objects(tmp_path_factory) -> dict[str, tuple[set[str], set[str]]]:
    """Example name -> (the SDK symbols its host programs need, the global template instantiations they
    define) (Wormhole; the host API is the same for Blackhole). The compiles share one import of the
    compiler, and the C++ compiles run in parallel."""
    root = tmp_path_factory.mktemp("generated")
    programs: list[tuple[str, Path]] = []
    for example in EXAMPLES:
        folder = root / example.stem
        output = io.StringIO()
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = compile_cli.main([str(example.resolve()), "--target", "wormhole", "--out", str(folder)])
        assert status == 0, f"compiling {example}:\n{output.getvalue()}"
        programs += [(example.stem, main) for main in sorted(folder.glob("**/main.cpp"))]
    assert programs, "no example produced a main.cpp"
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        found = pool.map(lambda p: (p[0], sdk_symbols(p[1], p[1].with_suffix(".o"))), programs)
        result: dict[str, tuple[set[str], set[str]]] = {}
        for example, (needs, defines) in found:
            entry = result.setdefault(example, (set(), set()))
            entry[0].update(needs)
            entry[1].update(defines)
    return result


@pytest.fixture(scope="module")
def needed(objects) -> dict[str, set[str]]:
    return {example: needs for example, (needs, _) in objects.items()}


@pytest.fixture(scope="module")
def exported() -> set[str]:
    library = libtt_metal()
    listing = subprocess.run(
        ["nm", "-D", "--defined-only", "--format=just-symbols", str(library)],
        capture_output=True,
        text=True,
        check=True,
    )
    names = set(listing.stdout.split())
    assert len(names) > 10_000, f"{library} exports only {len(names)} symbols; is it the SDK's library?"
    return names


def test_examples_need_sdk_symbols(needed):
    """The check has something to check: every example's host program calls the SDK's host API."""
    assert [e.stem for e in EXAMPLES] == sorted(needed)
    for example, names in needed.items():
        assert names, f"{example}'s host program needs no tt:: symbol; is the filter right?"


def test_every_needed_symbol_is_exported_by_libtt_metal(needed, exported):
    missing: dict[str, list[str]] = {}
    for example, names in sorted(needed.items()):
        for name in names - exported:
            missing.setdefault(name, []).append(example)
    readable = dict(zip(missing, demangle(list(missing)), strict=True))
    lines = [
        f"  {readable[name]}\n      needed by {', '.join(examples)}"
        for name, examples in sorted(missing.items())
    ]
    assert not missing, (
        f"{len(missing)} host API symbol(s) that the generated programs need are not exported by the "
        "released libtt_metal.so (ttnn "
        + Path("SDK_RELEASE").read_text().strip()
        + "):\n"
        + "\n".join(lines)
        + "\nDeclare them in metal_shim/include with the SDK's exact signature (`nm -DC --defined-only "
        "libtt_metal.so` lists them), or, for a shim-only helper, move it into one of SHIM_NAMESPACES."
    )


def test_sdk_templates_are_instantiated_with_the_sdk_signature(objects, exported):
    """A global template the SDK exports instantiations of (convert_layout, tilize_nfaces...) is inline in
    the shim, so the object defines it instead of needing it; its mangled name must still be one the
    library exports, or the call would not compile against the release (0.81's convert_layout takes a
    std::span, not a tt::stl::Span)."""
    sdk_templates = {name for symbol in exported if (name := global_template_name(symbol))}
    checked: dict[str, list[str]] = {}
    for example, (_, defines) in sorted(objects.items()):
        for symbol in defines:
            if global_template_name(symbol) in sdk_templates:
                checked.setdefault(symbol, []).append(example)
    assert any(global_template_name(s) == "convert_layout" for s in checked), (
        f"no example's host program instantiates convert_layout; checked {sorted(demangle(list(checked)))}"
    )
    wrong = [name for name in checked if name not in exported]
    readable = dict(zip(wrong, demangle(wrong), strict=True))
    assert not wrong, (
        "instantiations whose signature the released libtt_metal.so does not have:\n"
        + "\n".join(f"  {readable[name]}\n      in {', '.join(checked[name])}" for name in wrong)
    )
