"""The hand panel in the phases of the games whose sides form in the hand (RULES §5
find-friends, §6 three-bid): the controls offered are the decisions the engine accepts
(bids and Pass, the trumps to name, the calls, where stopped levels go), only the seat
that decides gets them, and nobody else's panel or the table's status says more than the
public view. Also the table's lines for these events, in every language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bot.services import Services
from bot.table_data import Seat, Table, TableSettings
from bot.text.catalogue import say
from bot.text.events import describe_event, phase_status
from bot.ui.decisions import CallDraft, accepts, draft_of
from bot.ui.panels import build_panel
from bot.ui.render import ThreadPictures, seat_names, status_line
from engine.actions import (
    AnswerTransfer,
    Bid,
    Bury,
    CallFriends,
    Deal,
    EndDeal,
    Event,
    NameTrump,
    PassBid,
    Play,
    Transfer,
    event,
)
from engine.cards import Rank, Suit, parse_card, parse_cards
from engine.game import Bidding, Burying, CallingFriends, Game, NamingTrump, Transferring
from engine.rules import ruleset
from engine.views import seat_view
from tests.engine.test_games import ace_kitty, j_tractor_kitty

USERS = 100  # seat i is played by user USERS + i


class Desk:
    """The table service as the panel reads it, over one game (no store, no clock)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def view_for(self, channel_id: int, user_id: int) -> tuple[Table, int, Any]:
        seat = self.table.seat_of(user_id)
        assert seat is not None and self.table.game is not None
        return self.table, seat, seat_view(self.table.game, seat)


class Notes:
    def take_private(self, channel_id: int, user_id: int) -> list[str]:
        return []


def _table(game: Game, preset: str, options: dict[str, Any] | None = None) -> Table:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"][:game.players]
    return Table(1, 2, USERS, preset, dict(options or {}), TableSettings(),
                 [Seat("human", USERS + i, n) for i, n in enumerate(names)],
                 status="playing", game=game)


def _services(table: Table) -> Services:
    return Services(Desk(table), Notes(), None, None, None, None,  # type: ignore[arg-type]
                    TableSettings(), ThreadPictures(), None)  # type: ignore[arg-type]


async def _panel(table: Table, seat: int, locale: str = "en-US", progress: Any = None
                 ) -> tuple[str, list[dict[str, Any]]]:
    """The seat's panel: its text and its controls as Discord receives them."""
    text, _file, ui = await build_panel(_services(table), 1, USERS + seat, locale, progress)
    controls = [c for row in ui.to_components() for c in row["components"]]
    assert len(ui.to_components()) <= 5  # Discord's limit of rows
    return text, controls


