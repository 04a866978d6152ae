"""Ruleset options: typed, validated, serialisable (RULES.md §2-§4).

A :class:`Ruleset` holds rules only (no table or UI settings). Every option has a
name, a type, a default and the seed it comes from; a preset is a named set of
values (see ``presets.py``). ``Ruleset.to_dict`` / ``Ruleset.from_dict`` round-trip
through JSON, and every combination is checked when built.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.cards import Rank
from engine.errors import EngineError
from engine.order import SuitSystem
from engine.teams import Formation, Seating


class NoBid(enum.Enum):
    """What happens when nobody declares (RULES §2 option ``no_bid``)."""

    FLIP_KITTY = "flip_kitty"  # the suit of the kitty's last card (a joker: no trump)
    NO_TRUMP = "no_trump"  # 打无主


class DeclarationStyle(enum.Enum):
    LEVEL_CARDS = "level_cards"  # classic 翻主: level cards, or joker pairs for no trump
    JOKER_AND_PAIR = "joker_and_pair"  # changzhu 亮牌: joker shown + pair face down; 顶, 粘
    NONE = "none"  # three-bid: no declarations; the bid's winner names the trump


class PlayStyle(enum.Enum):
    CLASSIC = "classic"  # singles, pairs/triples, tractors, throws; shape obligations
    CHANGZHU = "changzhu"  # named patterns only (刮风 下雨 飘雪花 打雷 闪电), top-down follows


class KittyMultiplier(enum.Enum):
    EXPONENTIAL = "exponential"  # 2 ** cards in the largest component, at most 64
    LINEAR = "linear"  # cards in the largest component
    COUNT = "count"  # cards in the whole winning last play (seed 000)


class LevelTable(enum.Enum):
    AUTO = "auto"  # by the number of decks (RULES §2); halved for red-black
    CHANGZHU = "changzhu"  # RULES §3, with negative rows
    FIND_FRIENDS = "find_friends"  # RULES §5: 120 to take over, 60-point steps
    THREE_BID = "three_bid"  # RULES §6: the bid is the threshold


class Finish(enum.Enum):
    PASS_ACE = "pass_ace"  # win a hand as defenders at the top level
    REACH_ACE = "reach_ace"  # first team to reach the top level wins
    PAST_TOP = "past_top"  # an advance beyond the top level wins (changzhu: past K)


class KittyTaker(enum.Enum):
    DEALER = "dealer"
    PARTNER_IF_DEALER_DECLARED = "partner_if_dealer_declared"  # changzhu 庄家亮主成功


_CLASSIC_LEVELS = tuple(r for r in Rank if not r.is_joker)  # 2 .. A
_CHANGZHU_LEVELS = (Rank.ACE, *(r for r in Rank if Rank.TWO <= r <= Rank.KING))


#: A list option typed empty: ``none``, or the dash ``/shengji rules`` shows for it.
_NO_RANKS = ("none", "-", "—", "–")


def _rank_tuple(value: Any, name: str) -> tuple[Rank, ...]:
    shown = str(value)  # (as typed, in a refusal: not as the list it was split into)
    if isinstance(value, str):
        if value.strip().lower() in _NO_RANKS:
            return ()
        value = [v for v in value.replace(",", " ").split() if v]
    try:
        return tuple(v if isinstance(v, Rank) else Rank.parse(str(v)) for v in value)
    except (TypeError, EngineError):
        raise EngineError("bad_option", option=name, rule="bad_value", value=shown) from None


@dataclass(frozen=True)
class Ruleset:
    """Every rule that varies between the seeds. Build through ``presets.ruleset()``."""

    preset: str = "classic"
    players: int = 4  # seats (3-6)
    teams: Formation = Formation.FIXED  # how the sides form: fixed, called friends, a bid
    individual_levels: bool = False  # levels by player (find-friends, three-bid)
    friends: int = 0  # called friends per hand (find-friends: 1 with 5 players, 1-2 with 6)
    max_bid: int = 150  # three-bid: the highest (least brave) bid
    level_transfer: bool = False  # find-friends: levels a must-play rank stops may be passed on
    jack_kitty_penalty: bool = False  # find-friends (seed 002 item 5): J in the last trick
    ace_kitty_penalty: bool = False  # find-friends (seed 002 item 6): A in the last trick
    decks: int = 2  # 1-4 (classic)
    kitty_size: int = 8  # cards left after the deal; derived from players and decks
    suits: SuitSystem = SuitSystem.STANDARD  # red-black: two colour suits (seed 002)
    permanent_trumps: tuple[Rank, ...] = ()  # changzhu: 2, 3, 5 of every suit (常主)
    level_ranks: tuple[Rank, ...] = _CLASSIC_LEVELS  # the levels in order
    finish: Finish = Finish.PASS_ACE  # how a match ends
    must_play: tuple[Rank, ...] = ()  # 必打: an advance stops at these ranks (seed 002)
    j_must_play: bool = False  # 逢J必打 (seed 000): J is a must-play rank
    j_fall: bool = False  # J到6, 双J到底 (seed 000)
    declaration: DeclarationStyle = DeclarationStyle.LEVEL_CARDS
    hidden_bid: bool = False  # 暗叫 (seed 002): the suit is told to the declarer only
    no_bid: NoBid = NoBid.FLIP_KITTY  # nobody declared
    reinforce: bool = True  # a standing declarer may strengthen their own declaration
    wait_to_die: bool = False  # 等死 (seed 000): no reinforcing with a later joker
    play: PlayStyle = PlayStyle.CLASSIC
    throw_penalty: int = 0  # points per card taken back after a failed throw (0: none)
    kitty_taker: KittyTaker = KittyTaker.DEALER
    kitty_multiplier: KittyMultiplier = KittyMultiplier.EXPONENTIAL
    kitty_joker_points: bool = False  # changzhu: BJ 100, SJ 80 in the kitty only
    keep_kitty_subtracts: bool = False  # 保底 subtracts the kitty (changzhu)
    level_table: LevelTable = LevelTable.AUTO

    def __post_init__(self) -> None:
        self._validate()

    # -- derived --------------------------------------------------------------------

    @property
    def hand_size(self) -> int:
        return (54 * self.decks - self.kitty_size) // self.players

    @property
    def max_width(self) -> int:
        """The largest n-of-a-kind that counts as a unit: pairs, triples with 3 decks,
        quads with 4 (RULES §4 "Four decks")."""
        return min(self.copies, 4)

    @functools.cached_property
    def seating(self) -> Seating:
        """Who plays with whom (``engine.teams``)."""
        return Seating(self.players, self.teams, self.individual_levels, self.friends)

    @property
    def copies(self) -> int:
        """How many identical copies of a card exist (red-black: KH and KD are identical)."""
        return self.decks * (2 if self.suits is SuitSystem.RED_BLACK else 1)

    @property
    def must_play_ranks(self) -> frozenset[Rank]:
        extra = {Rank.JACK} if self.j_must_play else set()
        return frozenset(self.must_play) | extra

    # -- validation -----------------------------------------------------------------

    def _validate(self) -> None:
        # ``rule`` names the combination broken; the bot words it (engine_bad_option_<rule>)
        if not 3 <= self.players <= 6:
            raise EngineError("bad_option", option="players", rule="players_range")
        if self.teams is Formation.FIXED and self.players not in (4, 6):
            raise EngineError("bad_option", option="players", rule="fixed_players")
        if self.teams is Formation.CALLED:
            if self.players < 4:
                raise EngineError("bad_option", option="players", rule="called_players")
            if not 1 <= self.friends <= self.players // 2 - 1:
                raise EngineError("bad_option", option="friends", rule="friends_range",
                                  players=self.players, most=self.players // 2 - 1)
        elif self.friends:
            raise EngineError("bad_option", option="friends", rule="friends_need_called")
        if self.kitty_taker is KittyTaker.PARTNER_IF_DEALER_DECLARED and \
                self.teams is not Formation.FIXED:  # (the dealer's partner: a fixed team's)
            raise EngineError("bad_option", option="kitty_taker", rule="kitty_taker_teams")
        if self.teams is Formation.BID and self.declaration is not DeclarationStyle.NONE:
            raise EngineError("bad_option", option="declaration", rule="bid_declaration")
        wanted = {LevelTable.FIND_FRIENDS: Formation.CALLED, LevelTable.THREE_BID: Formation.BID}
        if self.level_table in wanted and self.teams is not wanted[self.level_table]:
            raise EngineError("bad_option", option="level_table", rule="table_teams",
                              table=self.level_table.value,
                              teams=wanted[self.level_table].value)
        if self.teams is not Formation.FIXED and not self.individual_levels:
            raise EngineError("bad_option", option="individual_levels",
                              rule="individual_levels")
        if self.teams is Formation.BID and (not 5 <= self.max_bid <= 100 * self.decks
                                            or self.max_bid % 5):
            raise EngineError("bad_option", option="max_bid", rule="max_bid_range",
                              most=100 * self.decks)
        if not 1 <= self.decks <= 4:
            raise EngineError("bad_option", option="decks", rule="decks_range")
        total = 54 * self.decks
        if self.kitty_size < 0 or (total - self.kitty_size) % self.players:
            raise EngineError("bad_option", option="kitty_size", rule="kitty_uneven",
                              cards=total, players=self.players)
        if self.hand_size < 1:
            raise EngineError("bad_option", option="kitty_size", rule="kitty_too_big")
        if self.throw_penalty < 0:
            raise EngineError("bad_option", option="throw_penalty", rule="penalty_negative")
        if self.throw_penalty > MAX_THROW_PENALTY:
            raise EngineError("bad_option", option="throw_penalty", rule="penalty_too_big",
                              most=MAX_THROW_PENALTY)
        if len(set(self.level_ranks)) != len(self.level_ranks) or len(self.level_ranks) < 2:
            raise EngineError("bad_option", option="level_ranks",
                              rule="level_ranks_distinct")
        for rank in self.must_play_ranks:
            if rank not in self.level_ranks:
                raise EngineError("bad_option", option="must_play", rule="must_play_level",
                                  rank=rank.label)
        if self.declaration is DeclarationStyle.JOKER_AND_PAIR and self.decks < 2:
            raise EngineError("bad_option", option="declaration", rule="joker_pair_decks")
        if self.play is PlayStyle.CHANGZHU and self.suits is not SuitSystem.STANDARD:
            raise EngineError("bad_option", option="play", rule="changzhu_suits")
        if self.suits is SuitSystem.RED_BLACK and self.decks != 1:
            raise EngineError("bad_option", option="suits", rule="red_black_decks")
        if self.level_table is LevelTable.CHANGZHU and self.decks != 2:
            raise EngineError("bad_option", option="level_table", rule="changzhu_decks")

    # -- serialisation --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = [v.label for v in value]
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        return cls().with_options(**data)

    def with_options(self, **overrides: Any) -> Ruleset:
        """A copy with options changed by name; values may be given as JSON/TOML text."""
        known = {f.name: f for f in fields(self) if not f.name.startswith("_")}
        converted: dict[str, Any] = {}
        for name, value in overrides.items():
            if name not in known:
                raise EngineError("bad_option", option=name, rule="unknown",
                                  choices=tuple(sorted(known)))
            converted[name] = _convert(name, value, getattr(self, name))
        if ("decks" in converted or "players" in converted) and "kitty_size" not in converted:
            converted["kitty_size"] = default_kitty_size(
                converted.get("players", self.players), converted.get("decks", self.decks),
                self.play)
        if "players" in converted and "friends" not in converted and \
                converted.get("teams", self.teams) is Formation.CALLED:
            converted["friends"] = max(1, converted["players"] // 2 - 1)
        return replace(self, **converted)

    def describe(self) -> list[tuple[str, str]]:
        """(option, value) pairs for people."""
        return [(k, ", ".join(v) if isinstance(v, list) else str(v))
                for k, v in self.to_dict().items()]


#: The largest ``throw_penalty``, points a card taken back: more than every deck's points
#: (400 in four decks), and a hand's points stay a database integer (a penalty of 10**30
#: made a hand that could not be stored).
MAX_THROW_PENALTY = 1000

#: Kitty sizes of RULES §2, §4-§6 by (players, decks).
_KITTY_SIZES = {(4, 1): 6, (4, 2): 8, (4, 3): 6, (4, 4): 8, (5, 2): 8, (5, 3): 7,
                (6, 3): 6, (3, 2): 6}


def default_kitty_size(players: int, decks: int, play: PlayStyle = PlayStyle.CLASSIC) -> int:
    if play is PlayStyle.CHANGZHU and players == 4 and decks == 2:
        return 4
    if (players, decks) in _KITTY_SIZES:
        return _KITTY_SIZES[players, decks]
    if players < 1:  # (no deal to even out: the ruleset's checks refuse the count)
        return 0
    # elsewhere the fewest cards (at least 4) that leave an even deal
    size = (54 * decks) % players
    while size < 4:
        size += players
    return size


def _convert(name: str, value: Any, current: Any) -> Any:
    try:
        if isinstance(current, bool):
            if isinstance(value, str):
                lowered = value.strip().lower()
                # (是/否: how ``/shengji rules`` shows a yes or no in Chinese)
                if lowered in ("true", "yes", "on", "1", "是"):
                    return True
                if lowered in ("false", "no", "off", "0", "否"):
                    return False
                raise ValueError(value)
            if isinstance(value, int) and value in (0, 1):  # (``1`` in a TOML file)
                return bool(value)
            if not isinstance(value, bool):
                raise ValueError(value)
            return value
        if isinstance(current, enum.Enum):
            if isinstance(value, type(current)):
                return value
            if name == "throw_penalty":
                raise ValueError(value)
            return type(current)(str(value).strip().lower().replace("-", "_"))
        if isinstance(current, int):
            if isinstance(value, str) and name == "throw_penalty" and value.lower() == "none":
                return 0
            if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
                raise ValueError(value)  # (not 1.5 taken as 1, nor infinity overflowing)
            return int(value)
        if isinstance(current, tuple):
            return _rank_tuple(value, name)
        if isinstance(current, str):
            return str(value)
    except (ValueError, TypeError):
        if isinstance(current, enum.Enum):
            raise EngineError("bad_option", option=name, rule="bad_choice", value=str(value),
                              choices=tuple(m.value for m in type(current))) from None
        raise EngineError("bad_option", option=name, rule="bad_value", value=str(value)) from None
    return value


__all__ = [
    "DeclarationStyle", "Finish", "KittyMultiplier", "KittyTaker", "LevelTable", "NoBid",
    "PlayStyle", "Ruleset", "default_kitty_size",
]
