"""Hand records, counting, ratings, leaderboards, history and export in every preset
(find-friends with 5 and 6 seats, friend found or not; three-bid; six), on SQLite and
PostgreSQL. Real ``engine.game.Game`` matches are played with seeded random legal play
(``engine.simulate``); what the store and the leaderboard say is checked against what the
engine's ``HandResult`` said."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest

from bot.ratings import Member, rate_hand
from bot.stats.counting import StatsCounter
from bot.stats.export import MatchExporter, replay_export
from bot.stats.hands import hand_record, seat_outcomes
from bot.stats.queries import StatsQueries
from bot.stats.settings import ServerSettingsService
from bot.store import (
    HandRecord,
    Rating,
    SeatRecord,
    Store,
    StoreError,
    bundled_migrations,
)
from bot.table_data import Table, TableSettings
from bot.tables import TableService
from bot.ui.leaderboard import history_text
from engine.actions import Action, CallFriends, Event, action_to_dict
from engine.cards import Card
from engine.game import CallingFriends, Dealing, Game, HandOver, MatchOver
from engine.rules import Ruleset, ruleset
from engine.scoring import ATTACKERS, DEFENDERS, HandResult
from engine.simulate import random_action
from engine.teams import Formation
from tests.bot.backends import Backend
from tests.bot.deciders import RandomDeciders

GUILD = 10
USERS = (101, 102, 103, 104, 105, 106)
Chooser = Callable[[Game, CallingFriends], CallFriends]


@pytest.fixture
async def store(backend: Backend):  # type: ignore[no-untyped-def,unused-ignore]
    opened = await backend.open()
    yield opened
    await opened.close()


def human(user: int) -> SeatRecord:
    return SeatRecord("human", user, f"P{user}")


def computer() -> SeatRecord:
    return SeatRecord("ai", None, "Bot", "normal")


# -- calling friends on purpose ----------------------------------------------------------------


def _copies(game: Game, phase: CallingFriends, card: Card) -> dict[int | None, int]:
    """Where the copies of ``card`` are: by seat, and None for the kitty."""
    out: dict[int | None, int] = {}
    for seat, hand in enumerate(phase.hands):
        if n := sum(1 for c in hand if c == card):
            out[seat] = n
    if n := sum(1 for c in phase.kitty if c == card):
        out[None] = n
    return out


def _distinct_cards(phase: CallingFriends) -> list[Card]:
    return sorted({c for hand in phase.hands for c in hand} | set(phase.kitty),
                  key=lambda c: c.index)


def call_nobody(game: Game, phase: CallingFriends) -> CallFriends:
    """Calls no play can answer: for a card in the kitty, a copy beyond those left to
    be played (one copy buried of two: "the second one played"). The dealer stays alone."""
    decks = game.rules.decks
    buried = sorted(set(phase.kitty), key=lambda c: c.index)[:game.rules.friends]
    copies = tuple(decks - sum(1 for c in phase.kitty if c == card) + 1 for card in buried)
    return CallFriends(phase.dealer, tuple(buried), copies)


def call_others(game: Game, phase: CallingFriends) -> CallFriends:
    """Cards neither the dealer holds nor the kitty has (someone else must play the first
    copy: every call finds a friend); first those whose copies all sit with one player,
    a different player for each card, so that each call finds a friend of its own."""
    dealer = phase.dealer
    sure: dict[int, Card] = {}
    others: list[Card] = []
    for card in _distinct_cards(phase):
        where = _copies(game, phase, card)
        if dealer in where or None in where:
            continue
        others.append(card)
        if len(where) == 1:
            sure.setdefault(next(iter(where)), card)  # type: ignore[arg-type]
    wanted = game.rules.friends
    cards = [sure[s] for s in sorted(sure)][:wanted]
    cards += [c for c in others if c not in cards][:wanted - len(cards)]
    assert len(cards) == wanted, "no card for a call that finds a friend in this deal"
    return CallFriends(dealer, tuple(cards), (1,) * wanted)


# -- playing a match into the store ------------------------------------------------------------


@dataclass
class Played:
    match_id: int
    rules: Ruleset
    seats: list[SeatRecord]
    results: list[HandResult] = field(default_factory=list)
    last_tricks: list[int | None] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)  # Game.hand_number of each scored hand
    winner: int | None = None


async def play(store: Store, counter: StatsCounter, rules: Ruleset, seats: list[SeatRecord],
               *, seed: int, hands: int, chooser: Chooser | None = None,
               channel: int = 1) -> Played:
    """Play ``hands`` hands (or to the match's end) of a real game, storing every action,
    every hand's record (as the table service does) and counting it."""
    match_id = await store.create_match(GUILD, channel, seed, rules.to_dict(), seats,
                                        ranked=True)
    played = Played(match_id, rules, seats)
    game = Game(rules, seed)
    rng = random.Random(seed)
    last_winner: int | None = None
    seq = 0
    while not isinstance(game.phase, MatchOver):
        phase = game.phase
        if isinstance(phase, HandOver) and len(played.results) >= hands:
            break
        action: Action | None
        if isinstance(phase, CallingFriends) and chooser is not None:
            action = chooser(game, phase)
        else:
            action = random_action(game, rng)
        assert action is not None
        events = game.apply(action)
        await store.append_action(match_id, seq, action_to_dict(action))
        seq += 1
        for ev in events:
            if ev.kind == "trick_won":
                last_winner = ev.seat
            elif ev.kind == "hand_scored":
                result: HandResult = ev.get("result")
                played.results.append(result)
                played.last_tricks.append(last_winner)
                played.numbers.append(game.hand_number)
                await store.record_hand(hand_record(match_id, game, result, last_winner))
                await counter.hand_recorded(match_id)
            elif ev.kind == "match_over":
                played.winner = ev.get("team")
                await store.finish_match(match_id, "finished", played.winner)
    if played.winner is None:
        await store.finish_match(match_id, "abandoned", None)
    return played


# -- what the engine said, per player ----------------------------------------------------------


@dataclass
class Expected:
    hands_defending: int = 0
    won_defending: int = 0
    hands_attacking: int = 0
    won_attacking: int = 0
    levels_gained: int = 0
    kitties: int = 0


def _went_up(result: HandResult, seat: int) -> bool:
    defending = seat in result.defenders
    return (result.side == DEFENDERS and defending) or (result.side == ATTACKERS
                                                        and not defending)


def expected_totals(games: list[Played]) -> dict[int, Expected]:
    """Each human's totals from the engine's results (the rules of docs/stats.md)."""
    out: dict[int, Expected] = {}
    for game in games:
        fixed = game.rules.teams is Formation.FIXED
        for result, last in zip(game.results, game.last_tricks, strict=True):
            seen: set[int] = set()
            for seat, record in enumerate(game.seats):
                if record.user_id is None or record.user_id in seen:
                    continue
                seen.add(record.user_id)
                mine = out.setdefault(record.user_id, Expected())
                up = _went_up(result, seat)
                if seat in result.defenders:
                    mine.hands_defending += 1
                    mine.won_defending += up
                else:
                    mine.hands_attacking += 1
                    mine.won_attacking += up
                    mine.kitties += result.multiplier > 0 and last == seat
                if up:
                    earned = result.changes[seat].earned
                    mine.levels_gained += result.levels if fixed else \
                        max(earned, result.levels) if result.winner_team == seat else earned
    return out


def expected_ratings(games: list[Played]) -> dict[int, Rating]:
    """The ratings openskill gives when each hand's actual sides are its teams."""
    ratings: dict[int, Rating] = {}
    for game in games:
        for result in game.results:
            sides: list[list[Member]] = [[], []]
            for seat, record in enumerate(game.seats):
                sides[0 if seat in result.defenders else 1].append(
                    Member(record.user_id, record.ai_level))
            winner = {DEFENDERS: 0, ATTACKERS: 1}.get(result.side)
            for new in rate_hand(sides, winner, ratings):
                ratings[new.user_id] = new
    return ratings


# -- the presets -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    rules: Ruleset
    seats: int  # how many of USERS sit (the rest: computers)
    seed: int
    hands: int
    chooser: Chooser | None = None
    sides: tuple[int, ...] = ()  # defenders per hand, in every hand (what the test is for)


CASES = {
    "find-friends-5-friend-found": Case(ruleset("find-friends"), 4, 11, 3, call_others,
                                        (2,)),
    "find-friends-5-alone": Case(ruleset("find-friends"), 5, 11, 3, call_nobody, (1,)),
    "find-friends-6-friends-found": Case(ruleset("find-friends", players=6, decks=3), 6, 5,
                                         2, call_others, (2, 3)),
    "find-friends-6-alone": Case(ruleset("find-friends", players=6, decks=3), 6, 5, 1,
                                 call_nobody, (1,)),
    "three-bid": Case(ruleset("three-bid"), 3, 7, 3, None, (1,)),
    "six": Case(ruleset("six"), 6, 3, 2, None, (3,)),
}


async def _services(store: Store) -> tuple[StatsCounter, StatsQueries, MatchExporter]:
    return (StatsCounter(store, ServerSettingsService(store)), StatsQueries(store),
            MatchExporter(store))


@pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))
async def test_every_hand_is_recorded_and_counted_as_the_engine_scored_it(
        store: Store, case: Case) -> None:
    counter, queries, exports = await _services(store)
    players = case.rules.players
    seats = [human(u) for u in USERS[:case.seats]] + \
        [computer() for _ in range(players - case.seats)]
    game = await play(store, counter, case.rules, seats, seed=case.seed, hands=case.hands,
                      chooser=case.chooser)
    assert game.results, "no hand was scored"
    if case.sides:  # the calls did what they were chosen for, in every hand
        assert {len(r.defenders) for r in game.results} <= set(case.sides)

    # the record of each hand is what the engine's HandResult said, seat by seat
    stored = await store.match_hands(game.match_id)
    seating = case.rules.seating
    assert [h.hand_no for h in stored] == game.numbers
    for hand, result in zip(stored, game.results, strict=True):
        assert hand.defenders == result.defenders and result.dealer in result.defenders
        assert hand.winner_side == {DEFENDERS: "defenders", ATTACKERS: "attackers"}.get(
            result.side, "none")
        assert hand.bid == result.bid
        assert [(c.before, c.after, c.reasons) for c in hand.seat_changes or ()] == [
            (c.old.label, c.new.label, c.reasons) for c in result.changes]
        for seat in range(players):  # levels per level holder agree with the seats
            holder = seating.holder(seat)
            assert hand.levels_before[holder] == result.changes[seat].old.label
            assert hand.levels_after[holder] == result.changes[seat].new.label
        if seating.formation is Formation.FIXED:
            assert hand.defenders_team == seating.fixed_team(result.dealer)
        else:
            assert (hand.defenders_team, hand.winner_team, hand.last_trick_team) == \
                (None, None, None)
            assert len(hand.levels_after) == players
        outcomes = seat_outcomes(seating, hand)
        assert [o.won for o in outcomes] == [_went_up(result, s) for s in range(players)]

    # the totals, the ratings and the leaderboard agree with the engine
    expected = expected_totals([game])
    ratings = expected_ratings([game])
    for user, want in expected.items():
        got = await queries.stats(GUILD, user)
        assert got is not None
        assert (got.hands_defending, got.won_defending, got.hands_attacking,
                got.won_attacking, got.levels_gained, got.kitties_captured) == (
            want.hands_defending, want.won_defending, want.hands_attacking,
            want.won_attacking, want.levels_gained, want.kitties), user
        assert got.rating is not None and got.rating.hands == len(game.results)
        assert got.rating.mu == pytest.approx(ratings[user].mu)
        assert got.rating.sigma == pytest.approx(ratings[user].sigma)
    board = (await queries.leaderboard(GUILD, "levels", 0)).rows
    assert {r.user_id: r.levels_gained for r in board} == {
        u: e.levels_gained for u, e in expected.items()}
    by_rating = (await queries.leaderboard(GUILD, "rating", 0)).rows
    assert [r.user_id for r in by_rating] == sorted(
        ratings, key=lambda u: (-ratings[u].score, u))
    assert await counter.catch_up() == 0  # counted exactly once

    # the export replays to the stored records; the history names everyone else
    document = json.loads(json.dumps(await exports.export(GUILD, game.match_id)))
    assert replay_export(document) == document["hands"]
    assert [h["defenders"] for h in document["hands"]] == [
        list(r.defenders) for r in game.results]
    first = USERS[0]
    [entry] = await queries.history(GUILD, first)
    assert entry.fixed_teams is (seating.formation is Formation.FIXED)
    if entry.fixed_teams:
        assert sorted(entry.partners + entry.opponents) == sorted(
            s.name for s in seats[1:])
    else:
        assert entry.others == [s.name for s in seats[1:]]
        assert entry.levels == (game.results[-1].changes[0].new.label,)
        assert f"own level {entry.levels[0]}" in history_text([entry], "P101", "en-US")


