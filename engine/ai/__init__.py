"""Computer players that see a ``SeatView`` only (never the game): ``choose``.

``choose(view, level, seed) -> Action | None`` decides for the view's seat: declaring
and 回牌 during the deal, burying, the changzhu swap, and card play. ``AiPool`` runs it
in worker processes so an event loop stays responsive.
"""

from engine.ai.player import BUDGETS, Level, choose, choose_cards
from engine.ai.pool import AiPool
from engine.ai.search import Budget

__all__ = ["BUDGETS", "AiPool", "Budget", "Level", "choose", "choose_cards"]
