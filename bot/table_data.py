"""Tables and seats as plain data: who sits where, the table's settings, its match.

Only the TableService changes them; renderers, controls and cogs read them. Nothing here
runs (no lock, no clock task): those belong to the service.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from bot.errors import BotError
from bot.store import SeatKind, SeatRecord, TableRecord, TableStatus
from engine.actions import Action, AnswerTransfer, Transfer
from engine.errors import EngineError
from engine.game import (
    Bidding,
    Burying,
    CallingFriends,
    Dealing,
    Game,
    HandOver,
    NamingTrump,
    Phase,
    Playing,
    Swapping,
    Transferring,
)
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
    # a person's turn not taken after this long: the table message is posted anew at the
    # channel's end, which notifies them (a mention added by an edit notifies nobody);
    # 0, or not less than the turn timer: never
    nudge_after: float = 20.0

    @property
    def nudges(self) -> bool:
        """Is a person's turn nudged (``nudge_after`` above 0 and sooner than the timer)?"""
        return 0 < self.nudge_after < self.turn_timer

    @classmethod
    def from_dict(cls, data: dict[str, Any], defaults: TableSettings | None = None
                  ) -> TableSettings:
        """Known keys that hold a usable number of seconds; anything else is the default
        (a damaged stored value must not stop a table from being restored), from
        ``defaults`` where given (a setting added since the row was stored is the bot's)."""
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
        return replace(defaults, **known) if defaults is not None else cls(**known)

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
        return SeatRecord(self.kind, self.user_id, self.name, self.ai_level, self.away)

    @classmethod
    def of(cls, record: SeatRecord) -> Seat:
        return cls(record.kind, record.user_id, record.name, record.ai_level, record.away)


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
    # a nudge moving the table message: the old one, until it is deleted (stored, so that a
    # start after a kill in between deletes the one left over: ``finish_move``)
    moving_from: int | None = None
    game: Game | None = None  # replaced, never changed, by each accepted action
    # when the person to act runs out of time (Unix time; None: nobody's timer runs).
    # Set by the service when a wait begins; not stored (a restart starts a new wait).
    turn_ends: float | None = None
    # when something last happened at the table (Unix time: a change saved, an action):
    # a lobby or a paused match left alone for long is closed (``TableService``)
    active_at: float = field(default_factory=time.time)

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
            match_id=self.match_id, status=self.status, locale=self.locale,
            moving_from=self.moving_from)

    @classmethod
    def of(cls, record: TableRecord, defaults: TableSettings | None = None) -> Table:
        """The table a stored row describes (its game is replayed by the service);
        ``defaults``: the settings the row does not hold."""
        return cls(record.channel_id, record.guild_id, record.host_id, record.preset,
                   dict(record.options), TableSettings.from_dict(record.settings, defaults),
                   [Seat.of(s) if s else None for s in record.seats], record.locale,
                   record.message_id, record.status, record.match_id, record.moving_from,
                   active_at=record.updated_at.timestamp() if record.updated_at
                   else time.time())

    @property
    def paused(self) -> bool:
        """Between hands with every person at the table away (their turns timed out):
        the next hand waits for one of them to be back, rather than computers playing the
        match out for people who went to bed (a result post a hand, their stats and
        ratings moved). A table whose people all left plays on: the computers' match is
        watched."""
        people = [seat for seat in self.seats if seat is not None and not seat.is_ai]
        return (self.status == "playing" and self.game is not None
                and isinstance(self.game.phase, HandOver)
                and bool(people) and all(seat.away for seat in people))

    def actor(self) -> int | None:
        """The seat whose decision the game waits for, if any."""
        phase = self.game.phase if self.game else None
        if isinstance(phase, Dealing):
            return phase.pending_return[0] if phase.pending_return else None
        if isinstance(phase, Burying):
            return phase.taker
        if isinstance(phase, Swapping):
            return phase.declarer
        if isinstance(phase, (Playing, Bidding)):
            return phase.turn
        if isinstance(phase, (CallingFriends, NamingTrump)):
            return phase.dealer
        if isinstance(phase, Transferring):
            return phase.offers[0][0] if phase.asked is None else phase.asked
        return None


def after_hand_default(phase: Phase) -> Action | None:
    """What applies when the player who has an after-hand choice does not make it in
    time (their timer runs out, or they are away): a person's choice is never made by a
    computer. RULES §5 ``level_transfer``: "the player chooses after the hand, and a
    winner may refuse a gift": without an answer no level moves, which is the hand as
    scored without the option. The levels a must-play rank stopped are kept (a
    ``Transfer`` to nobody), and a gift left unanswered is refused. A kitty penalty's
    levels the dealer (J) or a friend (A) did not place go to the opponents in seat order (the same
    ``Transfer`` to nobody: RULES §5 leaves no "nowhere" for them). None: no such choice
    is waiting."""
    if not isinstance(phase, Transferring):
        return None
    if phase.asked is not None:
        return AnswerTransfer(phase.asked, accept=False)
    return Transfer(phase.offers[0][0], None)


#: The tables RULES.md describes where the sides form in the hand: seats → decks
#: (RULES §5 find-friends: 5 players with 2 or 3 decks, 6 with 3; RULES §6 three-bid:
#: 3 players with 2 decks). Fixed partnerships: any table the engine accepts (4 or 6).
TABLE_SIZES: dict[Formation, dict[int, tuple[int, ...]]] = {
    Formation.CALLED: {5: (2, 3), 6: (3,)},
    Formation.BID: {3: (2,)},
}


def table_sizes(rules: Ruleset) -> list[tuple[int, int]]:
    """The (players, decks) a table with these rules may have; empty: any the engine
    accepts."""
    sizes = TABLE_SIZES.get(rules.seating.formation, {})
    return [(players, decks) for players, options in sizes.items() for decks in options]


def check_hosted(rules: Ruleset) -> None:
    """Refuse (``BotError``) a table of a size RULES.md does not describe for its game;
    every preset the engine plays is hosted, at every size its section names."""
    sizes = table_sizes(rules)
    if sizes and (rules.players, rules.decks) not in sizes:
        raise BotError("table_size", preset=rules.preset, players=rules.players,
                       decks=rules.decks,
                       sizes=", ".join(f"{p} × {d}" for p, d in sizes))


def hosted(rules: Ruleset) -> bool:
    """The tables can host these rules (:func:`check_hosted` would not refuse them)."""
    try:
        check_hosted(rules)
    except BotError:
        return False
    return True


def fitting_decks(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the number of decks a chosen player count needs, when the preset's
    own is not one of them and no number was chosen (find-friends with 6 players: 3)."""
    if "players" not in options or "decks" in options:
        return options
    try:
        rules = ruleset(preset, **options)
    except EngineError:
        return options  # (the table's creation refuses them with the engine's reason)
    sizes = table_sizes(rules)
    if not sizes or (rules.players, rules.decks) in sizes:
        return options
    for players, decks in sizes:
        if players == rules.players:
            return {**options, "decks": decks}
    return options


#: The presets a table can be opened with (the command's choices).
HOSTED_PRESETS = tuple(name for name in PRESETS if hosted(ruleset(name)))
