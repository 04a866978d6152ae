"""Stats, ratings, leaderboards, history, export and server settings (bot/stats/,
bot/ratings.py, bot/ui/leaderboard.py and the store's stats methods), on real matches in a
real database: each test that takes ``store`` runs on SQLite and on PostgreSQL
(tests/bot/conftest.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from bot.errors import BotError
from bot.ratings import COMPUTER, Member, display, new_rating, rate_hand
from bot.stats.counting import StatsCounter, hand_stats
from bot.stats.export import MatchExporter, replay_export
from bot.stats.queries import PAGE_SIZE, StatsQueries
from bot.stats.settings import ServerSettings, ServerSettingsService, parse_option_text
from bot.store import (
    FORMER_PLAYER,
    HandRecord,
    MatchRecord,
    Rating,
    SeatRecord,
    Store,
    StoreError,
)
from bot.table_data import Table, TableSettings
from bot.tables import TableService
from bot.ui.leaderboard import history_text, lb_custom_id, leaderboard_view, settings_text
from engine.actions import Event
from tests.bot.backends import Backend
from tests.bot.deciders import RandomDeciders

GUILD, OTHER = 10, 20
ANN, BEA, CAL, DON = 101, 102, 103, 104
SHORT = {"level_ranks": "K,A", "finish": "reach_ace"}  # one hand decides the match
AWAY = TableSettings().scaled(0.0)  # no pauses: every human's turn goes to a computer


class Stats:
    """The stats services over one store, wired as the bot wires them."""

    def __init__(self, store: Store) -> None:
        self.settings = ServerSettingsService(store)
        self.counter = StatsCounter(store, self.settings)
        self.queries = StatsQueries(store)
        self.exports = MatchExporter(store)


class Quiet:
    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        pass

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        pass


@pytest.fixture
async def store(backend: Backend):  # type: ignore[no-untyped-def]
    opened = await backend.open()
    yield opened
    await opened.close()


def human(user: int) -> SeatRecord:
    return SeatRecord("human", user, f"P{user}")


def bot(level: str = "easy") -> SeatRecord:
    return SeatRecord("ai", None, "Bot", level)


async def play_match(service: TableService, guild: int, channel: int,
                     users: Sequence[int | None]) -> Table:
    """A real match through the TableService: ``users`` by seat (None: a computer)."""
    host = users[0]
    assert host is not None
    table = await service.create(channel_id=channel, guild_id=guild, user_id=host,
                                 name=f"P{host}", preset="classic", options=dict(SHORT),
                                 settings=AWAY)
    for seat, user in enumerate(users[1:], start=1):
        if user is None:
            await service.add_ai(channel, host, seat)
        else:
            await service.join(channel, user, f"P{user}", seat)
    await service.start(channel, host)
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while table.status != "finished":
        assert loop.time() < end, "the match did not finish"
        await asyncio.sleep(0.01)
    # the table says finished first, then the store is told: wait for it
    while (match := await service.store.load_match(table.match_id)) is None \
            or match.status != "finished":
        assert loop.time() < end, "the match was not stored as finished"
        await asyncio.sleep(0.01)
    return table


def service_for(store: Store, stats: Stats, seed: int = 3) -> TableService:
    return TableService(store, Quiet(), RandomDeciders(), default_settings=AWAY, seed=seed,
                        stats=stats.counter if stats else None)


# -- ranked -------------------------------------------------------------------------------


@pytest.mark.parametrize("seats, computers_ranked, ranked", [
    ([human(ANN), human(BEA), human(CAL), human(DON)], False, True),
    ([human(ANN), bot(), human(CAL), bot()], True, True),
    ([human(ANN), bot(), human(CAL), bot()], False, False),
    ([human(ANN), bot(), human(ANN), bot()], True, False),
], ids=["four-humans", "computers-allowed", "computers-forbidden", "one-user-two-seats"])
async def test_a_table_is_ranked_unless_settings_forbid_its_computers(
        store: Store, seats: list[SeatRecord], computers_ranked: bool, ranked: bool
) -> None:
    stats = Stats(store)
    await stats.settings.update(GUILD, computers_ranked=computers_ranked)
    assert await stats.counter.ranked(GUILD, seats) is ranked


# -- per-hand stats -------------------------------------------------------------------------


def _match(seats: list[SeatRecord]) -> MatchRecord:
    return MatchRecord(1, GUILD, 5, 7, {}, seats, "playing", None, datetime.now(UTC), None,
                       0, True)


def _hand(**changes: object) -> HandRecord:
    fields: dict[str, object] = {
        "match_id": 1, "hand_no": 0, "dealer": 0, "level": "K", "trump": "S",
        "defenders_team": 0, "attacker_points": 90, "kitty_multiplier": 2,
        "last_trick_team": 1, "winner_team": 1, "levels_gained": 1,
        "levels_before": ["K", "K"], "levels_after": ["K", "A"], "result": {},
        "last_trick_seat": 3}
    fields.update(changes)
    return HandRecord(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("hand, expected", [
    (_hand(), {ANN: (True, False, 0, False), BEA: (False, True, 1, True)}),
    (_hand(winner_team=0, last_trick_team=0, kitty_multiplier=0, last_trick_seat=0,
           attacker_points=20),
     {ANN: (True, True, 1, False), BEA: (False, False, 0, False)}),
    (_hand(last_trick_seat=1), {ANN: (True, False, 0, False), BEA: (False, True, 1, False)}),
    (_hand(winner_team=None, levels_gained=0),
     {ANN: (True, False, 0, False), BEA: (False, False, 0, True)}),
], ids=["attackers-go-up-and-capture", "defenders-go-up", "partner-captured-the-kitty",
        "nobody-goes-up"])
def test_a_hand_counts_role_result_levels_and_kitty_per_human(
        hand: HandRecord, expected: dict[int, tuple[bool, bool, int, bool]]) -> None:
    # Ann (seat 0) deals with a computer partner; Bea (seat 3) attacks with a computer
    got = hand_stats(_match([human(ANN), bot(), bot(), human(BEA)]), hand)
    assert {h.user_id: (h.defending, h.won, h.levels_gained, h.kitty_captured)
            for h in got} == expected


# -- ratings ----------------------------------------------------------------------------------


def test_winners_go_up_and_losers_down_partnered_with_computers() -> None:
    teams = [[Member(ANN), Member(None, "easy")], [Member(BEA), Member(None, "hard")]]
    new = {r.user_id: r for r in rate_hand(teams, 0, {})}
    assert set(new) == {ANN, BEA}  # computers are never rated
    assert new[ANN].mu > 25 > new[BEA].mu
    assert display(new[ANN]) > display(None) > display(new[BEA])
    assert new[ANN].sigma < new_rating(ANN).sigma and new[ANN].hands == 1


def test_beating_a_stronger_team_moves_more() -> None:
    strong = {BEA: Rating(BEA, 35.0, 3.0, 50)}
    upset = {r.user_id: r for r in rate_hand([[Member(ANN)], [Member(BEA)]], 0, strong)}
    expected = {r.user_id: r for r in rate_hand([[Member(ANN)], [Member(BEA)]], 1, strong)}
    assert upset[ANN].mu - 25 > 25 - expected[ANN].mu > 0


@pytest.mark.parametrize("teams, winner", [
    ([[Member(ANN)], [Member(ANN)]], 0),
    ([[Member(None, "easy")], [Member(None, "hard")]], 1),
], ids=["one-user-on-both-teams", "computers-only"])
def test_a_hand_without_a_fair_human_contest_rates_nobody(teams: list[list[Member]],
                                                         winner: int) -> None:
    assert rate_hand(teams, winner, {}) == []


def test_a_draw_moves_equal_players_equally() -> None:
    new = {r.user_id: r for r in rate_hand([[Member(ANN)], [Member(BEA)]], None, {})}
    assert new[ANN].mu == pytest.approx(new[BEA].mu) and set(COMPUTER) >= {"easy"}


# -- real matches: counted once, leaderboards, history, export ---------------------------------


async def test_real_matches_are_counted_once_and_shown_per_server(store: Store) -> None:
    stats = Stats(store)
    service = service_for(store, stats)
    try:
        tables = [await play_match(service, GUILD, 1, [ANN, BEA, None, None]),
                  await play_match(service, GUILD, 2, [ANN, None, CAL, None]),
                  await play_match(service, OTHER, 3, [DON, ANN, None, None])]
    finally:
        await service.close()
    hands = {t.match_id: await store.match_hands(t.match_id) for t in tables}  # type: ignore[index]
    assert all(len(h) >= 1 for h in hands.values())
    # counting again (a restart's catch-up) changes nothing
    before = await stats.queries.stats(GUILD, ANN)
    assert await stats.counter.catch_up() == 0
    assert await stats.queries.stats(GUILD, ANN) == before

    # Ann's record in GUILD equals what the stored hands say, and nothing from OTHER
    ann = await stats.queries.stats(GUILD, ANN)
    assert ann is not None
    mine = [(m, h) for t in tables[:2] for m in [await store.load_match(t.match_id)]
            for h in hands[t.match_id]]  # type: ignore[index]
    seat_of = {m.id: next(i for i, s in enumerate(m.seats) if s.user_id == ANN)
               for m, _ in mine}
    defending = [(m, h) for m, h in mine if seat_of[m.id] % 2 == h.defenders_team]
    assert ann.hands_defending == len(defending)
    assert ann.hands_attacking == len(mine) - len(defending)
    assert ann.won_defending + ann.won_attacking == sum(
        h.winner_team == seat_of[m.id] % 2 for m, h in mine)
    assert ann.levels_gained == sum(h.levels_gained for m, h in mine
                                    if h.winner_team == seat_of[m.id] % 2)
    finished = [await store.load_match(t.match_id) for t in tables[:2]]  # type: ignore[arg-type]
    assert ann.played == ann.ranked_played == 2
    assert ann.won == sum(m.winner_team == seat_of[m.id] % 2 for m in finished if m)
    assert ann.rating is not None and ann.rating.hands == len(mine)

    # leaderboards list this server's humans only, never a computer or another server
    for order in ("rating", "wins", "levels"):
        page = await stats.queries.leaderboard(GUILD, order, 0)
        assert {r.user_id for r in page.rows} == {ANN, BEA, CAL}, order
        other = await stats.queries.leaderboard(OTHER, order, 0)
        assert {r.user_id for r in other.rows} == {ANN, DON}, order
    board = (await stats.queries.leaderboard(GUILD, "rating", 0)).rows
    assert [r.rating.score for r in board] == sorted((r.rating.score for r in board),  # type: ignore[union-attr]
                                                      reverse=True)

    # history: newest first, with partners and results
    history = await stats.queries.history(GUILD, ANN)
    assert [e.match_id for e in history] == [tables[1].match_id, tables[0].match_id]
    assert (history[0].partners, history[0].opponents) == (["P103"], ["Bot 2", "Bot 4"])
    assert (history[1].partners, history[1].opponents) == (["Bot 3"], ["P102", "Bot 4"])
    assert await stats.queries.history(GUILD, DON) == []

    # export: only here, only when over, and it replays to the stored results exactly
    for table in tables[:2]:
        document = json.loads(json.dumps(await stats.exports.export(GUILD, table.match_id)))  # type: ignore[arg-type]
        assert replay_export(document) == document["hands"]
        assert len(document["hands"]) == len(hands[table.match_id])  # type: ignore[index]
    with pytest.raises(BotError) as refused:
        await stats.exports.export(OTHER, tables[0].match_id)  # type: ignore[arg-type]
    assert refused.value.key == "no_match"


async def test_a_hand_left_uncounted_by_a_crash_is_counted_at_start_up(
        store: Store) -> None:
    stats = Stats(store)
    service = service_for(store, None)  # type: ignore[arg-type]
    service.stats = None  # the bot "died" before counting
    try:
        table = await play_match(service, GUILD, 1, [ANN, BEA, None, None])
    finally:
        await service.close()
    match_id = table.match_id
    assert match_id is not None and await store.pending_stats() == [match_id]
    assert (await store.match_hands(match_id)) and await stats.queries.stats(GUILD, ANN) is not None
    assert (await stats.queries.stats(GUILD, ANN)).hands_defending == 0  # type: ignore[union-attr]
    counted = await stats.counter.catch_up()
    assert counted == len(await store.match_hands(match_id))
    assert await store.pending_stats() == []
    with pytest.raises(StoreError, match="cannot be counted"):
        await store.count_hand(match_id, 0, [], [])


async def test_a_former_players_seat_is_never_counted_rated_or_seated_again(
        store: Store) -> None:
    """Ann erases her data while a hand of her match is still to be counted (the bot died
    before counting it): the count at start-up counts Bea's part only, and Play again
    seats Bea and the computers, Ann's seat empty, Bea the host."""
    stats, dying = Stats(store), Stats(store)

    async def never(match_id: int) -> None:
        """The bot "died" before counting (after deciding the match is ranked)."""

    dying.counter.hand_recorded = never  # type: ignore[method-assign]
    service = service_for(store, dying)
    try:
        table = await play_match(service, GUILD, 1, [ANN, BEA, None, None])
    finally:
        await service.close()
    assert table.match_id is not None and await store.pending_stats() == [table.match_id]
    erased = await store.erase_player(GUILD, ANN)
    assert (erased.matches, erased.live_channels) == (1, ())  # (the table was let go)
    assert await stats.counter.catch_up() == len(await store.match_hands(table.match_id))
    former = await store.player_stats(GUILD, FORMER_PLAYER)  # (a name only: none)
    assert former is None or (former.played, former.hands_defending, former.hands_attacking,
                              former.name, former.rating) == (0, 0, 0, "", None)
    assert await store.load_ratings(GUILD, [FORMER_PLAYER]) == {}
    assert await store.player_stats(GUILD, ANN) is None
    bea = await store.player_stats(GUILD, BEA)
    assert bea is not None and bea.rating is not None and bea.hands_defending \
        + bea.hands_attacking == len(await store.match_hands(table.match_id))
    assert [row.user_id for row in (await store.leaderboard(GUILD, "rating"))[0]] == [BEA]
    (entry,) = await stats.queries.history(GUILD, BEA)  # Bea (seat 1) against seats 0, 2
    assert entry.opponents[0] == ""
    assert f"vs a former player, {entry.opponents[1]} ·" in history_text([entry], "Bea",
                                                                         "en-US")

    service = service_for(store, stats)
    try:
        again = await service.play_again(1, BEA)
        assert again.host_id == BEA and again.seats[0] is None
        assert [s.user_id if s else None for s in again.seats] == [None, BEA, None, None]
        assert [s.is_ai for s in again.seats[2:] if s] == [True, True]
    finally:
        await service.close()


