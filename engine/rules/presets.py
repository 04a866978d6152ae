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

PRESETS: dict[str, dict[str, Any]] = {
    # RULES §2: the common "80 points / Tractor" game (seeds 004, 002).
    "classic": {},
    # RULES §4: 40分 with one deck; no pairs exist.
    "one-deck": {"decks": 1, "kitty_size": 6},
    # RULES §4: one deck, two colour suits so pairs exist; thresholds halved.
    "red-black": {"decks": 1, "kitty_size": 6, "suits": SuitSystem.RED_BLACK},
    # RULES §4: three decks, triples and triple tractors, strictly stronger declarations.
    "titanic": {"decks": 3, "kitty_size": 6, "reinforce": False},
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

#: Presets RULES.md describes that this engine does not play yet.
PLANNED = {
    "find-friends": "find-friends (找朋友, 5-6 players with a called friend)",
    "three-bid": "three-bid (3 players bidding the threshold)",
}


def ruleset(preset: str = "classic", **overrides: Any) -> Ruleset:
    """The ruleset of a preset, with options overridden by name."""
    name = preset.strip().lower().replace("_", "-")
    if name not in PRESETS:
        if name in PLANNED:
            raise EngineError("unknown_preset", f"the preset {PLANNED[name]} is not playable "
                              "yet", preset=preset)
        raise EngineError("unknown_preset", f"unknown preset '{preset}'; presets are: "
                          + ", ".join(PRESETS), preset=preset)
    base = Ruleset(preset=name, **PRESETS[name])
    return base.with_options(**overrides) if overrides else base
