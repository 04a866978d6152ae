"""The real bot against the fake Discord: after a few complete matches, the leaderboard,
stats and history show exactly what was played, ratings moved the right way, an exported
match replays to the same results, and nothing crosses to another server."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.stats.export import replay_export
from bot.store import HandRecord, HandStats, Rating, SeatRecord, open_store
from tests.bot.harness import World, answered, create_and_start, running_bot, wait_until
from tests.fakediscord import FakeChannel, FakeGuild, FakeUser

pytestmark = pytest.mark.asyncio

# Computers play for the humans as soon as their turn comes (a 0.05 s turn timer), so a
# match plays itself; the seats stay the humans', who are counted and rated.
ENV = {"SHENGJI_GUILD_ID": "", "SHENGJI_TURN_TIMER": "0.05"}  # global commands: two servers
SHORT = "level_ranks=K,A finish=reach_ace"  # the first hand decides the match


@dataclass
class Played:
    """One match as the channel saw it."""

    winner_team: int  # 0: seats 1+3, 1: seats 2+4
    defenders_team: int
    levels: int  # how far the winning team went up
    attackers_total: int
    kitty_taken: bool  # the attackers won the last trick and took the kitty


def _table_messages(world: World) -> list[str]:
    return [m.content for m in world.fake.messages(world.channel)
            if m.content.startswith("**Shengji table")]


async def play_match(world: World, host: FakeUser, partner_seat_user: FakeUser) -> Played:
    """In a new channel of the server, ``host`` (seat 1) opens a table, the other user joins
    (seat 2), computers fill seats 3 and 4; waits until the match is over and reads the
    result from the channel."""
    world.channel = world.fake.add_channel(world.guild, f"table-{world.fake.snowflake()}")
    results_before = _results(world)
    await create_and_start(world, host, others=(partner_seat_user,))
    await wait_until(lambda: "The match is over" in _table_messages(world)[-1], timeout=60)
    await wait_until(lambda: len(_results(world)) == len(results_before) + 1, timeout=10)
    final = _table_messages(world)[-1]
    result = _results(world)[-1]
    winner = int(re.search(r"team (\d) wins!", final).group(1)) - 1  # type: ignore[union-attr]
    side, levels = re.search(r"(Defenders|Attackers) go up (\d+)", result).groups()  # type: ignore[union-attr]
    defenders = winner if side == "Defenders" else 1 - winner
    total = int(re.search(r"Attackers' total: (-?\d+)", result).group(1))  # type: ignore[union-attr]
    return Played(winner, defenders, int(levels), total,
                  "Attackers won the last trick" in result)


def _results(world: World) -> list[str]:
    return [m.content for m in world.fake.messages(world.channel)
            if "Attackers' total" in (m.content or "")]


async def ask(world: World, who: FakeUser, command: str, /, channel=None, **options):  # type: ignore[no-untyped-def]
    """``who`` runs ``/shengji command``; the interaction, answered privately."""
    ix = await world.fake.slash(who, channel or world.channel, "shengji", command, **options)
    await answered(ix)
    assert ix.message.ephemeral, f"/{command} answers privately"
    return ix


def two_servers(world: World) -> tuple[FakeGuild, FakeChannel, FakeUser, FakeUser, FakeUser]:
    """Beside the world's server, another one with a channel (whose data must stay as
    it is), and the people: an admin (Manage Server), Alice and Bob."""
    fake = world.fake
    others = fake.add_guild("Others")
    return (others, fake.add_channel(others, "cards"), fake.add_user("Admin", manage_guild=True),
            fake.add_user("Alice"), fake.add_user("Bob"))


def _rating(text: str) -> int:
    return int(re.search(r"Rating: (\d+)", text).group(1))  # type: ignore[union-attr]


async def test_complete_matches_show_in_leaderboard_stats_history_and_export(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, env=ENV) as world:
        fake = world.fake
        others, elsewhere, admin, alice, bob = two_servers(world)

        # server settings: only Manage Server may change them; they shorten new tables
        ix = await ask(world, alice, "settings", options=SHORT)
        assert "Only members with Manage Server" in ix.message.content
        ix = await ask(world, admin, "settings", options=SHORT)
        assert "options: level_ranks=K,A finish=reach_ace" in ix.message.content
        assert "computer players at ranked tables: yes" in ix.message.content

        # two ranked matches: Alice (seat 1, team 0) against Bob (seat 2, team 1)
        played: list[Played] = []
        ratings: list[tuple[int, int]] = []
        for _ in range(2):
            played.append(await play_match(world, alice, bob))
            a = (await ask(world, alice, "stats")).message.embeds[0]["description"]
            b = (await ask(world, alice, "stats", user=bob)).message.embeds[0]["description"]
            ratings.append((_rating(a), _rating(b)))
        # each match moved the winner's rating up and the loser's down
        previous = (1000, 1000)
        for match, now in zip(played, ratings, strict=False):
            winner, loser = (0, 1) if match.winner_team == 0 else (1, 0)
            assert now[winner] > previous[winner] and now[loser] < previous[loser], ratings
            previous = now

        # a third match after computers are barred from ranked tables: casual, unrated
        ix = await ask(world, admin, "settings", computers_ranked=False)
        assert "computer players at ranked tables: no" in ix.message.content
        played.append(await play_match(world, alice, bob))
        won = [m.winner_team == 0 for m in played]  # Alice sits in seat 0: team 0

        # leaderboard: the two humans, in rating order, with buttons for the other orders
        ix = await ask(world, bob, "leaderboard")
        board = ix.message.embeds[0]["description"]
        names = re.findall(r"\*\*\d+\.\*\* (\w+) — (\d+)", board)
        expected = sorted([("Alice", ratings[-1][0]), ("Bob", ratings[-1][1])],
                          key=lambda n: -n[1])
        assert [(n, int(r)) for n, r in names] == expected
        assert "Bot" not in board
        wins_id = ix.message.button("By wins")["custom_id"]
        assert wins_id == f"sj:lb:{world.guild.id}:wins:0"
        click = await fake.click(bob, ix.message, wins_id)
        await answered(click)
        assert click.response_type == 7  # the same message, now by wins
        by_wins = fake.message(ix.message.id).embeds[0]["description"]
        alice_wins, bob_wins = sum(won[:2]), 2 - sum(won[:2])
        assert f"Alice — {alice_wins} won of 2" in by_wins
        assert f"Bob — {bob_wins} won of 2" in by_wins

        # history, from any channel of the server: newest first, partners and results
        history = (await ask(world, alice, "history")).message.content
        lines = history.splitlines()[1:]
        assert len(lines) == 3
        ids = [int(re.match(r"#(\d+)", line).group(1)) for line in lines]  # type: ignore[union-attr]
        assert ids == sorted(ids, reverse=True)
        for line, match in zip(lines, reversed(played), strict=False):
            assert "with Bot 3 vs Bob, Bot 4" in line
            assert ("· won ·" if match.winner_team == 0 else "· lost ·") in line
        assert lines[0].count("ranked") == 0 and lines[1].endswith("ranked")

        # export: every match replays to the stored results, which are what was shown
        kitties = 0  # Alice (seat 0) won the last trick as an attacker and took the kitty
        for match_id, match in zip(reversed(ids), played, strict=False):
            ix = await ask(world, bob, "export", match=match_id)
            attachment = ix.message.attachments[0]
            assert attachment.filename == f"shengji-match-{match_id}.json"
            document = json.loads(attachment.data)
            hands = document["hands"]
            assert replay_export(document) == hands
            assert [h["attacker_points"] for h in hands] == [match.attackers_total]
            assert hands[-1]["defenders_team"] == match.defenders_team
            assert document["match"]["winner_team"] == match.winner_team
            assert (hands[-1]["kitty_multiplier"] > 0) is match.kitty_taken
            kitties += match.kitty_taken and hands[-1]["last_trick_seat"] == 0

        # stats: exactly what was played (Alice: seat 0, team 0)
        stats = (await ask(world, alice, "stats")).message.embeds[0]["description"]
        defending = [m.defenders_team == 0 for m in played]
        assert (f"Matches: 3 played, {sum(won)} won, 0 abandoned "
                f"(ranked: 2 played, {sum(won[:2])} won)") in stats
        assert (f"Hands on the dealer's side: {sum(defending)}, won "
                f"{sum(w and d for w, d in zip(won, defending, strict=False))}") in stats
        assert (f"Hands as attackers: {3 - sum(defending)}, won "
                f"{sum(w and not d for w, d in zip(won, defending, strict=False))}") in stats
        assert f"Levels gained: {sum(m.levels for m in played if m.winner_team == 0)}" in stats
        assert f"Kitties captured: {kitties}" in stats
        assert f"Rating: {ratings[-1][0]} " in stats and "2 ranked hands" in stats

        # another server sees none of it, and its own board pages with buttons
        ix = await ask(world, alice, "export", channel=elsewhere, match=ids[0])
        assert f"There is no match #{ids[0]} on this server." in ix.message.content
        ix = await ask(world, alice, "history", channel=elsewhere)
        assert "no finished matches" in ix.message.content
        ix = await ask(world, alice, "stats", channel=elsewhere)
        assert "has not played on this server" in ix.message.embeds[0]["description"]
        await _seed_players(world.db, others.id, 12)
        ix = await ask(world, bob, "leaderboard", channel=elsewhere)
        first = ix.message.embeds[0]
        assert "Alice" not in first["description"] and "Page 1 of 2" in first["footer"]["text"]
        assert first["description"].count("\n") == 9  # ten lines
        click = await fake.click(bob, ix.message, ix.message.button("Next ▶")["custom_id"])
        await answered(click)
        second = fake.message(ix.message.id).embeds[0]
        assert "**11.**" in second["description"] and "Page 2 of 2" in second["footer"]["text"]
        assert second["description"].count("\n") == 1
        assert ix.message.button("◀ Previous")["custom_id"] == f"sj:lb:{others.id}:rating:0"
    fake.assert_clean()


async def _seed_players(db: str, guild_id: int, count: int) -> None:
    """Rated players in ``guild_id``: one ranked hand each, written through the store."""
    store = await open_store(db)
    try:
        for i in range(count):
            user = 7_000 + i
            seats = [SeatRecord("human", user, f"Seeded{i:02d}"), SeatRecord("ai", None, "Bot")]
            match = await store.create_match(guild_id, 1, i, {}, seats, ranked=True)
            await store.record_hand(HandRecord(
                match_id=match, hand_no=0, dealer=0, level="K", trump="S", defenders_team=0,
                attacker_points=20, kitty_multiplier=0, last_trick_team=0, winner_team=0,
                levels_gained=1, levels_before=["K", "K"], levels_after=["A", "K"], result={}))
            await store.count_hand(match, 0, [HandStats(user, True, True, 1, False)],
                                   [Rating(user, 20.0 + i, 2.0)])
            await store.finish_match(match, "finished", 0)
    finally:
        await store.close()
