"""``tilelang.tileop``: TileLang's tile-operator classes; the one its examples import is in ``base``."""
