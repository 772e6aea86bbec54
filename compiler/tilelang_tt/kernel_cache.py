"""The kernel cache: a ``@tilelang.jit`` factory's compiled kernels on disk, keyed by what produced them, so
that a later process gets each kernel without importing TVM or running the compiler (Triton and TileLang
key their caches the same way: by the program's source and its arguments).

    key = entry_key(factory_function, arguments, settings)   # None: this call is not cached on disk
    kernel = load(key, rebuild)                             # a JITKernel from <cache>/programs/jit/, or None
    store(key, kernel)

A key hashes:
- the compiler itself: every file of the tilelang_tt package and the chips' data files (runtime_mock/arch),
  so a changed compiler never reuses an old kernel;
- the text of the file that defines the factory, of every file defining a Python function the factory
  names as a global (followed through those functions too), and of the program's own modules they name
  (``import helpers; helpers.block_size()``; not installed packages); the values those functions close
  over or name as globals;
- the factory's qualified name, its bound call arguments and the settings given to ``tilelang.jit``.
Only calls whose arguments, settings and those values are plain (numbers, strings, None, dtypes, and
tuples, lists and dicts of them) are stored: their text says all there is to say of them. What a key cannot
see is data the factory reads from elsewhere (a file, an environment variable, a module a helper module
imports, a callable object): pass it as an argument instead. ``TILELANG_TT_KERNEL_CACHE=0`` turns
the cache off.

An entry is one JSON file (the kernel's name, options and artifacts); one that does not parse or does
not fit is ignored and written again. Host objects and built kernels are cached by the device as before
(``jit.py``), so a kernel from here runs without building anything either.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib.util
import inspect
import json
import site
import sys
import types
from collections.abc import Callable
from pathlib import Path

from . import config
from .code_names import names_used

__all__ = ["entry_key", "load", "store"]

_FORMAT = 1  # bump when an entry's layout changes


@functools.lru_cache(maxsize=1)
def compiler_digest() -> str:
    """Digest of the compiler's files and the chips' data files, taken once per process."""
    digest = hashlib.sha256()
    package = Path(__file__).parent
    files = sorted(p for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    spec = importlib.util.find_spec("runtime_mock")
    if spec is not None and spec.origin is not None:
        files += sorted((Path(spec.origin).parent / "arch").glob("*.json"))
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _plain(value) -> str | None:
    """A canonical text of ``value`` when it is a plain value (see the module docstring), else None."""
    if value is None or type(value) in (bool, int, float, str):
        return repr(value)
    if isinstance(value, str):  # a dtype object that is a string (TVM's DataType, T.dtype)
        return f"{type(value).__name__}({str(value)!r})"
    if hasattr(value, "_dtype_str"):  # TVMScript's T.float16 and friends
        return f"dtype({value._dtype_str!r})"
    if isinstance(value, tuple | list):
        parts = [_plain(v) for v in value]
        return None if None in parts else f"{type(value).__name__}({', '.join(parts)})"
    if isinstance(value, dict):
        items = [(_plain(k), _plain(v)) for k, v in value.items()]
        if any(k is None or v is None for k, v in items):
            return None
        return "dict(" + ", ".join(f"{k}: {v}" for k, v in sorted(items)) + ")"
    if isinstance(value, type) and value in (int, float, bool):
        return value.__name__
    return None


@functools.lru_cache(maxsize=1)
def _installed_roots() -> tuple[str, ...]:
    """Where installed code lives (the interpreter's library, site-packages, this package): modules there
    are not the program's own."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(__file__).parent.parent)}
    roots.update(site.getsitepackages() + [site.getusersitepackages()])
    return tuple(str(Path(r).resolve()) for r in roots)


def _program_file(module: types.ModuleType) -> list[str]:
    """The source file of a module of the program's own (not the library or installed packages; this
    package is covered by compiler_digest), else nothing."""
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py"):
        return []
    return [] if str(Path(path).resolve()).startswith(_installed_roots()) else [path]


def _dependencies(func, seen: set, files: list[str], values: list[str]) -> bool:
    """Adds to ``files`` the file defining ``func`` and, following the Python functions it names as
    globals, theirs; to ``values`` the text of every value it closes over or names as a global (numbers,
    strings...: a global computed at run time is not in the file's text). False when one of them is not a
    plain value, which no key could describe."""
    func = inspect.unwrap(func)
    code = getattr(func, "__code__", None)
    if code is None or code in seen:
        return True
    seen.add(code)
    files.append(code.co_filename)
    for cell_name, cell in zip(code.co_freevars, func.__closure__ or (), strict=True):
        text = _plain(cell.cell_contents)
        if text is None:
            return False
        values.append(f"{func.__qualname__}.{cell_name}={text}")
    for name in sorted(set(names_used(code))):
        if name not in func.__globals__:
            continue  # a builtin, or an attribute name (T.alloc_shared)
        value = func.__globals__[name]
        if isinstance(value, types.FunctionType):
            if not _dependencies(value, seen, files, values):
                return False
        elif isinstance(value, types.ModuleType):
            files.extend(_program_file(value))  # helpers.block_size(): the helper module's text
        elif not isinstance(value, type) and not callable(value):
            text = _plain(value)
            if text is None:
                return False
            values.append(f"{name}={text}")
    return True


def entry_key(func, arguments: dict, settings: dict) -> str | None:
    """The key of one factory call, or None when it is not to be cached on disk (cache off, arguments or
    settings that are not plain values, a source file that cannot be read)."""
    if not config.kernel_cache_enabled():
        return None
    given_arguments, given_settings = _plain(dict(arguments)), _plain(dict(settings))
    if given_arguments is None or given_settings is None:
        return None
    files, values = [], []
    if not _dependencies(func, set(), files, values):
        return None
    digest = hashlib.sha256(f"{_FORMAT}\0{compiler_digest()}\0{values}\0".encode())
    for path in sorted(set(files)):
        try:
            digest.update(path.encode() + b"\0" + Path(path).read_bytes())
        except OSError:
            return None  # a function typed at a prompt: nothing on disk says what it was
    digest.update(f"{func.__module__}.{func.__qualname__}\0{given_arguments}\0{given_settings}".encode())
    return digest.hexdigest()[:32]


def _path(key: str) -> Path:
    return Path(config.cache_dir()) / "jit" / f"{key}.json"


def read_entry(path: Path) -> dict | None:
    """A cache entry's JSON object; None when it is missing or does not parse."""
    try:
        entry = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) else None


