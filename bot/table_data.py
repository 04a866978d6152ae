"""Tables and seats as plain data: who sits where, the table's settings, its match.

Only the TableService changes them; renderers, controls and cogs read them. Nothing here
runs (no lock, no clock task): those belong to the service.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass
from typing import Any

from bot.store import SeatKind, SeatRecord, TableRecord, TableStatus
from engine.game import Burying, Dealing, Game, Playing, Swapping
from engine.rules import PRESETS, Ruleset, ruleset
from engine.teams import Formation

log = logging.getLogger(__name__)

AI_LEVELS = ("easy", "normal", "hard")  # computer players' strengths (engine/ai)


@dataclass(frozen=True)
class TableSettings:
    """Pauses and timers, in seconds. Every one is a setting so tests run fast."""

    turn_timer: float = 90.0  # a human's turn; then a computer plays for them
    deal_pause: float = 0.6  # between rounds of the deal
    last_chance: float = 8.0  # after the last card, before the deal closes
    hand_pause: float = 10.0  # between hands
    ai_pause: float = 0.8  # before a computer player acts
    # an away player's turn: long enough to notice the panel and press "I'm back" (or
    # play), short enough that three people are not kept waiting every trick
    away_pause: float = 15.0

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Known keys that hold a usable number of seconds; anything else is the default
        (a damaged stored value must not stop a table from being restored)."""
        known: dict[str, float] = {}
        for key, value in data.items():
            if key not in cls.__dataclass_fields__ or isinstance(value, bool):
                continue
            try:
                seconds = float(value)
            except (TypeError, ValueError, OverflowError):
                log.warning("table setting %s=%r is not a number: using the default", key,
                            value)
                continue
            if 0 <= seconds <= 86_400:
                known[key] = seconds
        return cls(**known)

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    def scaled(self, factor: float) -> TableSettings:
        """Every pause times ``factor`` (the turn timer too)."""
        return TableSettings(**{k: v * factor for k, v in asdict(self).items()})


@dataclass
class Seat:
    kind: SeatKind
    user_id: int | None
    name: str
    ai_level: str | None = None
    away: bool = False  # a human whose turn timed out: a computer plays until they act

    @property
    def is_ai(self) -> bool:
        return self.kind == "ai"

    def record(self) -> SeatRecord:
        return SeatRecord(self.kind, self.user_id, self.name, self.ai_level)

    @classmethod
    def of(cls, record: SeatRecord) -> Seat:
        return cls(record.kind, record.user_id, record.name, record.ai_level)


@dataclass
class Table:
    channel_id: int
    guild_id: int
    host_id: int
    preset: str
    options: dict[str, Any]
    settings: TableSettings
    seats: list[Seat | None]
    locale: str = "en-US"
    message_id: int | None = None
    status: TableStatus = "lobby"
    match_id: int | None = None
    game: Game | None = None  # replaced, never changed, by each accepted action
    # when the person to act runs out of time (Unix time; None: nobody's timer runs).
    # Set by the service when a wait begins; not stored (a restart starts a new wait).
    turn_ends: float | None = None

    @property
    def rules(self) -> Ruleset:
        return ruleset(self.preset, **self.options)

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.kind == "human" and seat.user_id == user_id:
                return i
        return None

    def record(self) -> TableRecord:
        return TableRecord(
            channel_id=self.channel_id, guild_id=self.guild_id, host_id=self.host_id,
            message_id=self.message_id, preset=self.preset, options=dict(self.options),
            settings=self.settings.to_dict(),
            seats=[s.record() if s else None for s in self.seats],
            match_id=self.match_id, status=self.status, locale=self.locale)

    @classmethod
    def of(cls, record: TableRecord) -> Table:
        """The table a stored row describes (its game is replayed by the service)."""
        return cls(record.channel_id, record.guild_id, record.host_id, record.preset,
                   dict(record.options), TableSettings.from_dict(record.settings),
                   [Seat.of(s) if s else None for s in record.seats], record.locale,
                   record.message_id, record.status, record.match_id)

    def actor(self) -> int | None:
        """The seat whose decision the game waits for, if any."""
        phase = self.game.phase if self.game else None
        if isinstance(phase, Dealing):
            return phase.pending_return[0] if phase.pending_return else None
        if isinstance(phase, Burying):
            return phase.taker
        if isinstance(phase, Swapping):
            return phase.declarer
        if isinstance(phase, Playing):
            return phase.turn
        return None


def hosted(rules: Ruleset) -> bool:
    """Rules the tables can host today: four seats, or sides that form in the hand
    (find-friends, three-bid). (The engine also plays six in fixed teams.)"""
    return rules.players == 4 or rules.seating.formation is not Formation.FIXED


#: The presets a table can be opened with (the command's choices).
HOSTED_PRESETS = tuple(name for name in PRESETS if hosted(ruleset(name)))
