"""The presets in words (``/shengji rules``): what each game is, at which tables it is
played (players × decks, RULES §2-§6), and its options."""

from __future__ import annotations

from bot.table_data import HOSTED_PRESETS, table_sizes
from bot.text.catalogue import say
from bot.text.events import rules_text
from engine.rules import Ruleset, ruleset


def sizes_text(rules: Ruleset) -> str:
    """The tables the rules are played at, as "5 × 2, 5 × 3, 6 × 3" (players × decks);
    where any number of decks the engine takes will do, the preset's own."""
    sizes = table_sizes(rules) or [(rules.players, rules.decks)]
    return ", ".join(f"{players} × {decks}" for players, decks in sizes)


def presets_text(locale: str | None) -> str:
    """Every preset a table can be opened with, a line each: name, tables, what it is."""
    lines = [say(locale, "rules_presets_title")]
    for name in HOSTED_PRESETS:
        lines.append(say(locale, "rules_preset_line", preset=name,
                         sizes=sizes_text(ruleset(name)), about=say(locale, f"about_{name}")))
    return "\n".join(lines)


def preset_rules_text(locale: str | None, rules: Ruleset) -> str:
    """One preset: what it is, its tables, then its options one a line."""
    return "\n".join([say(locale, f"about_{rules.preset}"),
                      say(locale, "rules_tables", sizes=sizes_text(rules)),
                      rules_text(locale, rules.preset, rules.describe())])
