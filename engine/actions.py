"""Game actions and events as data (no prose; the bot turns them into text).

An action is what a seat (or the table's clock, for ``Deal``/``EndDeal``/``NextHand``)
asks the game to do. Every accepted action is appended to the game's log; the same
seed and log rebuild the same game. An event is what happened, with its audience:
``None`` for everyone, else the one seat that may see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.cards import Card, format_cards, parse_cards
from engine.errors import EngineError
from engine.values import build


@dataclass(frozen=True)
class Deal:
    """Deal the next ``count`` cards, one at a time in seat order."""

    count: int = 1


@dataclass(frozen=True)
class Declare:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ReturnCards:
    """回牌: the seat that stuck gives cards back (changzhu)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class EndDeal:
    """The last chance to declare is over."""


@dataclass(frozen=True)
class Bury:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class SwapKitty:
    """changzhu: the declarer gives side cards and takes kitty trumps of the same ranks.
    Both empty: no swap."""

    seat: int
    give: tuple[Card, ...] = ()
    take: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Play:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class NextHand:
    """Start the next hand after a hand has been scored."""


@dataclass(frozen=True)
class CallFriends:
    """find-friends: after burying, the dealer names the called cards and, for each,
    which copy counts (1: the first one played). ``cards[i]`` goes with ``copies[i]``."""

    seat: int
    cards: tuple[Card, ...]
    copies: tuple[int, ...]


@dataclass(frozen=True)
class Bid:
    """three-bid: the attackers' threshold ``points`` this seat would defend alone."""

    seat: int
    points: int


@dataclass(frozen=True)
class PassBid:
    """three-bid: no (lower) bid; a seat that passed bids no more."""

    seat: int


@dataclass(frozen=True)
class NameTrump:
    """three-bid: the dealer names the trump suit (S H D C) or "none" after burying."""

    seat: int
    trump: str


@dataclass(frozen=True)
class Transfer:
    """find-friends ``level_transfer``: where the levels a must-play rank stopped go:
    ``target`` a teammate (they go up) or an opponent (they go down); None: nowhere."""

    seat: int
    target: int | None = None


@dataclass(frozen=True)
class AnswerTransfer:
    """``level_transfer``: a teammate offered levels accepts them or refuses (a winner may
    refuse a gift)."""

    seat: int
    accept: bool


Action = (Deal | Declare | ReturnCards | EndDeal | Bury | SwapKitty | Play | NextHand
          | CallFriends | Bid | PassBid | NameTrump | Transfer | AnswerTransfer)
_ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in
                                  (Deal, Declare, ReturnCards, EndDeal, Bury, SwapKitty, Play,
                                   NextHand, CallFriends, Bid, PassBid, NameTrump, Transfer,
                                   AnswerTransfer)}
#: Fields that hold text or numbers rather than cards.
_PLAIN_FIELDS = {"trump", "copies", "target", "points", "seat", "count", "accept"}


def action_to_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(action).__name__}
    for name, value in vars(action).items() if hasattr(action, "__dict__") else ():
        if isinstance(value, tuple):
            value = list(value) if name in _PLAIN_FIELDS else format_cards(value)
        out[name] = value
    return out


def action_from_dict(data: dict[str, Any]) -> Action:
    kind = data.get("type")
    cls = _ACTION_TYPES.get(str(kind))
    if cls is None:
        raise EngineError("bad_action", action=str(kind))
    kwargs: dict[str, Any] = {}
    try:
        for name, value in data.items():
            if name == "type":
                continue
            if name == "trump":
                kwargs[name] = str(value)
            elif name == "accept":
                kwargs[name] = bool(value)
            elif isinstance(value, list):
                kwargs[name] = tuple(int(v) for v in value)
            elif value is None and name == "target":
                kwargs[name] = None
            elif isinstance(value, str) and name not in _PLAIN_FIELDS:
                kwargs[name] = tuple(parse_cards(value))
            else:
                kwargs[name] = int(value)
        return cls(**kwargs)  # type: ignore[no-any-return]
    except (TypeError, ValueError):
        raise EngineError("bad_action", action=str(kind)) from None


@dataclass(frozen=True)  # built by ``event`` without ``__init__`` (engine/values.py)
class Event:
    """Something that happened. ``audience`` None: public; else only that seat."""

    kind: str
    audience: int | None = None
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.data).get(key, default)


def event(kind: str, *, audience: int | None = None, seat: int | None = None,
          cards: tuple[Card, ...] | list[Card] = (), **data: Any) -> Event:
    items = tuple(data.items())
    return build(Event, {"kind": kind, "audience": audience, "seat": seat,
                         "cards": tuple(cards),
                         "data": tuple(sorted(items)) if len(items) > 1 else items})
