"""The store's records (plain data, checked when built), its interface and its one error.

Records hold JSON-able dicts for rules, options and actions, never discord or engine objects,
so that every backend (``bot/store/sqlite.py``, ``bot/store/postgres.py``) stores the same
values and the rest of the bot depends on :class:`Store` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

SeatKind = Literal["human", "ai"]
TableStatus = Literal["lobby", "playing", "finished"]
MatchStatus = Literal["playing", "finished", "abandoned"]

_SEAT_KINDS = ("human", "ai")
_TABLE_STATUSES = ("lobby", "playing", "finished")
_MATCH_STATUSES = ("playing", "finished", "abandoned")
INT64 = (-(2**63), 2**63 - 1)


class StoreError(Exception):
    """Something the store could not do, said in words (no card or hand content)."""


class StoreUnreachable(StoreError):
    """The database server cannot be reached now (not up yet, restarting, out of
    connections): trying again later may work, unlike a refused password or a missing
    database."""


class CorruptRow(StoreError):
    """A stored row that cannot be read (``sql.corrupt``): the database works, the row
    does not, so a caller may go on without it."""


# -- records -------------------------------------------------------------------------------


def check(condition: bool, message: str) -> None:
    if not condition:
        raise StoreError(message)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_id(value: Any, name: str, *, optional: bool = False) -> None:
    if optional and value is None:
        return
    check(is_int(value) and INT64[0] <= value <= INT64[1],
           f"{name} must be a 64-bit integer")


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sits in a seat: a Discord user (``user_id``) or a computer player (``ai_level``)."""

    kind: SeatKind
    user_id: int | None
    name: str
    ai_level: str | None = None
    #: a person whose turn timed out, played by a computer until they are back (kept so
    #: that a restart does not take the whole table for back and deal a paused match on)
    away: bool = False

    def __post_init__(self) -> None:
        check(self.kind in _SEAT_KINDS, f"seat kind must be one of {_SEAT_KINDS}")
        check(self.away is False or self.kind == "human", "only a person can be away")
        if self.kind == "human":
            check_id(self.user_id, "a human seat's user_id")
        else:
            check(self.user_id is None, "a computer seat has no user_id")
        check(isinstance(self.name, str), "a seat's name must be text")
        check(self.ai_level is None or isinstance(self.ai_level, str),
               "a seat's ai_level must be text or None")

    def to_dict(self) -> dict[str, Any]:
        data = {"kind": self.kind, "user_id": self.user_id, "name": self.name,
                "ai_level": self.ai_level}
        return {**data, "away": True} if self.away else data

    @classmethod
    def from_dict(cls, data: Any) -> SeatRecord:
        check(isinstance(data, dict), "a seat must be an object")
        return cls(kind=data["kind"], user_id=data.get("user_id"), name=data["name"],
                   ai_level=data.get("ai_level"),
                   # (anything but a stored true is here: a damaged flag never stops a table)
                   away=data.get("away") is True and data["kind"] == "human")


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table in one channel: its lobby, options and (while playing) its match."""

    channel_id: int
    guild_id: int
    host_id: int
    message_id: int | None
    preset: str
    options: dict[str, Any]  # rule options over the preset (Ruleset.to_dict keys)
    settings: dict[str, Any]  # table settings (turn timer, ranked, ...)
    seats: list[SeatRecord | None]  # one per seat; None: empty
    match_id: int | None
    status: TableStatus
    locale: str
    #: a nudge's move of the table message under way: the old message, until it is deleted
    moving_from: int | None = None
    #: when the row was last saved (as read from the store; None in a record to save)
    updated_at: datetime | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for name in ("channel_id", "guild_id", "host_id"):
            check_id(getattr(self, name), name)
        check_id(self.message_id, "message_id", optional=True)
        check_id(self.moving_from, "moving_from", optional=True)
        check_id(self.match_id, "match_id", optional=True)
        check(isinstance(self.preset, str), "preset must be text")
        check(isinstance(self.options, dict), "options must be an object")
        check(isinstance(self.settings, dict), "settings must be an object")
        check(isinstance(self.seats, (list, tuple)), "seats must be a list")
        check(all(s is None or isinstance(s, SeatRecord) for s in self.seats),
               "each seat must be a SeatRecord or None")
        object.__setattr__(self, "seats", list(self.seats))
        check(self.status in _TABLE_STATUSES, f"table status must be one of {_TABLE_STATUSES}")
        check(isinstance(self.locale, str), "locale must be text")


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match: what ``engine.record.GameRecord`` needs (seed, rules) plus who played it."""

    id: int
    guild_id: int
    channel_id: int
    seed: int
    rules: dict[str, Any]  # Ruleset.to_dict()
    seats: list[SeatRecord]
    status: MatchStatus
    winner_team: int | None
    started_at: datetime
    finished_at: datetime | None
    hands_played: int
    ranked: bool = False

    def __post_init__(self) -> None:
        check(all(isinstance(s, SeatRecord) for s in self.seats),
               "each seat of a match must be a SeatRecord")
        object.__setattr__(self, "seats", list(self.seats))
        check(self.status in _MATCH_STATUSES, f"match status must be one of {_MATCH_STATUSES}")