async def test_leaderboard_pages_of_ten_with_buttons_that_carry_only_ids(
        store: Store) -> None:
    stats = Stats(store)
    # 23 players with distinct ratings, made through the store's own methods
    for i in range(23):
        user = 1000 + i
        match = await store.create_match(GUILD, 1, i, {}, [human(user), bot()], ranked=True)
        await store.record_hand(_hand(match_id=match, winner_team=0, levels_gained=1 + i % 3))
        await store.count_hand(match, 0, hand_stats(await store.load_match(match), _hand()),  # type: ignore[arg-type]
                               [Rating(user, 20.0 + i, 2.0)])
        await store.finish_match(match, "finished", 0)
    first = await stats.queries.leaderboard(GUILD, "rating", 0)
    assert (first.pages, first.total, len(first.rows)) == (3, 23, PAGE_SIZE)
    assert [r.user_id for r in first.rows] == [1022 - i for i in range(10)]
    last = await stats.queries.leaderboard(GUILD, "rating", 2)
    assert [r.position for r in last.rows] == [21, 22, 23]
    assert (await stats.queries.leaderboard(GUILD, "rating", 9)).page == 2  # past the end: last
    ids = [item.custom_id for item in leaderboard_view(first, "en-US").children]  # type: ignore[attr-defined]
    assert ids == [lb_custom_id(GUILD, "rating", 1), lb_custom_id(GUILD, "wins", 0),
                   lb_custom_id(GUILD, "levels", 0)]
    middle = leaderboard_view(await stats.queries.leaderboard(GUILD, "wins", 1), "en-US")
    assert [i.custom_id for i in middle.children][:2] == [  # type: ignore[attr-defined]
        "sj:lb:10:wins:0", "sj:lb:10:wins:2"]
    assert all(len(i) < 100 for i in ids)
    # a click in another server is refused, whatever the id says
    with pytest.raises(BotError) as refused:
        await stats.queries.leaderboard_click(OTHER, GUILD, "rating", 1)
    assert refused.value.key == "lb_other_server"
    assert (await stats.queries.leaderboard_click(GUILD, GUILD, "levels", 1)).rows
    assert (await stats.queries.leaderboard(OTHER, "rating", 0)).rows == []


