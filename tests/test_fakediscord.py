"""FakeDiscord against a real discord.py bot in another process (tests/fakediscord/sample_bot.py).

One fake and one bot process serve the whole module; each test scopes what it reads with
``fake.mark()`` or its interaction handle. The raw-HTTP tests at the end use their own fake.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from tests.fakediscord import (
    BotProcess,
    CommandUsageError,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeUser,
    Upload,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

SAMPLE_BOT = Path(__file__).parent / "fakediscord" / "sample_bot.py"
EPHEMERAL = 64


@dataclass
class World:
    fake: FakeDiscord
    bot: BotProcess
    guild: FakeGuild
    channel: FakeChannel
    alice: FakeUser  # French locale, no special permissions
    bob: FakeUser  # Manage Server
    carol: FakeUser  # blocks DMs


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def world(tmp_path_factory: pytest.TempPathFactory):
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Test Guild")
    channel = fake.add_channel(guild, "tables")
    alice = fake.add_user("Alice", locale="fr")
    bob = fake.add_user("Bob", manage_guild=True)
    carol = fake.add_user("Carol", blocks_dms=True)
    bot = BotProcess(fake, [str(SAMPLE_BOT)], log_path=tmp_path_factory.mktemp("bot") / "bot.log",
                     extra_env={"SAMPLE_GUILD_ID": str(guild.id)})
    try:
        await bot.start()
        await bot.wait_ready(timeout=20)
        yield World(fake, bot, guild, channel, alice, bob, carol)
    finally:
        await bot.stop()
        await fake.stop()
    assert bot.returncode is not None
    fake.assert_clean()


# --- connecting and syncing ----------------------------------------------------------------------

async def test_bot_identifies_and_syncs_guild_and_global_commands(world: World):
    fake = world.fake
    assert fake.bot_connected
    assert [c["name"] for c in fake.synced_commands(world.guild)] == ["demo"]
    assert [c["name"] for c in fake.synced_commands()] == ["about"]
    demo = fake.synced_commands(world.guild)[0]
    admin = next(o for o in demo["options"] if o["name"] == "admin")
    assert admin["type"] == 2 and [o["name"] for o in admin["options"]] == ["reset"]
    assert fake.identify_payloads[0]["intents"] & 1  # GUILDS


# --- slash commands ------------------------------------------------------------------------------

async def test_ephemeral_reply_reaches_only_the_caller_in_their_locale(world: World):
    fake, mark = world.fake, world.fake.mark()
    ix = await fake.slash(world.alice, world.channel, "demo", "ping", who=world.bob)
    response = await ix.wait_acked()
    assert response["type"] == 4 and response["data"]["flags"] & EPHEMERAL
    record = await fake.wait_for(lambda r: r.interaction_id == ix.id, after=mark)
    assert (record.kind, record.ephemeral, record.user_id, record.content) == (
        "interaction_response", True, world.alice.id, "pong fr Bob")
    assert fake.ephemerals(world.alice)[-1] == record
    assert record not in fake.public_payloads()
    assert ix.payload["data"]["resolved"]["members"][str(world.bob.id)]["permissions"]


async def test_global_command_answers_publicly(world: World):
    ix = await world.fake.slash(world.alice, world.channel, "about")
    await ix.wait_acked()
    assert world.fake.public_payloads(world.channel)[-1].content == "sample bot in Test Guild"


async def test_manage_server_check_uses_the_member_permissions(world: World):
    denied = await world.fake.slash(world.alice, world.channel, "demo", "admin", "reset", confirm=True)
    allowed = await world.fake.slash(world.bob, world.channel, "demo", "admin", "reset", confirm=True)
    await denied.wait_acked()
    await allowed.wait_acked()
    assert denied.message.content == "missing permissions: manage_guild"
    assert allowed.message.content == "reset done"
    assert denied.message.ephemeral and allowed.message.ephemeral


async def test_invocations_follow_the_synced_definition(world: World):
    fake = world.fake
    with pytest.raises(CommandUsageError, match="no subcommand 'nope'"):
        await fake.slash(world.alice, world.channel, "demo", "nope")
    with pytest.raises(CommandUsageError, match="needs a subcommand"):
        await fake.slash(world.alice, world.channel, "demo", "admin")
    with pytest.raises(CommandUsageError, match="is required"):
        await fake.slash(world.alice, world.channel, "demo", "play")
    with pytest.raises(CommandUsageError, match="has no option"):
        await fake.slash(world.alice, world.channel, "demo", "ping", colour="red")
    with pytest.raises(CommandUsageError, match="wants a boolean"):
        await fake.slash(world.bob, world.channel, "demo", "admin", "reset", confirm="yes")
    with pytest.raises(CommandUsageError, match="no slash command /shengji"):
        await fake.slash(world.alice, world.channel, "shengji")


# --- components ----------------------------------------------------------------------------------

async def test_button_click_round_trip_updates_the_public_message(world: World):
    fake, mark = world.fake, world.fake.mark()
    ix = await fake.slash(world.alice, world.channel, "demo", "table")
    await ix.wait_acked()
    table = ix.message
    assert not table.ephemeral and table.content == "Table ready"
    assert table.embeds[0]["title"] == "Table"
    (png,) = table.attachments
    assert (png.filename, png.description, png.image_size()) == ("table.png", "the table", (2, 1))

    click = await fake.click(world.bob, table, table.button("Join")["custom_id"])
    assert (await click.wait_acked())["type"] == 7
    assert fake.message(table.id).content == "Joined by Bob"
    button = fake.message(table.id).find_component(custom_id="demo:join")
    assert button["disabled"] and button["label"] == "Joined"
    kinds = [r.kind for r in fake.public_payloads(world.channel) if r.seq > mark]
    assert kinds == ["interaction_response", "message_edit"]
    with pytest.raises(CommandUsageError, match="disabled"):
        await fake.click(world.alice, table, "demo:join")


async def test_select_answers_the_picker_privately(world: World):
    fake = world.fake
    ix = await fake.slash(world.alice, world.channel, "demo", "table")
    await ix.wait_acked()
    pick = await fake.select(world.bob, ix.message, "demo:suit", ["H"])
    await pick.wait_acked()
    assert pick.message.content == "suit H" and pick.message.ephemeral
    assert fake.ephemerals(world.bob)[-1].content == "suit H"
    with pytest.raises(CommandUsageError, match="no option"):
        await fake.select(world.bob, ix.message, "demo:suit", ["X"])


async def test_autocomplete_offers_matching_cards(world: World):
    fake = world.fake
    choices = await fake.autocomplete(world.alice, world.channel, "demo", "play", focused="cards", value="A")
    assert choices == [{"name": "AS", "value": "AS"}, {"name": "AH", "value": "AH"}]
    choices = await fake.autocomplete(world.alice, world.channel, "demo", "play", focused="cards", value="k")
    assert [c["value"] for c in choices] == ["KS", "KH"]


# --- DMs -----------------------------------------------------------------------------------------

async def test_dm_with_attachment_is_delivered(world: World):
    fake = world.fake
    ix = await fake.slash(world.alice, world.channel, "demo", "dm")
    await ix.wait_acked()
    (dm,) = fake.dms(world.alice)
    assert dm.content == "Your hand" and dm.channel_id == fake.dm_channel(world.alice).id
    assert [(a.filename, a.description, a.data) for a in dm.attachments] == [("hand.txt", "your hand", b"AS AH KS")]
    assert ix.message.content == "check your DMs" and ix.message.ephemeral


async def test_dm_to_a_user_who_blocks_dms_is_refused_with_50007(world: World):
    fake = world.fake
    ix = await fake.slash(world.carol, world.channel, "demo", "dm")
    await ix.wait_acked()
    assert ix.message.content == "cannot DM you (50007)" and ix.message.ephemeral
    assert fake.dms(world.carol) == []
    assert any(e.status == 403 and e.code == 50007 for e in fake.http_errors)


# --- acknowledgement rules -----------------------------------------------------------------------

async def test_second_acknowledgement_is_refused_with_40060(world: World):
    ix = await world.fake.slash(world.alice, world.channel, "demo", "double")
    rejection = await ix.wait_rejected(code=40060)
    assert (rejection.status, rejection.callback_type) == (400, 5)
    assert ix.response_type == 5
    (followup,) = await ix.wait_followups(1)
    assert followup.content == "second ack failed: 400 40060"
    assert followup.ephemeral and followup.id == ix.message.id  # it replaced the "thinking" message


async def test_followup_after_ephemeral_defer_stays_ephemeral(world: World):
    ix = await world.fake.slash(world.alice, world.channel, "demo", "think")
    message = await ix.wait_done()
    assert message.content == "thought about it" and message.ephemeral and not message.loading


async def test_acknowledgement_after_three_seconds_is_refused_with_10062(world: World):
    fake, mark = world.fake, world.fake.mark()
    ix = await fake.slash(world.alice, world.channel, "demo", "slow")
    rejection = await ix.wait_rejected(code=10062, timeout=8)
    assert rejection.status == 404 and not ix.acked
    record = await fake.wait_for(lambda r: r.kind == "channel_message", after=mark)
    assert record.content == "late ack failed: 10062" and record.public


# --- the other message routes ------------------------------------------------------------------

async def test_original_edits_followups_and_channel_routes(world: World):
    fake, mark = world.fake, world.fake.mark()
    ix = await fake.slash(world.alice, world.channel, "demo", "steps")
    last = await fake.wait_for(lambda r: r.kind == "channel_message", after=mark)
    assert last.content == "step 4: original in history: True"
    original = fake.message(ix.original_message_id)
    assert original.content == "step 3 (1 file)" and not original.loading and not original.ephemeral
    assert [a.data for a in original.attachments] == [b"one"]
    (followup,) = ix.followups
    assert followup.ephemeral and followup.deleted and followup.attachments[0].data == b"two"
    kinds = [(r.kind, r.ephemeral) for r in fake.records if r.seq > mark]
    assert kinds == [("interaction_response", False), ("message_edit", False), ("followup", True),
                     ("message_edit", False), ("message_delete", True), ("channel_message", False)]
    assert fake.records[mark].deferred


async def test_modal_opens_and_its_submission_is_answered(world: World):
    fake = world.fake
    ix = await fake.slash(world.alice, world.channel, "demo", "name")
    assert (await ix.wait_acked())["type"] == 9
    assert ix.modal["custom_id"] == "demo:name"
    submitted = await fake.submit_modal(world.alice, ix, {"demo:name:text": "Alice"})
    await submitted.wait_acked()
    assert submitted.message.content == "hello Alice" and not submitted.message.ephemeral


# --- gateway -------------------------------------------------------------------------------------

async def test_bot_resumes_after_reconnect_and_gets_missed_events(world: World):
    fake = world.fake
    await fake.reconnect_bot()
    ix = await fake.slash(world.alice, world.channel, "demo", "ping")
    await ix.wait_acked()
    assert fake.resumes == 1 and fake.bot_connected


# --- the fake's HTTP surface, without a bot ------------------------------------------------------

@pytest_asyncio.fixture(loop_scope="module")
async def bare():
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild()
    channel = fake.add_channel(guild)
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as http:
        yield fake, channel, http
    await fake.stop()


async def test_unknown_routes_get_404_code_0_and_are_recorded(bare):
    fake, _channel, http = bare
    async with http.get(f"{fake.api_base}/guilds/1/emojis") as response:
        assert response.status == 404
        assert response.headers["Content-Type"] == "application/json"
        assert await response.json() == {"message": "404: Not Found", "code": 0}
    assert [(u.method, u.path) for u in fake.unknown_routes] == [("GET", "/guilds/1/emojis")]
    with pytest.raises(AssertionError, match="unknown routes"):
        fake.assert_clean()


async def test_messages_are_checked_against_discord_limits(bare):
    fake, channel, http = bare
    url = f"{fake.api_base}/channels/{channel.id}/messages"
    async with http.post(url, json={"content": "x" * 2001}) as response:
        body = await response.json()
        assert (response.status, body["code"]) == (400, 50035)
        assert body["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    async with http.post(url, json={"content": ""}) as response:
        assert (response.status, (await response.json())["code"]) == (400, 50006)
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"}]}] * 2
    async with http.post(url, json={"content": "hi", "components": rows}) as response:
        assert (response.status, (await response.json())["code"]) == (400, 50035)
    async with http.post(url, json={"content": "hi", "flags": EPHEMERAL}) as response:
        assert response.status == 400
    readonly = fake.add_channel(fake.guilds[channel.guild_id], "rules", bot_can_send=False)
    async with http.post(f"{fake.api_base}/channels/{readonly.id}/messages", json={"content": "hi"}) as response:
        assert (response.status, (await response.json())["code"]) == (403, 50013)
    assert fake.records == []


async def test_multipart_message_keeps_files_and_serves_them(bare):
    fake, channel, http = bare
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(
        {"content": "a file", "attachments": [{"id": 0, "filename": "n.txt", "description": "notes"}]}))
    form.add_field("files[0]", b"hello", filename="n.txt", content_type="application/octet-stream")
    async with http.post(f"{fake.api_base}/channels/{channel.id}/messages", data=form) as response:
        assert response.status == 200
        message = await response.json()
    (attachment,) = message["attachments"]
    assert (attachment["filename"], attachment["description"], attachment["size"]) == ("n.txt", "notes", 5)
    async with http.get(attachment["url"]) as response:
        assert await response.read() == b"hello"
    assert fake.public_payloads()[0].attachments[0].data == b"hello"


async def test_callbacks_for_unknown_interactions_and_missing_auth(bare):
    fake, channel, http = bare
    async with http.post(f"{fake.api_base}/interactions/123/abc/callback", json={"type": 4}) as response:
        assert (response.status, (await response.json())["code"]) == (404, 10062)
    async with aiohttp.ClientSession() as anonymous, anonymous.get(f"{fake.api_base}/users/@me") as response:
        assert response.status == 401
    with pytest.raises(CommandUsageError, match="no slash command"):
        user = fake.add_user("Dave")
        await fake.invoke(user, channel, "demo", options={"x": Upload("a.txt", b"")})


async def _identify(fake: FakeDiscord, http: aiohttp.ClientSession, token: str, intents: int = 1 | 1 << 9):
    ws = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
    hello = await ws.receive_json()
    assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
    await ws.send_json({"op": 2, "d": {"token": token, "intents": intents, "properties": {}}})
    return ws


async def test_member_lists_follow_the_intents_like_discord(bare):
    fake, channel, http = bare
    fake.add_user("Frank")
    guild_id = str(channel.guild_id)
    ws = await _identify(fake, http, fake.token)  # no presences intent: only the bot is listed
    _ready, guild_create = await ws.receive_json(), await ws.receive_json()
    assert [m["user"]["id"] for m in guild_create["d"]["members"]] == [str(fake.app_id)]
    assert guild_create["d"]["member_count"] == 2 and guild_create["d"]["channels"][0]["name"] == "general"
    await ws.send_json({"op": 8, "d": {"guild_id": guild_id, "query": "", "limit": 0, "nonce": "n1"}})
    chunk = await ws.receive_json()
    assert chunk["t"] == "GUILD_MEMBERS_CHUNK" and chunk["d"]["nonce"] == "n1"
    assert sorted(m["user"]["username"] for m in chunk["d"]["members"]) == ["frank", "shengji"]
    await ws.close()


async def test_gateway_refuses_a_bad_token_with_4004(bare):
    fake, _channel, http = bare
    ws = await _identify(fake, http, "wrong")
    assert (await ws.receive()).type == aiohttp.WSMsgType.CLOSE and ws.close_code == 4004


async def test_concurrent_acknowledgements_accept_exactly_one(bare):
    fake, channel, http = bare
    commands = [{"name": "go", "description": "Go", "type": 1}]
    async with http.put(f"{fake.api_base}/applications/{fake.app_id}/commands", json=commands) as response:
        assert (await response.json())[0]["id"]
    ws = await _identify(fake, http, fake.token)
    ready, guild_create = await ws.receive_json(), await ws.receive_json()
    assert (ready["t"], guild_create["t"]) == ("READY", "GUILD_CREATE")
    assert ready["d"]["guilds"][0]["unavailable"] and ready["d"]["application"]["id"] == str(fake.app_id)
    await ws.send_json({"op": 1, "d": 2})
    assert (await ws.receive_json())["op"] == 11

    ix = await fake.slash(fake.add_user("Erin"), channel, "go")
    event = await ws.receive_json()
    while event["t"] != "INTERACTION_CREATE":  # e.g. GUILD_MEMBER_ADD is filtered by intents
        event = await ws.receive_json()
    assert event["d"]["data"]["name"] == "go" and event["d"]["member"]["permissions"]
    url = f"{fake.api_base}/interactions/{ix.id}/{ix.token}/callback"

    async def respond(text: str) -> int:
        async with http.post(url, json={"type": 4, "data": {"content": text}}) as response:
            return response.status

    statuses = sorted(await asyncio.gather(respond("one"), respond("two")))
    assert statuses == [204, 400]
    assert [r.code for r in ix.rejections] == [40060]
    assert len(fake.public_payloads(channel)) == 1
    await ws.close()
