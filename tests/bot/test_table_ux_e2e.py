"""At the table (issue "At the table", "Missing" 1, 2 and 4), in English and in Chinese,
through the real bot process and the fake Discord: whose turn and its countdown, picking
cards from the hand panel without typing, and the lobby and the end of a match."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import pytest

from bot.text.catalogue import say
from tests.bot.harness import (
    answered,
    component,
    pick,
    pick_kind,
    redrawn,
    running_bot,
    show_group,
    table_message,
    wait_until,
)

pytestmark = pytest.mark.asyncio

LOCALES = [pytest.param("en-US", id="english"), pytest.param("zh-CN", id="chinese")]
KITTY = 8  # classic, four seats, two decks
SHORT_MATCH = "level_ranks=Q,K,A finish=reach_ace"  # a match of a few hands


async def _open_and_start(world, host, *,  # type: ignore[no-untyped-def]
                          options: str | None = None):
    given = {"preset": "classic"} | ({"options": options} if options else {})
    ix = await world.fake.slash(host, world.channel, "shengji", "create", **given)
    await answered(ix)
    await wait_until(lambda: _has_table(world))
    start = await world.fake.slash(host, world.channel, "shengji", "start")
    await answered(start)
    assert start.message.ephemeral


def _has_table(world) -> bool:  # type: ignore[no-untyped-def]
    try:
        table_message(world)
    except LookupError:
        return False
    return True


async def _panel(world, user):  # type: ignore[no-untyped-def]
    ix = await world.fake.slash(user, world.channel, "shengji", "hand")
    await answered(ix)
    return ix


def _hand(text: str) -> list[str]:
    """The hand as numbered on the panel (its second line)."""
    return re.findall(r"\d+:(\S+)", text.split("\n")[1])


def _numbered(text: str, cards: list[str]) -> list[str]:
    """``cards`` as the panel numbers them ("3:♥2"), in hand order: equal cards take
    their copies' numbers in turn (a pair is "3:♥2 4:♥2")."""
    left = list(cards)
    labels = []
    for number, card in re.findall(r"(\d+):(\S+)", text.split("\n")[1]):
        if card in left:
            left.remove(card)
            labels.append(f"{number}:{card}")
    return labels


async def _until_alice_picks(world, alice):  # type: ignore[no-untyped-def]
    """Wait (the computers play) until Alice's panel offers the picker; that panel."""
    loop_end = time.monotonic() + 120
    while time.monotonic() < loop_end:
        ix = await _panel(world, alice)
        if pick_kind(ix.message) in ("bury", "play"):
            return ix
        await asyncio.sleep(0.3)
    raise AssertionError(world.fake.describe_recent())


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_player_to_act_is_mentioned_with_a_countdown_and_picks_cards(
        tmp_path: Path, locale: str) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice", locale=locale)
        await _open_and_start(world, alice)
        panel = await _until_alice_picks(world, alice)
        kind = pick_kind(panel.message)
        text = panel.message.content
        assert say(locale, "picked_none") in text

        # whose turn: a mention of Alice only, and Discord's countdown of her timer
        await wait_until(lambda: f"<@{alice.id}>" in table_message(world).content)
        content = table_message(world).content
        ends = int(re.search(r"<t:(\d+):R>", content).group(1))
        assert time.time() - 5 < ends < time.time() + 61
        assert say(locale, "turn_line", mention=f"<@{alice.id}>", ends=f"<t:{ends}:R>") \
            in content
        mentions = table_message(world).extra["allowed_mentions"]
        assert [int(u) for u in mentions.get("users", [])] == [alice.id]
        assert not mentions.get("parse")

        # pick cards without typing: a suit, its cards, then confirm
        hand = _hand(text)
        if kind == "bury":
            wanted = hand[:KITTY]
        else:
            choices = await fake.autocomplete(alice, world.channel, "shengji", "play",
                                              focused="cards", value="")
            wanted = choices[0]["name"].split()
        await pick(world, alice, panel.message.id, wanted,
                   name=lambda label: label.split(":", 1)[-1])
        message = fake.message(panel.message.id)
        assert say(locale, "picked_line", count=len(wanted), cards=" ".join(
            _numbered(text, wanted))) in message.content or kind == "play"
        confirm = component(message, f"sj:pk:ok:{kind}:")
        assert confirm["label"] == say(locale, f"btn_pick_{kind}")
        click = await fake.click(alice, message, confirm["custom_id"])
        await answered(click)
        # done: Alice holds fewer cards, and nothing was refused
        await wait_until(lambda: len(_hand(fake.message(panel.message.id).content))
                         < len(hand) or bool(click.followups), timeout=20)
        assert not click.followups, click.followups[0].content
    fake.assert_clean()