def _ids(controls: Sequence[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [c for c in controls if c["custom_id"].startswith(prefix)]


def _targets(buttons: Sequence[dict[str, Any]]) -> list[str]:
    """The transfer buttons' targets, as their custom ids end (a seat, or "none")."""
    return [c["custom_id"].rsplit(":", 1)[1] for c in buttons]


def _dealt(preset: str, seed: int, **options: Any) -> Game:
    game = Game(ruleset(preset, **options), seed)
    while game.phase.stock:
        game.apply(Deal(game.players))
    game.apply(EndDeal())
    return game


def _bury(game: Game) -> None:
    phase = game.phase
    assert isinstance(phase, Burying)
    game.apply(Bury(phase.taker, phase.hands[phase.taker][:phase.kitty_size]))


def _offered_bids(controls: Sequence[dict[str, Any]]) -> set[int]:
    buttons = {int(c["custom_id"].rsplit(":", 1)[1]) for c in _ids(controls, "sj:bid:")
               if not c["custom_id"].endswith(":pass")}
    menus = {int(o["value"]) for c in _ids(controls, "sj:bidm:") for o in c["options"]}
    assert buttons <= menus  # the quick buttons are also in the menus
    return menus


# -- three-bid: bidding ----------------------------------------------------------------------

@pytest.mark.parametrize(("standing", "expected"), [
    (None, set(range(5, 151, 5))),  # RULES §6: steps of 5, at most max_bid 150
    (100, set(range(5, 100, 5))),  # lower than the standing bid
    (10, {5}),
], ids=["first-bid", "under-a-bid", "near-the-floor"])
async def test_the_seat_to_bid_is_offered_every_bid_the_engine_accepts_and_pass(
        standing: int | None, expected: set[int]) -> None:
    game = _dealt("three-bid", 11)
    if standing is not None:
        game.apply(Bid(game.phase.turn, standing))
    phase = game.phase
    assert isinstance(phase, Bidding)
    table = _table(game, "three-bid")
    _, controls = await _panel(table, phase.turn)
    offered = _offered_bids(controls)
    assert offered == expected
    assert offered == {p for p in range(0, 300) if accepts(game.state, Bid(phase.turn, p))}
    assert [c["label"] for c in _ids(controls, "sj:bid:") if c["custom_id"].endswith("pass")] \
        == ["Pass"]
    for other in set(range(3)) - {phase.turn}:  # the others wait, with no bid control
        text, others = await _panel(table, other)
        assert not _ids(others, "sj:bid")
        assert say("en", "waiting_for", status=status_line(table)) in text


async def test_the_standing_bid_is_on_the_table_and_the_panels() -> None:
    game = _dealt("three-bid", 11)
    first = game.phase.turn
    game.apply(Bid(first, 120))
    table = _table(game, "three-bid")
    names = seat_names(table)
    expected = say("en", "status_bid", name=names[game.phase.turn], points=120,
                   bidder=names[first])
    assert status_line(table) == expected
    text, _ = await _panel(table, game.phase.turn)
    assert expected in text


async def test_the_bid_winner_names_the_trump_from_the_engines_choices() -> None:
    game = _dealt("three-bid", 11)
    bidder = game.phase.turn
    game.apply(Bid(bidder, 100))
    game.apply(PassBid(game.phase.turn))
    game.apply(PassBid(game.phase.turn))
    _bury(game)
    assert isinstance(game.phase, NamingTrump)
    table = _table(game, "three-bid")
    text, controls = await _panel(table, bidder, "zh-CN")
    (menu,) = _ids(controls, "sj:trumpm:")
    assert [o["value"] for o in menu["options"]] == ["S", "H", "D", "C", "none"]
    assert all(accepts(game.state, NameTrump(bidder, o["value"])) for o in menu["options"])
    assert say("zh-CN", "hint_name_trump", points=100) in text
    for other in set(range(3)) - {bidder}:
        _, others = await _panel(table, other)
        assert not _ids(others, "sj:trumpm:")


# -- find-friends: calling -------------------------------------------------------------------

async def test_the_dealer_calls_from_menus_and_call_waits_for_a_complete_call() -> None:
    game = _dealt("find-friends", 4)
    _bury(game)
    phase = game.phase
    assert isinstance(phase, CallingFriends)
    dealer = phase.dealer
    table = _table(game, "find-friends")
    text, controls = await _panel(table, dealer)
    assert say("en", "hint_call", count=1) in text
    groups = _ids(controls, "sj:cf:g:")[0]["options"]
    assert [o["label"] for o in groups] == ["♠", "♥", "♦", "♣", "Jokers"]
    cards = _ids(controls, "sj:cf:c:")[0]["options"]
    assert [o["value"] for o in cards] == [str(c) for c in parse_cards(
        "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH")]
    copies = _ids(controls, "sj:cf:k:")[0]["options"]
    assert [o["value"] for o in copies] == ["1", "2"]  # two decks: the first or second
    (call,) = _ids(controls, "sj:cf:ok:")
    assert call["disabled"]
    ready = CallDraft.empty(1).pick(parse_card("AH")).copy(2)
    text, controls = await _panel(table, dealer, progress=ready)
    (call,) = _ids(controls, "sj:cf:ok:")
    assert not call.get("disabled")
    assert say("en", "call_draft_line", calls="the second ♥A played") in text
    assert accepts(game.state, CallFriends(dealer, (parse_card("AH"),), (2,)))


async def test_six_players_edit_each_of_two_calls_and_three_copies() -> None:
    game = _dealt("find-friends", 4, players=6, decks=3)
    _bury(game)
    dealer = game.phase.dealer
    table = _table(game, "find-friends", {"players": 6, "decks": 3})
    draft = CallDraft.empty(2).pick(parse_card("AS"))
    _, controls = await _panel(table, dealer, progress=draft)
    assert [c["label"] for c in _ids(controls, "sj:cf:f")] == ["Friend 1", "Friend 2"]
    assert [o["value"] for o in _ids(controls, "sj:cf:k:")[0]["options"]] == ["1", "2", "3"]
    assert _ids(controls, "sj:cf:ok:")[0]["disabled"]  # the second call has no card yet
    # the same copy twice: the engine refuses it, so Call stays off
    twice = CallDraft((parse_card("AS"), parse_card("AS")), (1, 1))
    _, controls = await _panel(table, dealer, progress=twice)
    assert _ids(controls, "sj:cf:ok:")[0]["disabled"]
    both = CallDraft((parse_card("AS"), parse_card("AS")), (1, 2))
    _, controls = await _panel(table, dealer, progress=both)
    assert not _ids(controls, "sj:cf:ok:")[0].get("disabled")


@pytest.mark.parametrize("draft", [
    CallDraft.empty(1), CallDraft.empty(2).pick(parse_card("10H")).copy(3),
    CallDraft((parse_card("BJ"), None), (2, 1), 1, "J"),
], ids=["empty", "ten-third", "joker-second-call"])
def test_a_call_being_made_survives_its_custom_id(draft: CallDraft) -> None:
    calls, editing, group = draft.text().split(":")
    assert draft_of(calls, editing, group) == draft
    assert len(f"sj:cf:ok:{2**63}:999999:{draft.text()}") <= 100


@pytest.mark.parametrize("text", ["", "XX1", "AH", "AH1:", "AH1.ZZ9"])
def test_a_forged_call_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        draft_of(text, "0", "H")


async def test_nobody_else_is_told_anything_about_the_friend() -> None:
    game = _dealt("find-friends", 4)
    _bury(game)
    dealer = game.phase.dealer
    called = parse_card("AH")
    holder = next(s for s in range(5) if s != dealer and called in game.phase.hands[s])
    table = _table(game, "find-friends")
    text, controls = await _panel(table, holder)
    assert not _ids(controls, "sj:cf")
    game.apply(CallFriends(dealer, (called,), (1,)))
    table.game = game
    for seat in set(range(5)) - {dealer}:
        text, controls = await _panel(table, seat)
        assert "friend" not in text.lower()
        assert say("en", "calls_line", calls="the first ♥A played") in text
        assert not _ids(controls, "sj:cf")
    assert "friend" not in status_line(table).lower()


async def test_the_friend_found_is_on_the_table_at_once() -> None:
    rules = ruleset("find-friends")
    hands = [parse_cards(h) for h in ("3H", "AH", "4H", "5H", "6H")]
    game = Game.from_position(rules, level=Rank.TWO, trump=Suit.SPADES, dealer=0,
                              hands=hands, calls=[(parse_card("AH"), 1)])
    table = _table(game, "find-friends")
    game.apply(Play(0, tuple(hands[0])))
    found = [e for e in game.apply(Play(1, tuple(hands[1]))) if e.kind == "friend_found"]
    assert len(found) == 1
    names = seat_names(table)
    assert describe_event("en", found[0], names) == \
        "2. Bob played ♥A (the first one called): 2. Bob is the dealer's friend!"
    assert status_line(table).endswith(say("en", "calls_line", calls=say(
        "en", "call_answered", call="the first ♥A played", name=names[1])))


# -- find-friends: the level transfer ----------------------------------------------------------

def _transferring(*, friend: bool) -> Game:
    """Seat 0 defends at 10 and wins 12 levels; J (must-play) stops 11 of them. With a
    friend (seat 1, who plays the called ♥A), the friend gains too."""
    rules = ruleset("find-friends", level_transfer=True)
    hands = [parse_cards(h) for h in ("AS", "AH" if friend else "3H", "4H", "5H", "6H")]
    game = Game.from_position(rules, level=Rank.TEN, trump=Suit.SPADES, dealer=0,
                              hands=hands, seat_levels=[Rank.TEN] + [Rank.FIVE] * 4,
                              calls=[(parse_card("AH"), 1)], kitty=parse_cards("3D 4D"))
    for seat in range(5):
        game.apply(Play(seat, tuple(hands[seat])))
    assert isinstance(game.phase, Transferring)
    return game


async def test_the_chooser_is_offered_every_target_the_engine_accepts() -> None:
    game = _transferring(friend=True)
    chooser = game.phase.offers[0][0]
    table = _table(game, "find-friends", {"level_transfer": True})
    text, controls = await _panel(table, chooser)
    buttons = _ids(controls, "sj:tr:")
    targets = _targets(buttons)
    accepted = [str(t) for t in range(5) if accepts(game.state, Transfer(chooser, t))]
    assert targets == [*accepted, "none"]
    names = seat_names(table)
    defenders = game.phase.result.defenders
    for button, target in zip(buttons, targets, strict=True):
        if target == "none":
            assert button["label"] == "Let them go"
        elif int(target) in defenders:
            assert button["label"] == f"Give to {names[int(target)]}"
        else:
            assert button["label"] == f"Take off {names[int(target)]}"
    levels = game.phase.offers[0][1]
    assert say("en", "hint_transfer", levels=levels) in text
    for other in set(range(5)) - {chooser}:
        _, others = await _panel(table, other)
        assert not _ids(others, "sj:tr")


async def test_a_teammate_offered_levels_accepts_or_refuses() -> None:
    game = _transferring(friend=True)
    chooser, levels = game.phase.offers[0]
    friend = next(s for s in game.phase.result.defenders if s != chooser)
    game.apply(Transfer(chooser, friend))
    table = _table(game, "find-friends", {"level_transfer": True})
    text, controls = await _panel(table, friend)
    assert [c["label"] for c in _ids(controls, "sj:tra:")] == ["Accept", "Refuse"]
    assert accepts(game.state, AnswerTransfer(friend, True))
    assert say("en", "hint_answer_transfer", giver=seat_names(table)[chooser],
               levels=levels) in text
    _, others = await _panel(table, chooser)
    assert not _ids(others, "sj:tr")


# -- the table's lines --------------------------------------------------------------------------

NAMES = ["1. Ann", "2. Bob", "3. Cy", "4. Di", "5. Ed"]


@pytest.mark.parametrize(("ev", "locale", "expected"), [
    (event("bidding", seat=1, max_bid=150), "en-US",
     "Bidding: 2. Bob bids first (a threshold of at most 150; lower is braver)."),
    (event("bid", seat=0, points=95), "zh-CN", "1. Ann 叫 95 分。"),
    (event("bid_passed", seat=2), "en-US", "3. Cy passes."),
    (event("bid_won", seat=0, points=95), "zh-TW",
     "1. Ann 以 95 分叫得莊家，一人坐莊：抓分方要得 95 分。"),
    (event("redeal", dealer=1, number=1), "en-US",
     "Everybody passed: the cards are dealt again, 2. Bob deals."),
    (event("friends_called", seat=0, cards=parse_cards("AH KS"), copies=(2, 1)), "en-US",
     "1. Ann calls friends: the second ♥A played, the first ♠K played."),
    (event("friends_called", seat=0, cards=parse_cards("AH"), copies=(1,)), "zh-CN",
     "1. Ann 叫朋友：第一张出的♥A。"),
    (event("call_spent", seat=0, cards=parse_cards("AH"), copy=1), "en-US",
     "1. Ann played ♥A (the first one called): no new friend."),
    (event("friend_found", seat=2, cards=parse_cards("KS"), copy=2), "zh-CN",
     "3. Cy 出了叫的第二张♠K：3. Cy 是庄家的朋友！"),
    (event("trump", trump="H", level="7"), "en-US", "Trump: ♥, level 7."),
    (event("transfer_offered", seat=0, target=3, levels=2), "en-US",
     "1. Ann offers 4. Di 2 levels."),
    (event("levels_transferred", seat=0, target=3, levels=1, up=True, level="J"), "en-US",
     "4. Di takes 1 level from 1. Ann: now at J."),
    (event("levels_transferred", seat=0, target=2, levels=3, up=False, level="4"), "zh-CN",
     "1. Ann 让 3. Cy 降 3 级：降到 4。"),
    (event("transfer_refused", seat=3, giver=0, levels=2), "en-US",
     "4. Di refuses the 2 levels 1. Ann offered."),
    (event("levels_kept", seat=4, levels=1), "zh-TW", "5. Ed 放棄被擋住的 1 級。"),
], ids=lambda v: v.kind if isinstance(v, Event) else None)
def test_every_new_event_has_its_line(ev: Event, locale: str, expected: str) -> None:
    assert describe_event(locale, ev, NAMES) == expected


def test_a_match_won_by_a_player_names_the_player() -> None:
    ev = event("match_over", team=3)
    assert describe_event("en", ev, NAMES, by_player=True) == "4. Di wins the match!"
    assert describe_event("en", ev, NAMES) == "Team 4 wins the match!"


def test_the_status_of_a_transfer_names_who_decides() -> None:
    game = _transferring(friend=False)
    view = seat_view(game, None)
    assert phase_status("en", view, NAMES) == \
        "1. Ann decides where 11 stopped levels go."


async def _naming_panel(table: Table, namer: int) -> tuple[str, list[dict[str, Any]]]:
    """The panel of the seat naming who takes a kitty penalty's levels: its text and its
    buttons; no other seat has the choice."""
    text, controls = await _panel(table, namer)
    for other in range(len(table.seats)):
        if other != namer:
            _, others = await _panel(table, other)
            assert not _ids(others, "sj:tr")
    return text, _ids(controls, "sj:tr:")


async def test_a_friend_names_who_takes_the_a_penalty_s_levels_it_could_not_lose() -> None:
    game = ace_kitty([Rank.ACE, Rank.FOUR, Rank.THREE, Rank.SIX, Rank.TWO, Rank.FIVE])
    table = _table(game, "find-friends", {"players": 6, "decks": 3, "ace_kitty_penalty": True})
    names = seat_names(table)
    text, buttons = await _naming_panel(table, 2)  # the dealer and friend 4 wait
    # every opponent above the first level, the kitty's winner (1) too, then seat order
    assert _targets(buttons) == ["1", "3", "5", "none"]
    assert [c["label"] for c in buttons][-1] == "In seat order"
    assert say("en", "hint_penalty_ace", levels=2) in text
    assert phase_status("en", seat_view(game, None), names) == \
        f"{names[2]} names who takes 2 levels of the A penalty."
    events = game.apply(Transfer(2, 3))
    (taken,) = [e for e in events if e.kind == "penalty_taken"]
    assert describe_event("zh-CN", taken, names) == f"A 抠底：{names[3]} 陪降 2 级，降到 4。"
    # then the other friend's 3
    text, buttons = await _naming_panel(table, 4)
    assert say("en", "hint_penalty_ace", levels=3) in text
    assert _targets(buttons) == ["1", "3", "5", "none"]


async def test_the_dealer_names_who_takes_the_j_penalty_s_levels() -> None:
    game = j_tractor_kitty([Rank.JACK, Rank.KING, Rank.THREE, Rank.SIX, Rank.FIVE])
    table = _table(game, "find-friends", {"jack_kitty_penalty": True})
    names = seat_names(table)
    text, buttons = await _naming_panel(table, 0)
    # the opponents above the first level but the kitty's winner, then seat order
    assert _targets(buttons) == ["3", "4", "none"]
    assert [c["label"] for c in buttons] == [f"Take off {names[3]}", f"Take off {names[4]}",
                                             "In seat order"]
    assert say("en", "hint_penalty", levels=14) in text
    assert phase_status("en", seat_view(game, None), NAMES) == \
        f"{NAMES[0]} names who takes 14 levels of the J penalty."
    # the dealer names seat 4 (5 → 2), then must name again: seat 3 only
    events = game.apply(Transfer(0, 4))
    (taken,) = [e for e in events if e.kind == "penalty_taken"]
    assert describe_event("en", taken, names) == \
        f"J penalty: {names[4]} goes down 3 levels, to 2."
    _, buttons = await _naming_panel(table, 0)
    assert _targets(buttons) == ["3", "none"]