@pytest.mark.parametrize("preset, finish", [
    ("find-friends", "reach_ace"), ("find-friends", "pass_ace"), ("three-bid", "pass_ace"),
], ids=["find-friends-reach-ace", "find-friends-pass-ace", "three-bid-pass-ace"])
async def test_a_match_with_levels_by_player_is_won_by_one_seat(
        store: Store, preset: str, finish: str) -> None:
    """``MatchOver.winner_team`` is the winning seat where levels are individual: that
    seat's player wins the match, everyone else loses it; the winning hand counts its
    levels for the winner even where passing the top moves no rank."""
    counter, queries, _ = await _services(store)
    rules = ruleset(preset, level_ranks="K,A", finish=finish, must_play=())
    seats = [human(u) for u in USERS[:rules.players]]
    games = []
    for seed in range(1, 40):  # the first seed whose match ends within six hands
        games.append(await play(store, counter, rules, seats, seed=seed, hands=6,
                                channel=seed))
        if games[-1].winner is not None:
            break
    game = games[-1]
    assert game.winner is not None, "no match ended"
    final = game.results[-1]
    assert final.winner_team == game.winner
    [hand] = (await store.match_hands(game.match_id))[-1:]
    assert hand.seat_changes is not None and hand.seat_changes[game.winner].gained >= 1
    expected = expected_totals(games)
    for seat, user in enumerate(USERS[:rules.players]):
        stats = await queries.stats(GUILD, user)
        assert stats is not None and stats.won == (seat == game.winner)
        assert stats.levels_gained == expected[user].levels_gained
        history = await queries.history(GUILD, user)
        assert history[0].outcome == ("won" if seat == game.winner else "lost")
    wins = (await queries.leaderboard(GUILD, "wins", 0)).rows
    assert wins[0].user_id == USERS[game.winner] and wins[0].won == 1


