"""``tilelang.utils``: the helpers TileLang's examples import from it (``utils.tensor``)."""