def _posted(world, text: str) -> bool:  # type: ignore[no-untyped-def]
    return any(text in (m.content or "") for m in world.fake.messages(world.channel))


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_runs_the_lobby_lets_a_newcomer_in_and_plays_again(
        tmp_path: Path, locale: str) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice, bob, carol, dave = (fake.add_user(n, locale=locale)
                                   for n in ("Alice", "Bob", "Carol", "Dave"))
        ix = await fake.slash(alice, world.channel, "shengji", "create", preset="classic",
                              options=SHORT_MATCH)
        await answered(ix)
        for user in (bob, carol):
            joined = await fake.slash(user, world.channel, "shengji", "join")
            await answered(joined)
        await wait_until(lambda: _has_table(world) and "Carol" in table_message(world).content)

        # only the host starts, as the lobby says
        assert say(locale, "status_lobby_host", name="Alice") in table_message(world).content
        refused = await fake.slash(bob, world.channel, "shengji", "start")
        await answered(refused)
        assert refused.message.content == say(locale, "not_host")
        start = table_message(world).find_component(custom_id=f"sj:start:{world.channel.id}")
        click = await fake.click(bob, table_message(world), start["custom_id"])
        await answered(click)
        assert click.message.ephemeral and say(locale, "not_host") in click.message.content

        # the host frees a seated person's seat before the start (not their own)
        removed = await fake.slash(alice, world.channel, "shengji", "remove", seat=3)
        await answered(removed)
        assert removed.message.content == say(locale, "seat_removed", seat=3, name="Carol")
        await wait_until(lambda: "Carol" not in table_message(world).content)
        own = await fake.slash(alice, world.channel, "shengji", "remove", seat=1)
        await answered(own)
        assert own.message.content == say(locale, "remove_yourself")
        by_guest = await fake.slash(bob, world.channel, "shengji", "remove", seat=1)
        await answered(by_guest)
        assert by_guest.message.content == say(locale, "not_host")

        start = await fake.slash(alice, world.channel, "shengji", "start")
        await answered(start)
        assert start.message.content == say(locale, "started")
        for user in (alice, bob):  # computers play on for them
            left = await fake.slash(user, world.channel, "shengji", "leave")
            await answered(left)
        await wait_until(lambda: "Bob (bot)" in table_message(world).content)

        # a newcomer asks; the request's button works for the host only
        asked = await fake.slash(dave, world.channel, "shengji", "join")
        await answered(asked)
        assert asked.message.content == say(locale, "seat_requested", seat=1)
        label = say(locale, "btn_let_in", name="Dave", seat=1)
        await wait_until(lambda: any(m.find_component(label=label)
                                     for m in fake.messages(world.channel)))
        request = next(m for m in fake.messages(world.channel) if m.find_component(label=label))
        assert say(locale, "seat_request", name=f"<@{dave.id}>", seat=1) == request.content
        button = request.find_component(label=label)["custom_id"]
        not_host = await fake.click(bob, request, button)
        await answered(not_host)
        assert not_host.message.ephemeral and say(locale, "not_host") in not_host.message.content
        agreed = await fake.click(alice, request, button)
        await answered(agreed)
        await wait_until(lambda: fake.message(request.id).content ==
                         say(locale, "seat_given", name="Dave", seat=1))
        # (the seat's line: the recent lines may still name the computer that played it)
        await wait_until(lambda: say(locale, "lobby_line", seat=1, name="Dave")
                         in table_message(world).content.splitlines())
        left = await fake.slash(dave, world.channel, "shengji", "leave")
        await answered(left)

        # the match ends: the winners by name, and where the match is kept
        names = ["Dave (bot)", "Bob (bot)", "Bot 3", "Bot 4"]
        separator = say(locale, "name_separator")
        posts = [say(locale, "match_over_post", team=team + 1,
                     names=separator.join(names[team::2])) for team in (0, 1)]
        await wait_until(lambda: any(_posted(world, post) for post in posts), timeout=150)
        assert all("`/shengji history`" in post for post in posts)

        # Play again: the people (and computers) who started the match, in the lobby
        await wait_until(lambda: table_message(world).find_component(
            label=say(locale, "btn_play_again")) is not None)
        again = table_message(world).find_component(label=say(locale, "btn_play_again"))
        stranger = await fake.click(carol, table_message(world), again["custom_id"])
        await answered(stranger)
        assert say(locale, "not_seated") in stranger.message.content
        click = await fake.click(bob, table_message(world), again["custom_id"])
        await answered(click)
        assert click.message.content == say(locale, "play_again_done")
        await wait_until(lambda: say(locale, "status_lobby_host", name="Alice")
                         in table_message(world).content)
        content = table_message(world).content
        assert say(locale, "lobby_line", seat=1, name="Alice") in content
        assert say(locale, "lobby_line", seat=2, name="Bob") in content
        assert "Bot 3" in content and "Bot 4" in content
        assert "(bot)" not in content and "Dave" not in content  # (the old lines are gone)
        start = await fake.slash(alice, world.channel, "shengji", "start")
        await answered(start)
        assert start.message.content == say(locale, "started")
    fake.assert_clean()