# -- rows stored before migration 004 ----------------------------------------------------------


async def test_hands_stored_before_migration_004_still_read(empty_backend: Backend) -> None:
    """A four-seat hand written by the old schema reads, counts and exports from its
    teams after the upgrade."""
    old = bundled_migrations(empty_backend.dialect)[:3]  # type: ignore[arg-type]
    store = await empty_backend.open(migrations=old)
    seats = [human(101), human(102), computer(), computer()]
    match_id = await store.create_match(GUILD, 1, 5, ruleset("classic").to_dict(), seats,
                                        ranked=True)
    await store.close()
    result = json.dumps({})
    await empty_backend.raw(  # the old columns only: seat 1's team (1) went up two levels
        "INSERT INTO hands (match_id, hand_no, dealer, level, trump, defenders_team, "
        "attacker_points, kitty_multiplier, last_trick_team, last_trick_seat, winner_team, "
        "levels_gained, levels_before, levels_after, result, recorded_at) "
        "VALUES (?, 0, 0, '2', 'S', 0, 130, 2, 1, 1, 1, 2, ?, ?, ?, 0)",
        (match_id, '["2","2"]', '["2","4"]', result))
    await empty_backend.raw("UPDATE matches SET hands_played = 1 WHERE id = ?", (match_id,))
    store = await empty_backend.open()
    try:
        [hand] = await store.match_hands(match_id)
        assert (hand.defenders, hand.winner_side, hand.seat_changes) == (None, None, None)
        counter, queries, _ = await _services(store)
        assert await counter.catch_up() == 1
        ann, bea = await queries.stats(GUILD, 101), await queries.stats(GUILD, 102)
        assert ann is not None and bea is not None
        assert (ann.hands_defending, ann.won_defending, ann.levels_gained) == (1, 0, 0)
        assert (bea.hands_attacking, bea.won_attacking, bea.levels_gained,
                bea.kitties_captured) == (1, 1, 2, 1)
        outcomes = seat_outcomes(ruleset("classic").seating, hand)
        assert [(o.defending, o.before, o.after) for o in outcomes] == [
            (True, "2", "2"), (False, "2", "4"), (True, "2", "2"), (False, "2", "4")]
    finally:
        await store.close()


