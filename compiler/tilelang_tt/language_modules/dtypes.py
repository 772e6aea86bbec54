"""``tilelang.language.dtypes``: upstream's module of dtype objects and maps, which it also exports as
``tilelang.dtypes``; here both names are the module ``tilelang_tt.dtypes``."""

import sys

from .. import dtypes

sys.modules[__name__] = dtypes
