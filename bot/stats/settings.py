"""A server's defaults for new tables (preset, options, turn timer, turn nudge, whether
computer players may sit at ranked tables), stored as JSON in ``guild_settings``."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from typing import Any

from bot.errors import BotError
from bot.store import CorruptRow, Store
from bot.table_data import TableSettings, check_hosted, fitting_decks
from engine.cards import typed
from engine.errors import EngineError
from engine.rules import PRESETS, ruleset

log = logging.getLogger(__name__)


def parse_option_text(text: str | None) -> dict[str, str]:
    """``decks=3, level_ranks=K,A`` → {"decks": "3", "level_ranks": "K,A"}: each value
    runs to the next ``name=`` (so it may hold commas and spaces: ``level_ranks=K, A``,
    ``must_play=J A``), a comma between pairs is allowed, spaces around ``=`` too; a name
    is taken in any case, with ``-`` for ``_`` (``Throw-Penalty=10``), as a keyboard types
    it (full-width letters and ``＝`` from a Chinese one)."""
    text = typed(text or "").strip()
    out: dict[str, str] = {}
    names = list(_NAME.finditer(text))
    before = text[:names[0].start()] if names else text
    if before.strip(" ,"):  # (words before the first name=: no name of theirs)
        raise BotError("options_syntax", part=before.strip(" ,").split()[0])
    for found, after in zip(names, [*names[1:], None], strict=False):
        value = text[found.end():after.start() if after else len(text)].strip().strip(",")
        if not value.strip():
            raise BotError("options_syntax", part=found.group(0).strip())
        key = found.group(1).lower().replace("-", "_")
        if key == "preset":
            raise BotError("options_preset")
        out[key] = value.strip()
    return out


#: A ``name=`` in the options typed (a name is anything up to the ``=`` but spaces and
#: commas).
_NAME = re.compile(r"([^\s=,]+)\s*=\s*")


@dataclass(frozen=True)
class ServerSettings:
    """What a server's admins set for new tables (stored as JSON in guild_settings)."""

    preset: str | None = None  # None: classic
    options: dict[str, str] = field(default_factory=dict)  # over the default preset
    turn_timer: float | None = None  # None: the bot's default
    nudge_after: float | None = None  # None: the bot's default; 0: never
    computers_ranked: bool = True  # may computer players sit at ranked tables?

    @property
    def base_preset(self) -> str:
        return self.preset or "classic"

    def table_size(self) -> tuple[int, int] | None:
        """Players and decks of a new table with these defaults (the decks a chosen player
        count needs included), or None when stored options no longer make rules."""
        try:
            rules = ruleset(self.base_preset,
                            **fitting_decks(self.base_preset, dict(self.options)))
        except EngineError:
            return None
        return rules.players, rules.decks

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ServerSettings:
        preset = data.get("preset")
        options = data.get("options")
        timer = data.get("turn_timer")
        nudge = data.get("nudge_after")
        return cls(preset=preset if isinstance(preset, str) and preset in PRESETS else None,
                   options={str(k): str(v) for k, v in options.items()}
                   if isinstance(options, dict) else {},
                   turn_timer=float(timer) if isinstance(timer, (int, float)) else None,
                   nudge_after=float(nudge) if isinstance(nudge, (int, float))
                   and not isinstance(nudge, bool) and nudge >= 0 else None,
                   computers_ranked=bool(data.get("computers_ranked", True)))

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": dict(self.options),
                "turn_timer": self.turn_timer, "nudge_after": self.nudge_after,
                "computers_ranked": self.computers_ranked}

    def table_settings(self, defaults: TableSettings) -> TableSettings:
        """A new table's settings: the bot's ``defaults`` with the server's own over them."""
        kept = {name: value for name, value in (("turn_timer", self.turn_timer),
                                                 ("nudge_after", self.nudge_after))
                if value is not None}
        return replace(defaults, **kept)

    def rules_for(self, preset: str | None, options: dict[str, Any]
                  ) -> tuple[str, dict[str, Any]]:
        """The preset and options of a new table: the server's default options apply when
        the table uses the server's default preset; the table's own options win."""
        chosen = preset or self.base_preset
        if chosen == self.base_preset:
            return chosen, {**self.options, **options}
        return chosen, dict(options)


class ServerSettingsService:
    """Reads and changes a server's settings; every change is checked against the rules."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, guild_id: int) -> ServerSettings:
        """The server's settings; the defaults where its stored row cannot be read (one
        bad row must not refuse every new table of the server), until they are saved."""
        try:
            stored = await self.store.guild_settings(guild_id)
        except CorruptRow as exc:
            log.warning("%s: the defaults apply until the settings are saved again", exc)
            return ServerSettings()
        return ServerSettings.from_dict(stored)

    async def update(self, guild_id: int, *, preset: str | None = None,
                              options: str | None = None, turn_timer: float | None = None,
                              nudge_after: float | None = None,
                              computers_ranked: bool | None = None, reset: bool = False
                              ) -> ServerSettings:
        """Change what is given; ``options`` "-" (or "none") clears the default options."""
        current = ServerSettings() if reset else await self.get(guild_id)
        new_preset = current.preset if preset is None else preset
        if options is None:
            # a new default preset starts without the old preset's options
            new_options = current.options if preset is None or preset == current.preset \
                else {}
        elif options.strip().lower() in ("-", "none"):
            new_options = {}
        else:
            new_options = parse_option_text(options)
        preset_name = new_preset or "classic"
        try:
            rules = ruleset(preset_name, **fitting_decks(preset_name, new_options))
        except EngineError as exc:
            raise BotError.refused("bad_rules", exc) from None
        check_hosted(rules)  # a default no table could be opened with is refused now
        settings = ServerSettings(
            preset=new_preset, options=new_options,
            turn_timer=current.turn_timer if turn_timer is None else float(turn_timer),
            nudge_after=current.nudge_after if nudge_after is None else float(nudge_after),
            computers_ranked=current.computers_ranked if computers_ranked is None
            else computers_ranked)
        await self.store.set_guild_settings(guild_id, settings.to_dict())
        return settings
