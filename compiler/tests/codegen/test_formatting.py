"""Generated C++ is clang-formatted with the repository's style."""

import os

from tilelang_tt.codegen.formatting import STYLE_FILE, format_sources


def test_style_is_the_repository_clang_format():
    assert os.path.isfile(STYLE_FILE), (
        f"{STYLE_FILE} is missing: the package must ship the repo's .clang-format"
    )


def test_sources_come_back_separately_formatted():
    out = format_sources({"a.cpp": "int  f( ){return 1;}\n", "b.cpp": "int g() {\nreturn 2;\n}\n"})
    assert out == {"a.cpp": "int f() {\n    return 1;\n}\n", "b.cpp": "int g() {\n    return 2;\n}\n"}
