"""Pictures of hands, tables and results, as PNG bytes with a text equivalent.

``images`` imports nothing from the project but ``engine.cards`` and ``engine.order``.
Rendering blocks (Pillow): the bot calls these in a worker process (``bot/ui/render.py``).

    rendered, order = render_hand(cards, ctx, selected=..., unplayable=..., new=...)
    render_table(TableScene(...)) / render_result(ResultScene(...)) -> Rendered
"""

from images.canvas import Labels, Rendered, Side
from images.errors import RenderError
from images.hand import display_order, render_hand
from images.result import LevelChange, ResultScene, render_result
from images.table import (
    BidInfo,
    CallInfo,
    DeclarationInfo,
    SeatInfo,
    TableScene,
    render_table,
)

__all__ = [
    "BidInfo",
    "CallInfo",
    "DeclarationInfo",
    "Labels",
    "LevelChange",
    "RenderError",
    "Rendered",
    "ResultScene",
    "SeatInfo",
    "Side",
    "TableScene",
    "display_order",
    "render_hand",
    "render_result",
    "render_table",
]
