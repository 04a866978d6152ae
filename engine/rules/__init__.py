"""Rulesets: options and presets (RULES.md §2-§4)."""

from engine.rules.options import (
    DeclarationStyle,
    Finish,
    KittyMultiplier,
    KittyTaker,
    LevelTable,
    NoBid,
    PlayStyle,
    Ruleset,
)
from engine.rules.presets import PRESETS, ruleset

__all__ = [
    "PRESETS", "DeclarationStyle", "Finish", "KittyMultiplier", "KittyTaker", "LevelTable",
    "NoBid", "PlayStyle", "Ruleset", "ruleset",
]
