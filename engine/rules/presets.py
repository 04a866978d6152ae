"""The presets of RULES.md: named sets of option values."""

from __future__ import annotations

from typing import Any

from engine.cards import Rank
from engine.errors import EngineError
from engine.order import SuitSystem
from engine.rules.options import (
    _CHANGZHU_LEVELS,
    DeclarationStyle,
    Finish,
    KittyMultiplier,
    KittyTaker,
    LevelTable,
    PlayStyle,
    Ruleset,
)
from engine.teams import Formation

PRESETS: dict[str, dict[str, Any]] = {
    # RULES §2: the common "80 points / Tractor" game (seeds 004, 002).
    "classic": {},
    # RULES §4: 40分 with one deck; no pairs exist.
    "one-deck": {"decks": 1, "kitty_size": 6},
    # RULES §4: one deck, two colour suits so pairs exist; thresholds halved.
    "red-black": {"decks": 1, "kitty_size": 6, "suits": SuitSystem.RED_BLACK},
    # RULES §4: three decks, triples and triple tractors; declaring as with two decks
    # (seed 002: 抢亮 "as in two-deck play": others override only with a stronger one,
    # and a declarer may reinforce, §2)
    "titanic": {"decks": 3, "kitty_size": 6},
    # RULES §3: 常主升级 (seed 000).
    "changzhu": {
        "decks": 2,
        "kitty_size": 4,
        "permanent_trumps": (Rank.TWO, Rank.THREE, Rank.FIVE),
        "level_ranks": _CHANGZHU_LEVELS,
        "finish": Finish.PAST_TOP,
        "j_must_play": True,
        "j_fall": True,
        "declaration": DeclarationStyle.JOKER_AND_PAIR,
        "play": PlayStyle.CHANGZHU,
        "kitty_taker": KittyTaker.PARTNER_IF_DEALER_DECLARED,
        "kitty_multiplier": KittyMultiplier.COUNT,
        "kitty_joker_points": True,
        "keep_kitty_subtracts": True,
        "level_table": LevelTable.CHANGZHU,
    },
}

PRESETS.update({
    # RULES §5: 找朋友. 5 players with 2 decks (or 3), or 6 players with 3 decks; the
    # dealer calls friends; every player has their own level.
    "find-friends": {
        "players": 5,
        "decks": 2,
        "kitty_size": 8,
        "teams": Formation.CALLED,
        "friends": 1,
        "individual_levels": True,
        "must_play": (Rank.JACK, Rank.ACE),
        "level_table": LevelTable.FIND_FRIENDS,
    },
    # RULES §6: 三人竞标. Players bid the threshold; the lowest bidder plays alone.
    "three-bid": {
        "players": 3,
        "decks": 2,
        "kitty_size": 6,
        "teams": Formation.BID,
        "individual_levels": True,
        "declaration": DeclarationStyle.NONE,
        "level_table": LevelTable.THREE_BID,
    },
    # RULES §4 "six": 6 players, 3 decks, two fixed teams of three, seats alternating;
    # classic declaring (a declarer may reinforce)
    "six": {"players": 6, "decks": 3, "kitty_size": 6},
})

#: Presets RULES.md describes that this engine does not play yet (their names).
PLANNED: frozenset[str] = frozenset()


def ruleset(preset: str = "classic", **overrides: Any) -> Ruleset:
    """The ruleset of a preset, with options overridden by name."""
    name = preset.strip().lower().replace("_", "-")
    if name not in PRESETS:
        raise EngineError("unknown_preset", preset=preset, planned=name in PLANNED,
                          presets=tuple(PRESETS))
    base = Ruleset(preset=name, **PRESETS[name])
    return base.with_options(**overrides) if overrides else base
