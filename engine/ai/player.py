"""The computer player's one entry point: ``choose(view, level, seed) -> Action | None``.

``view`` is the seat's ``SeatView`` (never the game): a computer player knows exactly
what a human in that seat would. The result is the seat's decision now, or None when the
seat has nothing to decide (not its turn; during the deal: it does not declare now).
Dealing, ``EndDeal`` and ``NextHand`` are the table's clock, never a seat's decision.

Levels: ``easy`` plays the heuristic; ``normal`` and ``hard`` search card play and
burying (determinized Monte Carlo, ``engine.ai.search``) with a small and a larger
budget, hard dealing its worlds to explain the others' plays
(``engine.ai.inference``); all levels share the heuristic for declaring, 回牌 and the
changzhu swap.
"""

from __future__ import annotations

import enum
import logging
import random

from engine.actions import Action, Bury, Declare, Play, ReturnCards, SwapKitty
from engine.ai.bidding import choose_bury, choose_declaration, choose_return, choose_swap
from engine.ai.knowledge import Knowledge
from engine.ai.phases import decide
from engine.ai.policy import choose_easy_play
from engine.ai.search import Budget, search_bury, search_play
from engine.ai.table import Cards
from engine.errors import EngineError
from engine.game import Game
from engine.legal import check_play, constructive_follow, legal_plays
from engine.rules import DeclarationStyle
from engine.views import SeatView

log = logging.getLogger(__name__)


class Level(enum.Enum):
    EASY = "easy"  # the heuristic
    NORMAL = "normal"  # search, small budget
    HARD = "hard"  # search, larger budget


#: Search budgets per level, counted in simulations (play-outs), so that a seed replays
#: the same decisions on any machine; the time cap (seconds) is a safety net that an
#: ordinary decision never reaches. Hard races five plays over three rounds of common
#: worlds (``engine.ai.search``) with a budget in simulated cards: 6,750 cards of
#: play-outs, so about 67 play-outs at the first trick of a classic hand, 135 halfway,
#: up to 360 near the end; 60 at the least (4,500 cards, 40 to 240, won 64.2% of seed 1's
#: seat-hands against easy, this 66.2%: docs/ai.md, "Evaluation"). Seven plays measured
#: even with five against easy (docs/ai.md, "Search"), so five. Its worlds are dealt to
#: explain the last three tricks' plays and the burial (``inference.guided_worlds``;
#: docs/ai.md, "Inference").
BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(worlds=12, candidates=4, time_limit=2.0),
    Level.HARD: Budget(worlds=8, candidates=5, time_limit=3.0, inference=1, simulations=360,
                       rounds=3, inference_tricks=3, cards=6750, least=60, judge_all=True,
                       equal_z=2.0, sampler="guided"),
}

#: Burying compares whole-hand play-outs of a few burials (the heuristic's, and ones
#: making voids), once per hand.
BURY_BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(worlds=8, candidates=3, time_limit=2.0),
    Level.HARD: Budget(worlds=24, candidates=5, time_limit=3.0),
}

#: Plays the AI produced that the engine refused (replaced by a legal one). Stays 0.
refused_plays = 0


def choose(view: SeatView, level: Level | str = Level.HARD, seed: int = 0, *,
           budget: Budget | None = None) -> Action | None:
    """The seat's decision now (None: nothing to decide). Deterministic for a given
    view, level and seed (the budget's time cap is a safety net only)."""
    level = Level(level)
    seat = view.seat
    if seat is None or view.rules is None:
        return None
    phase = view.phase
    if phase == "deal":
        pending = view.pending_return
        if pending is not None:
            sticker, _, count = pending
            return ReturnCards(seat, choose_return(view, count)) if sticker == seat else None
        cards = choose_declaration(view)
        return Declare(seat, cards) if cards else None
    if view.turn != seat:
        return None
    decision = decide(view)  # bidding, naming the trump, calling, level transfer
    if decision is not None:
        return decision
    if phase == "bury":
        if level is Level.EASY or view.ctx is None or \
                view.rules.declaration is DeclarationStyle.JOKER_AND_PAIR:
            # (changzhu: the declarer's partner buries, often not knowing the trump suit)
            return Bury(seat, choose_bury(view))
        return Bury(seat, search_bury(Knowledge.from_view(view), random.Random(seed),
                                      BURY_BUDGETS[level]))
    if phase == "swap":
        give, take = choose_swap(view)
        return SwapKitty(seat, give, take)
    if phase == "play":
        return Play(seat, choose_cards(view, level, seed, budget=budget))
    return None


def choose_cards(view: SeatView, level: Level | str = Level.HARD, seed: int = 0, *,
                 budget: Budget | None = None) -> Cards:
    """The cards to play now (the view must be the seat's turn in the play phase)."""
    level = Level(level)
    rng = random.Random(seed)
    knowledge = Knowledge.from_view(view)
    if level is Level.EASY and budget is None:
        cards = choose_easy_play(knowledge.world(rng), knowledge.seat)
    else:
        cards = search_play(knowledge, rng, budget or BUDGETS[level])
    return _checked(knowledge, cards, rng)


def _checked(knowledge: Knowledge, cards: Cards, rng: random.Random) -> Cards:
    """``cards`` if the engine accepts them from this seat, else a legal play (logged)."""
    global refused_plays
    view = knowledge.view
    assert view.seat is not None and view.level is not None and view.dealer is not None
    hands, kitty = knowledge.sample(rng)
    trick = [(s, c) for s, c in view.trick]
    game = Game.from_position(knowledge.rules, level=view.level, hands=hands,
                              trump=knowledge.ctx.trump, dealer=view.dealer,
                              leader=trick[0][0] if trick else view.turn, kitty=kitty,
                              attacker_points=view.attacker_points, trick=trick,
                              taker=view.kitty_taker)
    try:
        check_play(game, view.seat, cards)
        return cards
    except EngineError as exc:
        refused_plays += 1
        log.warning("AI play %s refused (%s); playing a legal one instead", cards, exc.code)
    phase = game.phase
    lead = phase.trick.lead  # type: ignore[union-attr]
    if lead is not None:
        found = constructive_follow(game, lead, view.hand, knowledge.ctx)
        if found is not None:
            try:
                check_play(game, view.seat, found)
                return found
            except EngineError:
                pass
    return legal_plays(game, view.seat)[0]