WinnerSide = Literal["defenders", "attackers", "none"]
_WINNER_SIDES = ("defenders", "attackers", "none")


@dataclass(frozen=True, slots=True)
class SeatChange:
    """One seat's level in a hand: before and after the scoring (rank labels), the levels
    the hand gave it (0 unless its side went up) and the engine's reason codes
    (``engine.scoring.LevelChange.reasons``)."""

    before: str
    after: str
    gained: int
    reasons: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        check(isinstance(self.before, str) and isinstance(self.after, str),
              "a seat's levels must be rank labels")
        check(is_int(self.gained) and self.gained >= 0,
              "a seat's levels gained must be a whole number")
        check(isinstance(self.reasons, (list, tuple))
              and all(isinstance(r, str) for r in self.reasons),
              "a seat's reasons must be a list of codes")
        object.__setattr__(self, "reasons", tuple(self.reasons))

    def to_dict(self) -> dict[str, Any]:
        return {"before": self.before, "after": self.after, "gained": self.gained,
                "reasons": list(self.reasons)}

    @classmethod
    def from_dict(cls, data: Any) -> SeatChange:
        check(isinstance(data, dict), "a seat change must be an object")
        return cls(data["before"], data["after"], data["gained"], tuple(data["reasons"]))


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One scored hand (built by ``bot/stats/hands.py``).

    ``levels_before``/``levels_after`` are per level holder (``Seating.holder``): per fixed
    team (index = team), or per seat where levels are individual. The ``*_team`` fields
    are fixed teams, None where the match has none (find-friends, three-bid).
    ``defenders``, ``winner_side``, ``bid`` and ``seat_changes`` say who defended, who
    went up and each seat's levels in every preset; they are None in hands stored before
    migration 004 (fixed teams only: ``bot/stats/hands.py`` reads those from the teams)."""

    match_id: int
    hand_no: int  # 0-based, Game.hand_number
    dealer: int  # seat
    level: str  # the rank played, e.g. "2" (the dealer's level)
    trump: str | None  # trump suit label; None: no trump
    defenders_team: int | None  # the dealer's fixed team (庄家)
    attacker_points: int  # final total, kitty included
    kitty_multiplier: int  # 0: the attackers did not capture the kitty
    last_trick_team: int | None
    winner_team: int | None  # the fixed team that went up; None: nobody, or no fixed teams
    levels_gained: int  # the level table's levels for the side that went up (0: nobody)
    levels_before: list[str]
    levels_after: list[str]
    result: dict[str, Any]  # the engine's HandResult as a dict the caller builds
    last_trick_seat: int | None = None  # who won the last trick (kitties captured per player)
    defenders: tuple[int, ...] | None = None  # the dealer and every friend found
    winner_side: WinnerSide | None = None
    bid: int | None = None  # three-bid: the winning bid
    seat_changes: tuple[SeatChange, ...] | None = None  # one per seat

    def __post_init__(self) -> None:
        for name in ("match_id", "hand_no", "dealer", "attacker_points",
                     "kitty_multiplier", "levels_gained"):
            check(is_int(getattr(self, name)), f"hand {name} must be an integer")
        for name in ("defenders_team", "last_trick_team", "winner_team", "last_trick_seat",
                     "bid"):
            value = getattr(self, name)
            check(value is None or is_int(value), f"hand {name} must be an integer or None")
        check(isinstance(self.level, str), "hand level must be text")
        check(self.trump is None or isinstance(self.trump, str), "hand trump must be text")
        for name in ("levels_before", "levels_after"):
            value = getattr(self, name)
            check(isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value),
                   f"hand {name} must be a list of rank labels")
            object.__setattr__(self, name, list(value))
        check(isinstance(self.result, dict), "hand result must be an object")
        if self.defenders is not None:
            check(isinstance(self.defenders, (list, tuple)) and len(self.defenders) > 0
                  and all(is_int(s) and s >= 0 for s in self.defenders),
                  "hand defenders must be a list of seats")
            object.__setattr__(self, "defenders", tuple(self.defenders))
        check(self.winner_side is None or self.winner_side in _WINNER_SIDES,
              f"hand winner_side must be one of {_WINNER_SIDES}")
        if self.seat_changes is not None:
            check(isinstance(self.seat_changes, (list, tuple))
                  and all(isinstance(c, SeatChange) for c in self.seat_changes),
                  "hand seat_changes must be SeatChanges")
            object.__setattr__(self, "seat_changes", tuple(self.seat_changes))
        check((self.defenders is None) == (self.winner_side is None)
              == (self.seat_changes is None),
              "hand defenders, winner_side and seat_changes go together")


LeaderboardOrder = Literal["rating", "wins", "levels"]
LEADERBOARD_ORDERS: tuple[LeaderboardOrder, ...] = ("rating", "wins", "levels")


@dataclass(frozen=True, slots=True)
class HandStats:
    """What one hand adds to one user's totals (see migration 002 for the meanings)."""

    user_id: int
    defending: bool  # on the dealer's side (the dealer and the friends found)
    won: bool  # the user's side went up
    levels_gained: int
    kitty_captured: bool


@dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating (mu, sigma) and how many ranked hands made it."""

    user_id: int
    mu: float
    sigma: float
    hands: int = 0

    @property
    def score(self) -> float:
        """The conservative estimate mu - 3 sigma: what leaderboards sort by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Everything one user did in one server: all matches, and the ranked part."""

    user_id: int
    name: str
    played: int  # finished matches, ranked and casual
    won: int
    abandoned: int
    ranked_played: int
    ranked_won: int
    hands_defending: int
    won_defending: int
    hands_attacking: int
    won_attacking: int
    levels_gained: int
    kitties_captured: int
    rating: Rating | None  # None: no ranked hand yet
    position: int | None  # place on the server's rating leaderboard


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a ranked leaderboard (ranked matches and hands only)."""

    position: int  # 1-based
    user_id: int
    name: str
    rating: Rating | None
    played: int
    won: int
    levels_gained: int


#: The user id of the seats of a player who erased their data (``erase_player``): kept so
#: that the others' matches stay whole, shown as a former player, never counted, rated or
#: seated again.
FORMER_PLAYER = 0


@dataclass(frozen=True, slots=True)
class PlayerData:
    """What is stored of one player in one server: the matches they played, and whether
    they have a record (name, stats, rating); ``live_channels``, the tables in a lobby or in
    play where they sit, or that they host."""

    matches: int
    record: bool
    live_channels: tuple[int, ...]

    @property
    def empty(self) -> bool:
        return not (self.matches or self.record or self.live_channels)


@dataclass(frozen=True, slots=True)
class GuildData:
    """What is stored of one server: its finished matches and the players counted, and
    whether it has settings; ``live_channels``, its tables in a lobby or in play."""

    matches: int
    players: int
    settings: bool
    live_channels: tuple[int, ...]

    @property
    def empty(self) -> bool:
        return not (self.matches or self.players or self.settings or self.live_channels)


# -- the interface -------------------------------------------------------------------------


class Store(Protocol):
    """What the bot may ask of storage. Every method is one transaction."""

    async def close(self) -> None: ...

    # sharded processes: serve (restore, count) only the servers of these shards
    async def claim_shards(self, shard_count: int, shard_ids: Sequence[int]) -> None: ...

    # tables
    async def save_table(self, table: TableRecord) -> None: ...
    async def load_tables(self) -> list[TableRecord]: ...
    async def live_tables(self) -> list[TableRecord]: ...
    async def load_table(self, channel_id: int) -> TableRecord | None: ...
    async def forget_table(self, channel_id: int) -> None: ...

    # matches
    async def create_match(self, guild_id: int, channel_id: int, seed: int,
                           rules: dict[str, Any], seats: Sequence[SeatRecord], *,
                           ranked: bool = False) -> int: ...
    async def append_action(self, match_id: int, seq: int, action: dict[str, Any]) -> None: ...
    async def load_actions(self, match_id: int) -> list[dict[str, Any]]: ...
    async def record_hand(self, hand: HandRecord) -> None: ...
    async def amend_hand(self, hand: HandRecord) -> None: ...
    async def finish_match(self, match_id: int, status: MatchStatus,
                           winner_team: int | None) -> None: ...
    async def load_match(self, match_id: int) -> MatchRecord | None: ...
    async def match_hands(self, match_id: int) -> list[HandRecord]: ...

    # per guild
    async def upsert_player(self, guild_id: int, user_id: int, name: str) -> None: ...
    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...
    async def set_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...
    async def guild_data(self, guild_id: int) -> GuildData: ...
    async def erase_guild(self, guild_id: int) -> GuildData: ...
    async def player_data(self, guild_id: int, user_id: int) -> PlayerData: ...
    async def erase_player(self, guild_id: int, user_id: int) -> PlayerData: ...

    # queries (history, leaderboards)
    async def match_history(self, guild_id: int, *, user_id: int | None = None,
                            limit: int = 20, before_id: int | None = None
                            ) -> list[MatchRecord]: ...

    # stats and ratings (bot/stats.py)
    async def stats_progress(self, match_id: int) -> int: ...
    async def pending_stats(self) -> list[int]: ...
    async def load_ratings(self, guild_id: int, user_ids: Sequence[int]
                           ) -> dict[int, Rating]: ...
    async def count_hand(self, match_id: int, hand_no: int, stats: Sequence[HandStats],
                         ratings: Sequence[Rating]) -> None: ...
    async def leaderboard(self, guild_id: int, order: LeaderboardOrder, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[LeaderboardRow], int]: ...
    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None: ...