async def test_a_damaged_seat_record_is_named_and_stops_nothing_else(
        store: Store, backend: Backend) -> None:
    counter, queries, _ = await _services(store)
    game = await play(store, counter, ruleset("three-bid"), [human(u) for u in USERS[:3]],
                      seed=7, hands=1)
    await backend.damage("UPDATE hands SET seat_changes = '{\"x\": 1}' WHERE match_id = ?",
                         (game.match_id,))
    with pytest.raises(StoreError, match=r"corrupt row in hands \(match_id="):
        await store.match_hands(game.match_id)
    [entry] = await queries.history(GUILD, USERS[0])  # the history still answers
    assert entry.levels is None and entry.others == ["P102", "P103"]


def test_a_record_without_seats_in_a_match_without_fixed_teams_is_refused() -> None:
    hand = HandRecord(match_id=1, hand_no=0, dealer=0, level="2", trump=None,
                      defenders_team=None, attacker_points=0, kitty_multiplier=0,
                      last_trick_team=None, winner_team=None, levels_gained=0,
                      levels_before=["2"] * 3, levels_after=["2"] * 3, result={})
    with pytest.raises(StoreError, match="no fixed teams"):
        seat_outcomes(ruleset("three-bid").seating, hand)


# -- ratings with teams of unequal size ----------------------------------------------------------


