"""Errors: DSL locations with caret, round trip through TVM's FFI, class hierarchy."""

from tilelang_tt.errors import TTCompileError, TTError, TTResourceError, TTRuntimeError


def test_hierarchy():
    assert issubclass(TTResourceError, TTCompileError) and issubclass(TTCompileError, TTError)
    assert issubclass(TTRuntimeError, TTError) and not issubclass(TTRuntimeError, TTCompileError)


def test_message_quotes_the_line_with_a_caret():
    err = TTCompileError.at(f"{__file__}:1:4", "bad")
    lines = str(err).splitlines()
    assert lines[0] == f"{__file__}:1:5: error: bad" and lines[2].strip() == "^"


def test_rendered_message_parses_back():
    err = TTCompileError(str(TTCompileError.at(f"{__file__}:7:0", "again")))
    assert (err.filename, err.lineno, err.col, err.message) == (__file__, 7, 0, "again")


def test_without_location_the_message_is_plain():
    assert str(TTCompileError("plain")) == "plain"
