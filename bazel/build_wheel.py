"""Writes a wheel (PEP 427) of the given files for the interpreter that runs this script (see wheel.bzl).

In: ``--files`` lines ``SOURCE<TAB>PATH-IN-WHEEL``, the version from ``--module-file`` (MODULE.bazel, read by
``tilelang_tt.version.module_version``), ``--requires`` names pinned to their ``==`` versions in ``--lock``.
Out: ``--out-dir``/``<distribution>-<version>-<tag>.whl``, where the tag is this interpreter's and platform's
(``cp311-cp311-linux_x86_64``; not manylinux: the extension links this machine's libstdc++ and glibc).
The zip is reproducible: sorted entries, fixed timestamps, modes 0755 (executable sources) or 0644.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import sys
import sysconfig
import zipfile

from tilelang_tt.version import module_version

_TIMESTAMP = (1980, 1, 1, 0, 0, 0)  # the earliest a zip can record: the wheel is the same on every build


def wheel_tag() -> str:
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    platform = re.sub(r"[-.]", "_", sysconfig.get_platform())
    return f"{python}-{python}-{platform}"


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_requirements(lock_path: str, names: list[str]) -> list[str]:
    """``name==version`` for each name, with the version the lock file pins."""
    with open(lock_path) as f:
        pins = dict(
            (_normalized(m.group(1)), m.group(2))
            for m in re.finditer(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)", f.read(), re.MULTILINE)
        )
    missing = [n for n in names if _normalized(n) not in pins]
    if missing:
        raise SystemExit(f"build_wheel: {lock_path} pins no version of {', '.join(missing)}")
    return [f"{n}=={pins[_normalized(n)]}" for n in names]


def _metadata(distribution: str, version: str, summary: str, requires: list[str]) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {distribution}",
        f"Version: {version}",
        f"Summary: {summary}",
        f"Requires-Python: =={sys.version_info.major}.{sys.version_info.minor}.*",
        *[f"Requires-Dist: {r}" for r in requires],
    ]
    return "\n".join(lines) + "\n"


def _wheel_file(tag: str) -> str:
    # Root-Is-Purelib false: the wheel carries a compiled extension.
    return f"Wheel-Version: 1.0\nGenerator: bazel/build_wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n"


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _add(archive: zipfile.ZipFile, path: str, data: bytes, mode: int) -> None:
    info = zipfile.ZipInfo(path, date_time=_TIMESTAMP)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def build_wheel(
    out_dir: str,
    distribution: str,
    version: str,
    summary: str,
    requires: list[str],
    files: list[tuple[str, str]],
) -> str:
    """Writes the wheel and returns its path."""
    tag = wheel_tag()
    name = f"{distribution}-{version}-{tag}.whl"
    dist_info = f"{distribution}-{version}.dist-info"
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, name)
    records = []
    with zipfile.ZipFile(path, "w") as archive:
        for source, destination in sorted(files, key=lambda f: f[1]):
            with open(source, "rb") as f:
                data = f.read()
            _add(archive, destination, data, 0o755 if os.access(source, os.X_OK) else 0o644)
            records.append(_record_line(destination, data))
        for meta_name, text in (
            ("METADATA", _metadata(distribution, version, summary, requires)),
            ("WHEEL", _wheel_file(tag)),
        ):
            data = text.encode()
            _add(archive, f"{dist_info}/{meta_name}", data, 0o644)
            records.append(_record_line(f"{dist_info}/{meta_name}", data))
        records.append(f"{dist_info}/RECORD,,")
        _add(archive, f"{dist_info}/RECORD", ("\n".join(records) + "\n").encode(), 0o644)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--distribution", required=True)
    parser.add_argument("--summary", required=True)
    parser.add_argument("--module-file", required=True, help="MODULE.bazel: the version")
    parser.add_argument("--lock", required=True, help="requirements.txt: the pinned versions")
    parser.add_argument("--files", required=True, help="lines SOURCE<TAB>PATH-IN-WHEEL")
    parser.add_argument("--requires", nargs="*", default=[])
    args = parser.parse_args(argv)
    with open(args.files) as f:
        files = [tuple(line.rstrip("\n").split("\t")) for line in f if line.strip()]
    build_wheel(
        args.out_dir,
        args.distribution,
        module_version(args.module_file),
        args.summary,
        pinned_requirements(args.lock, args.requires),
        files,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