# -- server settings --------------------------------------------------------------------------


@pytest.mark.parametrize("text, parsed", [
    ("level_ranks=K,A finish=reach_ace", {"level_ranks": "K,A", "finish": "reach_ace"}),
    ("decks=3, throw_penalty=10", {"decks": "3", "throw_penalty": "10"}),
    ("", {}),
    # spelled as people type them (was: each refused as "write options as name=value")
    ("Decks=3 throw-penalty=10", {"decks": "3", "throw_penalty": "10"}),
    ("decks = 3, players =6", {"decks": "3", "players": "6"}),
    ("level_ranks=K, A must_play=J A", {"level_ranks": "K, A", "must_play": "J A"}),
    ("ｄｅｃｋｓ＝３", {"decks": "3"}),
], ids=["comma-inside-a-value", "comma-between-pairs", "empty", "case-and-hyphen",
        "spaces-around-equals", "spaces-inside-a-value", "full-width"])
def test_option_text_keeps_commas_inside_values(text: str, parsed: dict[str, str]) -> None:
    assert parse_option_text(text) == parsed


@pytest.mark.parametrize("text, part", [
    ("foo", "foo"), ("decks=", "decks="), ("=3", "=3"), ("decks 3", "decks"),
    ("x decks=3", "x"), ("decks=3 players=", "players=")])
