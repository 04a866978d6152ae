"""The wording of engine events and results: one line per event, for the channel
(public events) or for one player (private ones); trump names, card lists, a hand's
result (RULES §2 "Scoring") and the rules of a preset, all from the engine's data."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.text.catalogue import has, say
from engine.actions import Event
from engine.cards import Card, parse_cards
from engine.scoring import ATTACKERS, NOBODY, HandResult

_SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def trump_name(locale: str | None, trump: str | None) -> str:
    if trump is None:
        return say(locale, "trump_unknown")
    if trump == "none":
        return say(locale, "no_trump")
    if trump in ("red", "black"):
        return say(locale, f"trump_{trump}")
    return _SUIT_SIGNS.get(trump, trump)


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def result_lines(locale: str | None, result: HandResult) -> list[str]:
    """What a player reads about a finished hand, without the next dealer: trick points,
    the kitty and its multiplier, the total, who goes up and by how much."""
    lines = [say(locale, "result_trick_points", points=result.trick_points)]
    if result.multiplier:
        lines.append(say(locale, "result_kitty_won", points=result.kitty_points,
                         multiplier=result.multiplier, delta=result.kitty_delta))
    elif result.kitty_delta:
        lines.append(say(locale, "result_kitty_subtracted", delta=-result.kitty_delta))
    else:
        lines.append(say(locale, "result_kitty_kept", points=result.kitty_points))
    lines.append(say(locale, "result_total", points=result.attacker_points))
    if result.side == NOBODY:
        lines.append(say(locale, "result_nobody_up"))
    else:
        key = "result_attackers_up" if result.side == ATTACKERS else "result_defenders_up"
        lines.append(say(locale, key, levels=result.levels,
                         def_old=result.old_levels[0].label, def_new=result.new_levels[0].label,
                         att_old=result.old_levels[1].label, att_new=result.new_levels[1].label))
    if result.notes:  # the engine's one note today: J到6 / 双J到底 dropped the defenders
        lines.append(say(locale, "result_j_fall", level=result.new_levels[0].label))
    return lines


def rules_text(locale: str | None, preset: str, options: Sequence[tuple[str, str]]) -> str:
    """A preset's options, one line each: the option as typed, its name, its value."""
    lines = [say(locale, "rules_title", preset=preset)]
    for option, value in options:
        if option == "preset":
            continue
        shown = {"True": say(locale, "yes"), "False": say(locale, "no")}.get(value, value)
        label = say(locale, f"rule_{option}") if has(f"rule_{option}") else ""
        lines.append(say(locale, "rules_line", option=option, label=label,
                         value=shown or say(locale, "rules_none")))
    return "\n".join(lines)


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
        if result is None:
            return None
        return "\n".join([*result_lines(locale, result),
                          say(locale, "result_next_dealer", name=name(result.next_dealer))])
    key = "ev_" + kind + ("_ruff" if params.get("ruff") else "")
    if not has(key):
        return None
    return say(locale, key, **params)