def write_entry(path: Path, entry: dict) -> None:
    """Writes a cache entry atomically; a cache that cannot be written is left alone (the entry is only
    made again by the next process)."""
    config.ensure_device_env()  # before runtime_mock's first import, which reads it (jit._device)
    try:
        from runtime_mock import cache_entry

        path.parent.mkdir(parents=True, exist_ok=True)
        cache_entry.write_atomically(path, json.dumps(entry).encode())
    except (ImportError, OSError):
        pass


def load(key: str | None, rebuild: Callable):
    """The JITKernel stored under ``key``; None when there is none or the entry does not fit.
    ``rebuild`` gives the kernel's PrimFunc if it is asked for (``JITKernel.func``)."""
    return None if key is None else from_portable(read_entry(_path(key)), rebuild)


def store(key: str | None, kernel) -> None:
    """Stores ``kernel`` (a JITKernel; a StagedKernel is compiled each time) under ``key``."""
    entry = portable(kernel)
    if key is not None and entry is not None:
        write_entry(_path(key), entry)


def portable(kernel) -> dict | None:
    """A JITKernel as plain data (its name, options and artifacts): what the kernel cache stores and a
    worker process sends back (parallel_compile.py); None for any other kernel (a StagedKernel)."""
    from .jit import JITKernel

    if type(kernel) is not JITKernel:
        return None
    return {
        "format": _FORMAT,
        "name": kernel.name,
        "options": dataclasses.asdict(kernel.options),
        "artifacts": kernel.artifacts,
    }


def from_portable(entry: dict | None, rebuild: Callable):
    """The JITKernel ``portable`` described, without compiling it again; None when ``entry`` is None or
    does not fit this compiler. ``rebuild`` gives its PrimFunc if asked for."""
    if entry is None or entry.get("format") != _FORMAT:
        return None
    from .jit import JITKernel
    from .options import CompileOptions

    try:
        options = CompileOptions(**{**entry["options"], "out_idx": tuple(entry["options"]["out_idx"])})
        return JITKernel.from_artifacts(entry["name"], options, entry["artifacts"], rebuild)
    except (ValueError, KeyError, TypeError):
        return None