def test_option_text_without_a_name_or_a_value_says_which_part(text: str, part: str) -> None:
    with pytest.raises(BotError) as refused:
        parse_option_text(text)
    assert (refused.value.key, refused.value.params) == ("options_syntax", {"part": part})


async def test_server_defaults_apply_to_new_tables_of_the_default_preset(
        store: Store) -> None:
    stats = Stats(store)
    saved = await stats.settings.update(GUILD, options="level_ranks=K,A finish=reach_ace",
                                        turn_timer=20)
    assert saved.rules_for(None, {}) == ("classic", SHORT)
    assert saved.rules_for(None, {"finish": "pass_ace"})[1]["finish"] == "pass_ace"
    assert saved.rules_for("one-deck", {}) == ("one-deck", {})
    assert (await stats.settings.get(GUILD)).turn_timer == 20
    assert await stats.settings.get(OTHER) == ServerSettings()
    with pytest.raises(BotError) as refused:
        await stats.settings.update(GUILD, options="decks=9")
    assert refused.value.key == "bad_rules"
    changed = await stats.settings.update(GUILD, preset="one-deck")
    assert changed.options == {} and changed.turn_timer == 20  # old preset's options dropped
    assert await stats.settings.update(GUILD, reset=True) == ServerSettings()


async def test_a_server_sets_or_turns_off_the_nudge_of_its_new_tables(store: Store) -> None:
    stats = Stats(store)
    defaults = TableSettings(turn_timer=60.0, nudge_after=20.0)
    assert "notify the player after 20 s" in \
        settings_text(await stats.settings.get(GUILD), defaults, "en")
    off = await stats.settings.update(GUILD, nudge_after=0)
    assert (await stats.settings.get(GUILD)).nudge_after == 0 == off.nudge_after
    assert "notify the player never" in settings_text(off, defaults, "en")
    assert "重发牌桌提醒：不提醒" in settings_text(off, defaults, "zh_CN")
    # kept when another setting changes; a nudge not sooner than the turn timer is none
    later = await stats.settings.update(GUILD, turn_timer=30, nudge_after=45)
    assert (await stats.settings.update(GUILD, computers_ranked=False)).nudge_after == 45
    assert "notify the player never" in settings_text(later, defaults, "en")
    # a stored value that is not a number of seconds reads as the bot's default
    assert ServerSettings.from_dict({"nudge_after": "soon"}).nudge_after is None
    assert ServerSettings.from_dict({"nudge_after": -1}).nudge_after is None


async def test_a_server_default_no_table_could_have_is_refused_and_nothing_is_stored(
        store: Store) -> None:
    stats = Stats(store)
    before = await stats.settings.update(GUILD, preset="find-friends", options="players=5")
    with pytest.raises(BotError) as refused:
        await stats.settings.update(GUILD, options="players=6 decks=2")  # 6 × 2: no such table
    assert refused.value.key == "table_size"
    assert await stats.settings.get(GUILD) == before
    # six players alone get the three decks their table needs, as /shengji create gives them
    six = await stats.settings.update(GUILD, options="players=6")
    assert six.options == {"players": "6"}
    # and the admin is told the size a new table will have, decks included
    assert six.table_size() == (6, 3) and before.table_size() == (5, 2)
    shown = settings_text(six, TableSettings(turn_timer=60.0), "en")
    assert "options: players=6\ntable: 6 players, 3 decks\n" in shown
    assert "牌桌：6 人，3 副牌" in settings_text(six, TableSettings(turn_timer=60.0), "zh_CN")
    # a stored row whose options no longer make rules still shows, without a size
    broken = ServerSettings(preset="find-friends", options={"players": "99"})
    assert broken.table_size() is None
    assert "table: —" in settings_text(broken, TableSettings(), "en")
