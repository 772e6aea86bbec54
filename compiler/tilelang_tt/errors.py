"""The errors TileLang-TT raises, and how they point back at the DSL.

    TTError
     ├── TTCompileError   a program the compiler cannot translate; carries filename/lineno/col and quotes
     │    │               the DSL line with a caret under the offending column
     │    ├── TTResourceError   a translation that does not fit the device (L1 bytes, CB count, DST tiles,
     │    │                     runtime arguments per core)
     │    └── TTUnsupportedNameError   ``T.<name>`` of a TileLang name that does not lower here; also an
     │                          AttributeError
     ├── TTArgumentError  a kernel call's arguments do not fit the kernel (count, shape, dtype, an output
     │                    array that cannot receive the result); also a TypeError and a ValueError
     └── TTRuntimeError   the device failed while running the generated program (wraps
                          runtime_mock.DeviceError, a kernel fault, or a TT_FATAL of the host program)

Locations travel through the IR as "file:line:col" strings (see ``language.py``); ``TTCompileError.at``
turns one into an error with the quoted line.
"""

from __future__ import annotations

import linecache
import os
import re
import sys

__all__ = [
    "TTError",
    "TTCompileError",
    "TTResourceError",
    "TTUnsupportedNameError",
    "TTArgumentError",
    "TTRuntimeError",
    "caller_location",
    "split_loc",
    "dsl_line",
]


class TTError(Exception):
    """Base class of every TileLang-TT error."""


def split_loc(loc: str | None) -> tuple[str | None, int | None, int | None]:
    """ "file:line:col" → (file, line, col); anything unparsable → Nones."""
    if not loc:
        return None, None, None
    parts = str(loc).rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
        return None, None, None
    return parts[0], int(parts[1]), int(parts[2])


def dsl_line(loc: str | None) -> str:
    """The stripped source text at ``loc`` ("" when unknown)."""
    filename, lineno, _ = split_loc(loc)
    if filename is None:
        return ""
    return linecache.getline(filename, lineno).strip()


_DIAGNOSTIC = re.compile(r"error: (?P<msg>[^\n]*)\n\s*--> (?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+)")
_RENDERED = re.compile(r"^(?P<file>[^\n]+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>[^\n]*)")


class TTCompileError(TTError):
    """A DSL program the compiler rejects. ``str(err)`` is ``file:line:col: error: msg`` + line + caret.

    Errors raised inside a pass cross TVM's FFI, which rebuilds them from their text; a rendered message
    is parsed back into filename/lineno/col so nothing is lost."""

    def __init__(
        self, message: str, filename: str | None = None, lineno: int | None = None, col: int | None = None
    ):
        parsed = _RENDERED.match(message) if filename is None else None
        if parsed:
            message, filename = parsed["msg"], parsed["file"]
            lineno, col = int(parsed["line"]), int(parsed["col"]) - 1
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        super().__init__(self._render())

    @classmethod
    def from_diagnostic(cls, text: str) -> TTCompileError:
        """The TVMScript parser's rendered diagnostic ("error: msg" + " --> file:line:col" + source)."""
        parsed = _DIAGNOSTIC.search(text)
        if parsed is None:
            return cls(text.strip())
        return cls(parsed["msg"], parsed["file"], int(parsed["line"]), int(parsed["col"]) - 1)

    @classmethod
    def at(cls, loc: str | None, message: str) -> TTCompileError:
        """An error located at a "file:line:col" string carried by an IR node."""
        filename, lineno, col = split_loc(loc)
        return cls(message, filename, lineno, col)

    def _render(self) -> str:
        if self.filename is None or self.lineno is None:
            return self.message
        col = self.col or 0
        head = f"{self.filename}:{self.lineno}:{col + 1}: error: {self.message}"
        text = linecache.getline(self.filename, self.lineno).rstrip("\n")
        if not text:
            return head
        return f"{head}\n    {text}\n    {' ' * col}^"


class TTResourceError(TTCompileError):
    """The program does not fit the device: names the resource, the amount asked for and the limit."""


class TTUnsupportedNameError(TTCompileError, AttributeError):
    """``T.<name>`` of a TileLang name that does not lower on Tenstorrent. Also an AttributeError, so
    ``hasattr(T, name)`` is False and TVMScript's parser reports it at the DSL line that uses it; from the
    user's own Python code (a dtype default such as ``T.float8_e4m3fn``) it is located at that line."""

    @classmethod
    def at_caller(cls, message: str) -> TTUnsupportedNameError:
        """The error, located where ``caller_location()`` says."""
        return cls(message, *caller_location())


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_location() -> tuple[str | None, int | None]:
    """(file, line) of the nearest calling frame outside this package and the import machinery: the user's
    line; (None, None) when that frame is TVMScript's parser evaluating the DSL (code compiled from
    ``<ast>``, or the parser's own), which locates its errors itself."""
    frame = sys._getframe(1)
    while frame is not None and (
        frame.f_code.co_filename.startswith(_PACKAGE_DIR) or frame.f_code.co_filename.startswith("<frozen")
    ):
        frame = frame.f_back
    filename = frame.f_code.co_filename if frame is not None else "<none>"
    if filename.startswith("<") or f"{os.sep}tvm{os.sep}script{os.sep}" in filename:
        return None, None
    return filename, frame.f_lineno


class TTArgumentError(TTError, TypeError, ValueError):
    """A call of a compiled kernel whose arguments do not fit it; names the parameter and what is wrong."""


class TTRuntimeError(TTError):
    """The simulated device reported a failure while running a generated program. ``device_error`` is the
    name of the device's error class (``NocAccessError``, ``DeadlockError``, ``KernelFaultError``...)."""

    def __init__(self, message: str, device_error: str | None = None):
        super().__init__(message)
        self.device_error = device_error


def register_with_tvm() -> None:
    """Lets TVM's FFI raise TTCompileError and TTResourceError from inside a pass as themselves. Called by
    ir_utils, which every module that runs TVM code imports; this module itself stays free of TVM."""
    import tvm_ffi

    for cls in (TTCompileError, TTResourceError):
        tvm_ffi.register_error(cls.__name__, cls)
