"""The wording of engine events and results: one line per event, for the channel
(public events) or for one player (private ones); trump names and card lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.text.catalogue import EN, say
from engine.actions import Event
from engine.cards import Card, parse_cards

_SUIT_NAMES = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "red": "red (♥♦)",
               "black": "black (♠♣)"}


def trump_name(locale: str | None, trump: str | None) -> str:
    if trump is None:
        return say(locale, "trump_unknown")
    if trump == "none":
        return say(locale, "no_trump")
    return _SUIT_NAMES.get(trump, trump)


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def describe_event(locale: str | None, ev: Event, names: Sequence[str]) -> str | None:
    """One line for an event, or None for events shown otherwise (deal ticks, turns)."""
    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = ev.kind
    params: dict[str, Any] = dict(ev.data)
    params["name"] = name(ev.seat)
    if ev.cards:
        params["cards"] = cards_text(ev.cards)
    if kind in ("stuck", "returned"):
        params["victim"] = name(params.get("victim"))
    elif kind == "deal_ended":
        params["dealer"], params["taker"] = name(params["dealer"]), name(params["taker"])
    elif kind == "trump":
        params["trump"] = trump_name(locale, params.get("trump"))
    elif kind == "hand_started":
        params["dealer"] = name(params.get("dealer"))
        params["number"] = int(params.get("number", 0)) + 1
    elif kind == "match_over":
        params["team"] = int(params.get("team", 0)) + 1
    elif kind == "throw_failed":
        params["forced"] = cards_text(parse_cards(params.get("forced", "")))
    elif kind == "hand_scored":
        result = params.get("result")
        return "\n".join(result.explain()) if result is not None else None
    key = "ev_" + kind + ("_ruff" if params.get("ruff") else "")
    if key not in EN:
        return None
    return say(locale, key, **params)
