"""The wording of engine events, results and refusals: one line per event, for the
channel (public events) or for one player (private ones); trump names, card lists,
declarations, a hand's result (RULES §2 "Scoring"), the reason an action was refused
and the rules of a preset, all from the engine's data (the engine writes no prose)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.text.catalogue import SOURCE, has, language, say
from engine.actions import Event
from engine.bidding import CHANGZHU_TIERS
from engine.cards import Card, parse_cards
from engine.scoring import ATTACKERS, NOBODY, HandResult
from engine.views import SeatView

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


def declaration_text(locale: str | None, kind: str, size: int, shown: Sequence[Card]) -> str:
    """A declaration as the table sees it: its cards face up; changzhu's jokers and the
    count face down (亮 顶 粘 粘顶); or, while the suit is hidden, how many cards."""
    if kind in CHANGZHU_TIERS:
        return say(locale, f"decl_{kind}", jokers=cards_text(shown), count=size - len(shown))
    if not shown:
        return say(locale, "decl_hidden_jokers" if kind == "jokers" else "decl_hidden_level",
                   count=size)
    return cards_text(shown)


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
    if result.bid is not None or result.next_declarers:  # levels by player
        for change in result.changes:
            if change.old != change.new:
                why = "、" if language_is_chinese(locale) else ", "
                lines.append(say(locale, "result_change", seat=change.seat + 1,
                                 old=change.old.label, new=change.new.label,
                                 reasons=why.join(say(locale, f"reason_{r}")
                                                  for r in change.reasons)))
    for note in result.notes:
        lines.append(say(locale, f"result_{note.code}",
                         level=note.level.label if note.level else ""))
    return lines


def language_is_chinese(locale: str | None) -> bool:
    return language(locale) != SOURCE


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


def call_text(locale: str | None, card: Card, copy: int) -> str:
    """One call as the table reads it: "the first ♥A played"."""
    return say(locale, "call_text", card=card.pretty, copy=copy_word(locale, copy))


def copy_word(locale: str | None, copy: int) -> str:
    """Which copy: "first", "second"… (a copy past the words: its number)."""
    return say(locale, f"copy_{copy}") if has(f"copy_{copy}") else str(copy)


def calls_text(locale: str | None, cards: Sequence[Card], copies: Sequence[int]) -> str:
    return _listed(locale, [call_text(locale, card, copy)
                            for card, copy in zip(cards, copies, strict=True)])


def describe_event(locale: str | None, ev: Event, names: Sequence[str], *,
                   by_player: bool = False) -> str | None:
    """One line for an event, or None for events shown otherwise (deal ticks, turns).
    ``by_player``: the match is won by a player (levels by player), not a team."""
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
        if by_player:
            return say(locale, "ev_match_over_player", name=name(params.get("team")))
        params["team"] = int(params.get("team", 0)) + 1
    elif kind == "redeal":
        params["dealer"] = name(params.get("dealer"))
    elif kind == "friends_called":
        params["calls"] = calls_text(locale, ev.cards, params.get("copies", ()))
    elif kind in ("friend_found", "call_spent") and ev.cards:
        params["card"] = ev.cards[0].pretty
        params["copy"] = copy_word(locale, int(params.get("copy", 1)))
    elif kind in ("transfer_offered", "levels_transferred", "transfer_refused",
                  "penalty_taken"):
        params["target"], params["giver"] = name(params.get("target")), \
            name(params.get("giver"))
        if kind == "levels_transferred":
            kind += "_up" if params.get("up") else "_down"
        elif kind == "penalty_taken" and params.get("penalty") == "ace":
            kind += "_ace"
    elif kind == "declared":
        params["text"] = declaration_text(locale, str(params.get("declaration", "")),
                                          int(params.get("cards_shown", 0)), ev.cards)
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


def phase_status(locale: str | None, view: SeatView, names: Sequence[str]) -> str | None:
    """The table's status in the phases of the games whose sides form in the hand (the
    bidding with its standing bid, calling friends, naming the trump, the level
    transfer), and the calls during play; None for the other phases. From the public
    view only: it says nothing of who a friend is before the friend is found."""
    def name(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    turn = name(view.turn)
    if view.phase == "bid":
        standing = next((s for s, p in reversed(view.bids) if p is not None), None)
        if view.bid is None:
            max_bid = view.rules.max_bid if view.rules else 0
            return say(locale, "status_bid_none", name=turn, max_bid=max_bid)
        return say(locale, "status_bid", name=turn, points=view.bid, bidder=name(standing))
    if view.phase == "call":
        return say(locale, "status_call", name=turn)
    if view.phase == "name_trump":
        return say(locale, "status_name_trump", name=turn, points=view.bid)
    if view.phase == "transfer" and view.transfers:
        giver, levels = view.transfers[0]
        if view.penalty is not None:
            return say(locale, "status_penalty" if view.penalty == "jack"
                       else "status_penalty_ace", name=turn, levels=levels)
        if view.turn != giver:
            return say(locale, "status_transfer_asked", name=turn, giver=name(giver),
                       levels=levels)
        return say(locale, "status_transfer", name=turn, levels=levels)
    if view.phase == "play" and view.calls:
        return say(locale, "status_play", name=turn) + " " + calls_status(locale, view, names)
    return None


def calls_status(locale: str | None, view: SeatView, names: Sequence[str]) -> str:
    """The called cards and, for each call answered, who played it."""
    parts = []
    for card, copy, by in view.calls:
        called = call_text(locale, card, copy)
        parts.append(called if by is None else
                     say(locale, "call_answered", call=called, name=names[by]))
    return say(locale, "calls_line", calls=_listed(locale, parts))


def match_over_status(locale: str | None, winner: int, names: Sequence[str], *,
                      by_player: bool) -> str:
    """The table's status once the match is won: by a team, or by a player."""
    if by_player:
        name = names[winner] if 0 <= winner < len(names) else "?"
        return say(locale, "status_match_over_player", name=name)
    return say(locale, "status_match_over", team=winner + 1)