def test_a_dealer_beating_four_alone_gains_more_than_a_pair_beating_three() -> None:
    alone = rate_hand([[Member(1)], [Member(u) for u in (2, 3, 4, 5)]], 0, {})
    paired = rate_hand([[Member(1), Member(6)], [Member(u) for u in (2, 3, 4)]], 0, {})
    assert alone[0].mu > paired[0].mu > 25
    assert all(r.mu < 25 for r in alone[1:])


# -- through the table service -----------------------------------------------------------------


class Quiet:
    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        pass

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        pass


def _actor_of(action: Action) -> int | None:
    return getattr(action, "seat", None)


def _given(action: Action) -> Callable[[int], Action]:
    return lambda _seat: action


@pytest.mark.parametrize("preset, options", [
    ("six", {"level_ranks": "K,A", "finish": "reach_ace"}),
    ("find-friends", {"level_ranks": "K,A", "finish": "reach_ace", "must_play": ""}),
    ("three-bid", {"level_ranks": "K,A", "finish": "reach_ace"}),
], ids=["six", "find-friends", "three-bid"])
async def test_the_table_service_records_and_counts_every_preset(
        store: Store, preset: str, options: dict[str, str]) -> None:
    """The table service's own hand record and counting (``TableService._derive``), with
    every seat's decision sent in as a player's."""
    counter, queries, _ = await _services(store)
    fast = TableSettings(turn_timer=3600, deal_pause=0, last_chance=0, hand_pause=0,
                         ai_pause=0, away_pause=3600)
    service = TableService(store, Quiet(), RandomDeciders(), default_settings=fast, seed=9,
                           stats=counter)
    users = USERS[:ruleset(preset).players]
    try:
        table = await service.create(channel_id=1, guild_id=GUILD, user_id=users[0],
                                     name="P101", preset=preset, options=dict(options),
                                     settings=fast)
        for seat, user in enumerate(users[1:], start=1):
            await service.join(1, user, f"P{user}", seat)
        await service.start(1, users[0])
        rng = random.Random(4)
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while table.status != "finished":
            assert loop.time() < end, "the match did not finish"
            game = table.game
            assert game is not None
            action = None if isinstance(game.phase, (Dealing, HandOver, MatchOver)) else \
                random_action(game, rng, declare_chance=0.0)
            actor = None if action is None else _actor_of(action)
            if action is None or actor is None:
                await asyncio.sleep(0.005)  # the clock deals and starts the next hand
                continue
            await service.act(1, users[actor], _given(action))
        assert table.match_id is not None
        while (match := await store.load_match(table.match_id)) is None \
                or match.status != "finished" \
                or await store.stats_progress(match.id) < match.hands_played:
            assert loop.time() < end, "the match was not stored as finished"
            await asyncio.sleep(0.01)
    finally:
        await service.close()
    assert table.match_id is not None
    hands = await store.match_hands(table.match_id)
    match = await store.load_match(table.match_id)
    assert match is not None and hands and match.winner_team is not None
    seating = ruleset(preset).seating
    # the match's winner: a level holder (the winning seat, or the winning fixed team)
    winners = {u for s, u in enumerate(users) if seating.holder(s) == match.winner_team}
    for seat, user in enumerate(users):
        stats = await queries.stats(GUILD, user)
        assert stats is not None and stats.won == (user in winners)
        mine = [o for h in hands for o in seat_outcomes(seating, h) if o.seat == seat]
        assert stats.hands_defending + stats.hands_attacking == len(hands)
        assert stats.hands_defending == sum(o.defending for o in mine)
        assert stats.levels_gained == sum(o.gained for o in mine)
    last = hands[-1]
    assert last.seat_changes is not None and last.defenders is not None
    assert last.result["match_winner"] == match.winner_team
