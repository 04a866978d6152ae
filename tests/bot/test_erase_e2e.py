"""The real bot against the fake Discord: ``/shengji erase-data whose:server`` erases
everything stored of one server, only for Manage Server, only after asking, never while a
table is open, and never another server's data; its buttons work after a restart.
``/shengji erase-data`` (whose: mine) takes one player out of the server's records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.bot.harness import answered, running_bot, table_message, wait_until
from tests.bot.test_stats_e2e import ENV, SHORT, _seed_players, ask, play_match, two_servers

pytestmark = pytest.mark.asyncio


async def test_a_server_admin_erases_the_servers_data_after_saying_yes(tmp_path: Path
                                                                        ) -> None:
    async with running_bot(tmp_path, env=ENV) as world:
        fake = world.fake
        others, elsewhere, admin, alice, bob = two_servers(world)
        await ask(world, admin, "settings", options=SHORT)
        await play_match(world, alice, bob)
        played = world.channel
        match_id = int(re.match(r"#(\d+)", (await ask(world, alice, "history")).message.content
                                .splitlines()[1]).group(1))  # type: ignore[union-attr]
        await ask(world, admin, "settings", channel=elsewhere, timer=45)
        await _seed_players(world.db, others.id, 3)
        other_board = (await ask(world, bob, "leaderboard", channel=elsewhere)
                       ).message.embeds[0]["description"]
        assert "Seeded02" in other_board

        # only Manage Server may ask
        ix = await ask(world, alice, "erase-data", whose="server")
        assert "Only members with Manage Server can erase" in ix.message.content
        assert not ix.message.custom_ids()

        # a table open in the server: refused, naming its channel
        lobby = fake.add_channel(world.guild, "lobby")
        await answered(await fake.slash(alice, lobby, "shengji", "create"))
        ix = await ask(world, admin, "erase-data", whose="server")
        assert ix.message.content.startswith("Nothing was erased: a table is open in "
                                             f"<#{lobby.id}>.")
        assert not ix.message.custom_ids()
        await answered(await fake.slash(alice, lobby, "shengji", "end"))

        # the question says what would go; "Keep it" keeps everything
        ix = await ask(world, admin, "erase-data", whose="server")
        question = ix.message.content
        assert "1 match with their hands and moves" in question
        assert "the records of 2 players" in question and "server settings" in question
        erase = ix.message.button("Erase everything")["custom_id"]
        assert erase == f"sj:erase:{world.guild.id}:yes"
        # the button asks again: Manage Server taken away since the question is refused
        roles = world.guild.members[admin.id].role_ids
        roles.remove(world.guild.manager_role_id)
        click = await answered(await fake.click(admin, ix.message, erase))
        assert "Only members with Manage Server can erase" in click.message.content
        roles.append(world.guild.manager_role_id)
        click = await answered(await fake.click(admin, ix.message,
                                                ix.message.button("Keep it")["custom_id"]))
        assert click.response_type == 7
        assert fake.message(ix.message.id).content == "Nothing was erased."
        assert not fake.message(ix.message.id).custom_ids()
        assert "Matches: 1 played" in (await ask(world, alice, "stats")
                                       ).message.embeds[0]["description"]

        # asked again, answered "yes" after a restart of the bot
        ix = await ask(world, admin, "erase-data", whose="server")
        await world.restart()
        click = await answered(await fake.click(admin, ix.message,
                                                ix.message.button("Erase everything")
                                                ["custom_id"]))
        assert click.response_type == 7
        done = fake.message(ix.message.id)
        assert done.content.startswith("Erased everything I kept for this server: 1 match "
                                       "and the records of 2 players.")
        assert not done.custom_ids()

        # nothing of it is left
        stats = (await ask(world, alice, "stats")).message.embeds[0]["description"]
        assert "has not played on this server" in stats
        assert "no finished matches" in (await ask(world, bob, "history")).message.content
        assert (await ask(world, bob, "leaderboard")).message.embeds[0]["description"] \
            == "No ranked games have been played on this server yet."
        ix = await ask(world, bob, "export", match=match_id)
        assert f"There is no match #{match_id} on this server." in ix.message.content
        assert "options: —" in (await ask(world, bob, "settings")).message.content
        again = table_message(world, played).button("Play again")["custom_id"]
        click = await answered(await fake.click(alice, table_message(world, played), again))
        assert click.message.ephemeral
        assert "There is no finished match at this channel's table" in click.message.content
        again = await ask(world, admin, "erase-data", whose="server")
        assert "Nothing is stored for this server" in again.message.content

        # the other server's data is whole
        assert (await ask(world, bob, "leaderboard", channel=elsewhere)
                ).message.embeds[0]["description"] == other_board
        assert "turn timer: 45 s" in (await ask(world, bob, "settings", channel=elsewhere)
                                      ).message.content
    fake.assert_clean()


async def test_a_player_erases_their_own_data_and_the_others_keep_their_matches(
        tmp_path: Path) -> None:
    async with running_bot(tmp_path, env=ENV) as world:
        fake = world.fake
        alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
        await ask(world, fake.add_user("Admin", manage_guild=True), "settings", options=SHORT)
        await play_match(world, alice, bob)  # Alice (seat 1) against Bob (seat 2)
        played = world.channel
        history = (await ask(world, bob, "history")).message.content
        match_id = int(re.search(r"#(\d+)", history).group(1))  # type: ignore[union-attr]
        assert "vs Alice, " in history

        # seated at an open table: refused, naming it
        lobby = fake.add_channel(world.guild, "lobby")
        await answered(await fake.slash(alice, lobby, "shengji", "create"))
        ix = await ask(world, alice, "erase-data")
        assert ix.message.content.startswith("Nothing was erased: you sit at or host the "
                                             f"table in <#{lobby.id}>.")
        assert not ix.message.custom_ids()
        # leaving her lobby, she still hosts it (nobody else sits there): ended, it is gone
        await answered(await fake.slash(alice, lobby, "shengji", "leave"))
        ix = await ask(world, alice, "erase-data")
        assert ix.message.content.startswith("Nothing was erased: you sit at or host")
        await answered(await fake.slash(alice, lobby, "shengji", "end"))

        ix = await ask(world, alice, "erase-data")
        assert "In 1 match you played, your seat will show as “a former player”" \
            in ix.message.content
        erase = ix.message.button("Erase my data")["custom_id"]
        assert erase == f"sj:forget:{world.guild.id}:{alice.id}:yes"
        click = await answered(await fake.click(alice, ix.message, erase))
        assert click.response_type == 7
        assert fake.message(ix.message.id).content.startswith(
            "Erased: your name, stats and rating on this server are gone, and you are a "
            "former player in 1 match.")
        assert not fake.message(ix.message.id).custom_ids()

        # she is gone from every record; Bob's match is whole, against a former player
        stats = (await ask(world, alice, "stats")).message.embeds[0]["description"]
        assert "has not played on this server" in stats
        assert "Bob" in (await ask(world, bob, "leaderboard")).message.embeds[0]["description"]
        assert "Alice" not in (await ask(world, bob, "leaderboard")
                               ).message.embeds[0]["description"]
        history = (await ask(world, bob, "history")).message.content
        assert f"#{match_id}" in history and "vs a former player, " in history
        assert "Alice" not in history
        export = (await ask(world, bob, "export", match=match_id)).message.attachments[0].data
        assert str(alice.id) not in export.decode() and "Alice" not in export.decode()
        assert "Nothing is stored of you" in (await ask(world, alice, "erase-data")
                                              ).message.content
        # Play again seats Bob and the computers, Bob the host; Alice's seat is free
        again = table_message(world, played)
        click = await answered(await fake.click(bob, again, again.button("Play again")
                                                ["custom_id"]))
        assert click.message.content.startswith("A new table with the same seats is open")
        await wait_until(lambda: "Seat 1: (empty)" in table_message(world, played).content)
        lobby_text = table_message(world, played).content
        assert "Seat 2: Bob" in lobby_text and "Alice" not in lobby_text
        await answered(await fake.slash(bob, played, "shengji", "start"))
        await wait_until(lambda: "Seat 1: (empty)" not in table_message(world, played).content)
        assert "Alice" not in table_message(world, played).content
    fake.assert_clean()
