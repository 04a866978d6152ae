"""Run rules scenarios (TOML, format in shared/scenarios/FORMAT.md) against the engine.

Console script: ``shengji-scenarios PATH...`` (files or folders). Prints ``PASS name`` or
``FAIL name: what differed`` per file and exits 1 if any failed or could not be read.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.actions import (
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    Declare,
    EndDeal,
    Event,
    NameTrump,
    NextHand,
    PassBid,
    Play,
    ReturnCards,
    Transfer,
)
from engine.cards import Rank, Suit, parse_card, parse_cards, typed
from engine.errors import EngineError
from engine.game import Burying, Game, HandOver, MatchOver, Playing, Transferring
from engine.order import Colour
from engine.rules import ruleset


class ScenarioFailure(Exception):
    pass


@dataclass
class Outcome:
    name: str
    ok: bool
    detail: str = ""


#: A suit also written as its symbol, as the cards may be (RULES' card notation).
_SUIT_SYMBOLS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}


def _trump_text(text: str) -> str:
    """A trump as written ("H", "♥", "♥️", "none", "red"), in the one form compared: "h"."""
    t = typed(text).strip().lower()
    return _SUIT_SYMBOLS.get(t, t)


def _trump(text: str) -> Suit | Colour | None:
    t = _trump_text(text)
    if t == "none":
        return None
    if t in ("red", "black"):
        return Colour(t)
    return Suit(t.upper())


def build(data: dict[str, Any]) -> Game:
    rules = ruleset(data.get("preset", "classic"), **data.get("options", {}))
    pos = data["position"]
    level = Rank.parse(str(pos["level"]))
    hands = [parse_cards(h) for h in pos["hands"]]
    if len(hands) != rules.players:
        raise ScenarioFailure(f"{len(hands)} hands for {rules.players} players")
    levels = None
    if "levels" in pos:
        given = pos["levels"]  # (a team not named plays the hand's level)
        levels = (Rank.parse(str(given.get("defenders", pos["level"]))),
                  Rank.parse(str(given.get("attackers", pos["level"]))))
    seat_levels = None
    if "seat_levels" in pos:
        seat_levels = [Rank.parse(str(r)) for r in pos["seat_levels"]]
        if len(seat_levels) != rules.players:
            raise ScenarioFailure(f"{len(seat_levels)} seat_levels for {rules.players} "
                                  "players")
    stage = pos.get("phase", "play")
    common: dict[str, Any] = {"level": level, "hands": hands, "levels": levels,
                              "seat_levels": seat_levels,
                              "kitty": parse_cards(pos.get("kitty", ""))}
    if stage == "deal":
        dealer = None if pos.get("first_hand") else int(pos.get("dealer", 0))
        return Game.from_position(rules, dealer=dealer, stage="deal",
                                  may_declare=pos.get("may_declare"),
                                  fallback_dealer=pos.get("fallback_dealer"), **common)
    if stage == "bid":
        dealer = None if pos.get("first_hand") else int(pos.get("dealer", 0))
        return Game.from_position(rules, dealer=dealer, stage="bid", **common)
    calls = [(parse_card(str(c["card"])), int(c.get("copy", 1))) for c in pos.get("calls", [])]
    return Game.from_position(
        rules, trump=_trump(str(pos.get("trump", "none"))),
        dealer=int(pos.get("dealer", 0)), leader=pos.get("leader"), stage=stage,
        attacker_points=int(pos.get("attacker_points", 0)), calls=calls,
        friends=[int(f) for f in pos.get("friends", [])],
        bid=int(pos["bid"]) if "bid" in pos else None, **common)


def _action(step: dict[str, Any], game: Game) -> Any:
    if step.get("end_deal"):
        return EndDeal()
    if step.get("next_hand"):
        return NextHand()
    pending = getattr(game.phase, "pending_return", None)
    if "seat" not in step and "return" in step and pending is not None:
        seat = pending[0]  # (only the sticker returns cards: the seat goes without saying)
    else:
        seat = int(step["seat"])
    for key, cls in (("play", Play), ("declare", Declare), ("return", ReturnCards),
                     ("bury", Bury)):
        if key in step:
            return cls(seat, tuple(parse_cards(step[key])))
    if "call" in step:
        calls = step["call"]
        return CallFriends(seat, tuple(parse_card(str(c["card"])) for c in calls),
                           tuple(int(c.get("copy", 1)) for c in calls))
    if "bid" in step:
        return Bid(seat, int(step["bid"]))
    if step.get("pass"):
        return PassBid(seat)
    if "name_trump" in step:
        return NameTrump(seat, str(step["name_trump"]))
    if "transfer" in step:
        target = step["transfer"]
        return Transfer(seat, None if target == "none" else int(target))
    if "accept_transfer" in step:
        return AnswerTransfer(seat, bool(step["accept_transfer"]))
    raise ScenarioFailure(f"step has no play, declare, return, call, bid, pass, name_trump, "
                          f"transfer, end_deal or next_hand: {step}")


def _same_cards(a: str, b: Sequence[Any]) -> bool:
    return sorted(str(c) for c in parse_cards(a)) == sorted(str(c) for c in b)


def run_steps(game: Game, steps: list[dict[str, Any]]) -> None:
    for number, step in enumerate(steps, 1):
        where = f"step {number}"
        expect = step.get("expect", "ok")
        action = _action(step, game)
        before = game.fingerprint()
        try:
            events = game.apply(action)
        except EngineError as exc:
            if expect != "illegal":
                raise ScenarioFailure(f"{where}: refused ({exc.code}: {exc.message}), "
                                      f"expected {expect}") from None
            if game.fingerprint() != before:
                raise ScenarioFailure(f"{where}: refused but the state changed") from None
            _check(game, step, [], where)  # (checks are tested after any step)
            continue
        if expect == "illegal":
            raise ScenarioFailure(f"{where}: {action} was accepted, expected illegal")
        failed = [e for e in events if e.kind == "throw_failed"]
        if expect == "throw_failed":
            if not failed:
                raise ScenarioFailure(f"{where}: the throw stood, expected it to fail")
            if "forced" in step and not _same_cards(step["forced"],
                                                     parse_cards(failed[0].get("forced"))):
                raise ScenarioFailure(f"{where}: forced {failed[0].get('forced')}, expected "
                                      f"{step['forced']}")
        elif failed:
            raise ScenarioFailure(f"{where}: the throw failed (forced "
                                  f"{failed[0].get('forced')}), expected it to stand")
        _check(game, step, events, where)


def _check(game: Game, step: dict[str, Any], events: list[Event], where: str) -> None:
    def differ(what: str, got: Any, want: Any) -> None:
        if got != want:
            raise ScenarioFailure(f"{where}: {what} is {got}, expected {want}")

    won = [e for e in events if e.kind == "trick_won"]
    if "trick_winner" in step or "trick_points" in step:
        if not won:
            raise ScenarioFailure(f"{where}: no trick was completed")
        if "trick_winner" in step:
            differ("trick winner", won[0].seat, step["trick_winner"])
        if "trick_points" in step:
            differ("trick points", won[0].get("points"), step["trick_points"])
    phase = game.phase
    result = phase.result if isinstance(phase, (HandOver, Transferring, MatchOver)) else None
    if "attacker_points" in step:
        got = result.attacker_points if result else getattr(phase, "attacker_points", None)
        differ("attacker points", got, step["attacker_points"])
    hand_keys = ("kitty_multiplier", "level_change", "next_dealer", "next_levels",
                 "seat_levels", "reasons", "next_declarers", "final_defenders")
    if any(k in step for k in hand_keys):
        if result is None:
            raise ScenarioFailure(f"{where}: the hand has not ended")
        if "kitty_multiplier" in step:
            differ("kitty multiplier", result.multiplier, step["kitty_multiplier"])
        if "level_change" in step:
            change = step["level_change"]
            differ("level change", (result.side, result.levels),
                   (change["side"], int(change.get("levels", 0))))
        if "next_dealer" in step:
            differ("next dealer", result.next_dealer, step["next_dealer"])
        if "next_levels" in step:  # (either team may go unnamed, as in ``levels``)
            want = step["next_levels"]
            teams = [team for team in ("defenders", "attackers") if team in want]
            got = dict(zip(("defenders", "attackers"), result.new_levels, strict=True))
            differ("next levels", {team: got[team].label for team in teams},
                   {team: Rank.parse(str(want[team])).label for team in teams})
        if "seat_levels" in step:
            differ("seat levels", [game.state.level_of(s).label for s in range(game.players)],
                   [str(r) for r in step["seat_levels"]])
        if "reasons" in step:
            for seat_key, want_reasons in step["reasons"].items():
                change = result.changes[int(seat_key)]
                differ(f"seat {seat_key}'s reasons", list(change.reasons), list(want_reasons))
        if "next_declarers" in step:
            differ("next declarers", list(result.next_declarers), list(step["next_declarers"]))
        if "final_defenders" in step:
            differ("defenders", list(result.defenders), sorted(step["final_defenders"]))
    kinds = [e.kind for e in events]
    if "friend_found" in step:
        found = [e.seat for e in events if e.kind == "friend_found"]
        differ("friend found", found[0] if found else None, step["friend_found"])
    if "call_spent" in step:
        differ("call spent", "call_spent" in kinds, bool(step["call_spent"]))
    if "defenders" in step:
        sides = game.state.sides()
        differ("known defenders", sorted(sides.defenders) if sides else None,
               sorted(step["defenders"]))
    if "redeal" in step:
        differ("re-deal", "redeal" in kinds, bool(step["redeal"]))
    if "phase" in step:
        differ("phase", phase.name, step["phase"])
    if "turn" in step:
        turn = getattr(phase, "turn", None)
        if isinstance(phase, Transferring):
            turn = phase.offers[0][0] if phase.asked is None else phase.asked
        differ("turn", turn, step["turn"])
    standing = getattr(phase, "standing", None)
    if not hasattr(standing, "seat"):  # (three-bid's standing is a bid: no declaration)
        standing = None
    if "trump" in step:
        got_trump = ("none" if standing.trump is None else standing.trump.value) if standing \
            else None
        if isinstance(phase, (Burying, Playing)) and game.state.trump_known_by():
            got_trump = "none" if phase.ctx.trump is None else phase.ctx.trump.value
        differ("trump", str(got_trump).lower(), _trump_text(str(step["trump"])))
    if "declarer" in step:  # (once the deal is over, the phase names its declarer)
        differ("declarer", standing.seat if standing else getattr(phase, "declarer", None),
               step["declarer"])
    if "trump_known_by" in step:
        differ("seats knowing the trump", sorted(game.trump_known_by()),
               sorted(step["trump_known_by"]))
    if "dealer" in step:
        differ("dealer", getattr(phase, "dealer", None), step["dealer"])
    if "kitty_taker" in step:
        differ("kitty taker", getattr(phase, "taker", None), step["kitty_taker"])


def run_file(path: Path) -> Outcome:
    name = path.stem
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        name = f"{path.parent.name}/{path.stem}"
        game = build(data)
        run_steps(game, data.get("step", []))
    except ScenarioFailure as exc:
        return Outcome(name, False, str(exc))
    except EngineError as exc:
        return Outcome(name, False, f"could not set up: {exc.message}")
    except (OSError, tomllib.TOMLDecodeError, KeyError, ValueError, TypeError) as exc:
        return Outcome(name, False, f"could not read: {type(exc).__name__}: {exc}")
    except Exception as exc:  # (one file that breaks the runner fails alone, not the run)
        return Outcome(name, False, f"could not run: {type(exc).__name__}: {exc}")
    return Outcome(name, True)


def scenario_files(paths: Sequence[str | Path]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(path.rglob("*.toml"))
        else:
            yield path


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: shengji-scenarios PATH... (scenario files or folders)", file=sys.stderr)
        return 2
    files = list(scenario_files(args))
    if not files:
        print("no scenario files found in " + " ".join(args), file=sys.stderr)
        return 1
    failed = 0
    for path in files:
        outcome = run_file(path)
        if outcome.ok:
            print(f"PASS {outcome.name}")
        else:
            failed += 1
            print(f"FAIL {outcome.name}: {outcome.detail}")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
