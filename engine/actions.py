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


Action = Deal | Declare | ReturnCards | EndDeal | Bury | SwapKitty | Play | NextHand
_ACTION_TYPES: dict[str, type] = {cls.__name__: cls for cls in
                                  (Deal, Declare, ReturnCards, EndDeal, Bury, SwapKitty, Play,
                                   NextHand)}


def action_to_dict(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(action).__name__}
    for name, value in vars(action).items() if hasattr(action, "__dict__") else ():
        out[name] = format_cards(value) if isinstance(value, tuple) else value
    return out


def action_from_dict(data: dict[str, Any]) -> Action:
    kind = data.get("type")
    cls = _ACTION_TYPES.get(str(kind))
    if cls is None:
        raise EngineError("bad_action", f"unknown action type {kind!r}")
    kwargs: dict[str, Any] = {}
    try:
        for name, value in data.items():
            if name == "type":
                continue
            kwargs[name] = tuple(parse_cards(value)) if isinstance(value, str) else int(value)
        return cls(**kwargs)  # type: ignore[no-any-return]
    except (TypeError, ValueError) as exc:
        raise EngineError("bad_action", f"malformed {kind} action: {exc}") from None


@dataclass(frozen=True)
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
    return Event(kind, audience, seat, tuple(cards), tuple(sorted(data.items())))