async def test_a_picking_in_progress_goes_on_after_a_restart(tmp_path: Path) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice = fake.add_user("Alice")
        await _open_and_start(world, alice)
        panel = await _until_alice_picks(world, alice)
        # (a suit of two cards at least: the deal may leave the first one with a single card)
        groups = component(fake.message(panel.message.id), "sj:pk:g:")["options"]
        wide = next(o["value"] for o in groups
                    if int(re.search(r"/(\d+)\)$", o["label"]).group(1)) >= 2)
        message = await show_group(world, alice, panel.message.id, wide)
        cards = component(message, "sj:pk:c:")
        first = cards["options"][0]
        ix = await fake.select(alice, message, cards["custom_id"], [first["value"]])
        await redrawn(world, ix, message.custom_ids())
        assert say("en-US", "picked_line", count=1, cards=first["label"]) in \
            fake.message(panel.message.id).content

        await world.restart()  # SIGKILL: only the custom ids know what was picked
        message = fake.message(panel.message.id)
        cards = component(message, "sj:pk:c:")
        second = cards["options"][1]
        ix = await fake.select(alice, message, cards["custom_id"],
                               [first["value"], second["value"]])
        await redrawn(world, ix, message.custom_ids())
        assert say("en-US", "picked_line", count=2,
                   cards=f"{first['label']} {second['label']}") in \
            fake.message(panel.message.id).content
    fake.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_table_whose_players_are_all_away_waits_after_the_hand(
        tmp_path: Path, locale: str) -> None:
    # a short turn timer: the host is away from their first turn on
    async with running_bot(tmp_path, env={"SHENGJI_TURN_TIMER": "0.3"}) as world:
        fake = world.fake
        host = fake.add_user("Alice", locale=locale)
        await _open_and_start(world, host)
        paused = say(locale, "status_paused")
        back = say(locale, "btn_back")
        await wait_until(lambda: paused in (table_message(world).content or ""), timeout=150)
        message = table_message(world)
        assert any(b.get("label") == back for b in message.iter_components())

        def results() -> int:  # (the hand's result post names the next dealer)
            return sum(1 for m in fake.messages(world.channel) if "→" in (m.content or ""))

        # (the hand's result is posted beside the table's redraw: either may come first)
        await wait_until(lambda: results() == 1, timeout=30)
        await asyncio.sleep(2)  # (the pause between hands is 0.1 s here)
        assert results() == 1 and paused in (table_message(world).content or "")
        # Alice is back: the next hand is dealt (she does not play it: it ends paused too)
        button = next(b for b in message.iter_components() if b.get("label") == back)
        clicked = await answered(await fake.click(host, message, button["custom_id"]))
        assert clicked.message.content == say(locale, "back")
        await wait_until(lambda: results() == 2, timeout=150)
        await wait_until(lambda: paused in (table_message(world).content or ""), timeout=30)
    world.fake.assert_clean()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_host_who_leaves_the_lobby_passes_it_to_the_next_person(
        tmp_path: Path, locale: str) -> None:
    async with running_bot(tmp_path) as world:
        fake = world.fake
        alice, bob = (fake.add_user(n, locale=locale) for n in ("Alice", "Bob"))
        await answered(await fake.slash(alice, world.channel, "shengji", "create",
                                        preset="classic"))
        await answered(await fake.slash(bob, world.channel, "shengji", "join"))
        await wait_until(lambda: _has_table(world) and "Bob" in table_message(world).content)
        assert say(locale, "status_lobby_host", name="Alice") in table_message(world).content

        await answered(await fake.slash(alice, world.channel, "shengji", "leave"))
        # the table says who hosts now, and Bob, who could not before, starts it
        await wait_until(lambda: say(locale, "status_lobby_host", name="Bob")
                         in table_message(world).content)
        assert say(locale, "ev_host_passed", name="2. Bob") in table_message(world).content
        start = await answered(await fake.slash(bob, world.channel, "shengji", "start"))
        assert start.message.content != say(locale, "not_host")
        await wait_until(lambda: say(locale, "btn_hand") in str(table_message(world).components))