def _suit_words(locale: str | None, suit: str) -> str:
    """An effective suit as a refusal names it (``TrumpContext.suit_label``)."""
    if suit == "trump":
        return say(locale, "suit_trumps")
    if suit in ("red", "black"):
        return say(locale, f"trump_{suit}")
    return suit


def _listed(locale: str | None, items: Sequence[Any]) -> str:
    return ("、" if language_is_chinese(locale) else ", ").join(str(i) for i in items)


def reason_params(locale: str | None, params: dict[str, Any]) -> dict[str, Any]:
    """An engine refusal's parameters as its text shows them: seats from 1, cards, suits,
    phases, actions and declarations worded, lists joined."""
    shown = dict(params)
    for key in ("turn", "seat"):
        if isinstance(shown.get(key), int):
            shown[key] += 1
    if isinstance(shown.get("seats"), (list, tuple)):
        shown["seats"] = _listed(locale, [s + 1 for s in shown["seats"]])
    for key in ("choices", "presets"):
        if isinstance(shown.get(key), (list, tuple)):
            shown[key] = _listed(locale, shown[key])
    for key in ("phase", "action"):
        if isinstance(shown.get(key), str) and has(f"{key}_{shown[key]}"):
            shown[key] = say(locale, f"{key}_{shown[key]}")
    if isinstance(shown.get("suit"), str):
        shown["suit"] = _suit_words(locale, shown["suit"])
    if isinstance(shown.get("cards"), (list, tuple)):
        shown["cards"] = cards_text(shown["cards"])
    if "declaration" in shown and "shown" in shown:  # too_weak: the standing declaration
        shown["declaration"] = declaration_text(locale, str(shown["declaration"]),
                                                int(shown.get("size", 0)), shown.pop("shown"))
    return shown


def reason_key(code: str, params: dict[str, Any]) -> str:
    """The catalogue key of a refusal: ``engine_<code>_<case>`` for a code with several
    cases (its ``rule``, ``task`` or ``where``), else ``engine_<code>``."""
    for case in ("rule", "task", "where"):
        value = params.get(case)
        if isinstance(value, str) and has(f"engine_{code}_{value}"):
            return f"engine_{code}_{value}"
    return f"engine_{code}"


def engine_reason(locale: str | None, code: str | None,
                  params: dict[str, Any] | None = None) -> str:
    """The reason for an engine refusal (``EngineError``), worded from its code and
    parameters. The engine writes no sentences: a code the catalogue lacks (a test says
    there is none) gets a general line naming the code."""
    given = params or {}
    key = reason_key(code or "", given)
    if code and has(key):
        return say(locale, key, **reason_params(locale, given))
    return say(locale, "engine_refused", code=code or "?")
