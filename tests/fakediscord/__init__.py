"""fakediscord: a strict local Discord (REST v10 + gateway) for end-to-end tests of a real bot.

The bot under test runs unmodified in its own process. It only has to take two addresses from
the environment before it logs in::

    discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]                     # http://127.0.0.1:PORT/api/v10
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])  # ws://127.0.0.1:PORT/gateway

The test process hosts the fake and acts as the human users::

    fake = FakeDiscord()                     # options: ack_timeout=3.0, token_lifetime=900.0,
    await fake.start()                       #   privileged_intents=("members", "presences", "message_content"),
                                             #   attachment_size_limit=10 MiB, full_member_lists=False
    guild = fake.add_guild("Test Guild")
    channel = fake.add_channel(guild, "general")                 # bot_can_send=False -> 403/50013;
                                                                 #   bot_denied=Perm.ATTACH_FILES: files 403
    thread = fake.add_thread(channel, "table")                   # a public thread in it
    fake.delete_channel(thread)              # CHANNEL_DELETE (THREAD_DELETE), then 404/10003
    fake.remove_bot(guild)                   # GUILD_DELETE; its channels then answer 403/50001
    alice = fake.add_user("Alice", locale="en-US")               # joins every guild so far
    bob = fake.add_user("Bob", manage_guild=True)                # "Manage Server" via a role
    carol = fake.add_user("Carol", blocks_dms=True)              # bot's DMs fail with 403/50007

    bot = BotProcess(fake, ["-m", "bot"], cwd=repo_root, log_path=tmp / "bot.log",   # or ["path/to/bot.py"]
                     extra_env={"SAMPLE_GUILD_ID": str(guild.id)})     # stdout+stderr -> log_path
    await bot.start()                        # env: fake.env() = DISCORD_API_BASE, DISCORD_GATEWAY_URL,
    await bot.wait_ready(timeout=20)         #   DISCORD_TOKEN, DISCORD_APPLICATION_ID
                                             # (= fake.wait_until_ready + "fail fast if the bot died")

    ix = await fake.slash(alice, channel, "shengji", "create", preset="classic")
    await ix.wait_acked()                    # -> {"type": 4, "data": {...}}; ix.message, ix.followups
    msg = ix.message                         # live Message: content, embeds, components, attachments
    click = await fake.click(bob, msg, msg.button("Join")["custom_id"])
    pick = await fake.select(bob, msg, "demo:suit", ["H"])
    choices = await fake.autocomplete(alice, channel, "shengji", "play", focused="cards", value="A")
    record = await fake.wait_for(lambda r: r.kind == "dm" and r.user_id == alice.id, timeout=5)

    await bot.stop()                         # SIGTERM, SIGKILL after 5 s; always reaped
    fake.assert_clean(); await fake.stop()   # timeouts' messages include the bot's log tail

Acting as users (all ``async``; each returns a :class:`FakeInteraction` unless noted):

- ``slash(user, channel, command, /, *path, **options)`` and the general
  ``invoke(user, channel, command, *, path=(), options=None, locale=None, bypass_permissions=False)``.
  The payload is built from the *synced* definition: command id, subcommand group nesting, option
  types (str/int/bool/float; FakeUser/FakeRole/FakeChannel/Upload become ids plus ``resolved``),
  choices, min/max and required options are enforced, and ``default_member_permissions`` hides the
  command from users lacking it. Violations raise :class:`CommandUsageError` in the test.
- ``dispatch_autocomplete(...)`` -> FakeInteraction; ``autocomplete(..., focused=, value=, options=)``
  -> the bot's choices list.
- ``click(user, message, custom_id)``, ``select(user, message, custom_id, values)``,
  ``submit_modal(user, opened_by_interaction, {custom_id: text})``, ``say(user, channel, text)``
  (MESSAGE_CREATE; returns the Message).

FakeInteraction: ``wait_acked(timeout)``, ``wait_rejected(code=None, timeout)``,
``wait_followups(n)``, ``wait_done()`` (original no longer "thinking"); ``response``,
``response_type``, ``message``, ``followups``, ``rejections``, ``choices``, ``modal``, ``payload``.

Strictness (as Discord): a callback after ``ack_timeout`` (3 s) since dispatch -> 404/10062; a second
acknowledgement -> 400/40060; a wrong callback type for the interaction -> 400/50035; followups and
``@original`` need an acknowledged interaction and a token younger than 15 min (401/50027); the first
followup after a type-5 defer replaces the "thinking" message and keeps its ephemerality;
ephemeral messages are invisible to channel routes; message limits (2000 chars, 10 embeds / 6000
chars, 5 action rows of 5, unique custom_ids, select options, 10 files of ``attachment_size_limit``)
and command definitions (names, descriptions, 25 options/choices, required-before-optional) are
checked -> 400/50035 or 50006 (empty message). Unknown routes -> 404 code 0, kept in
``fake.unknown_routes``; every error answered is kept in ``fake.http_errors``; ``assert_clean()``
fails on unknown routes or internal errors of the fake. As on Discord, GUILD_CREATE lists every member
only with the presences intent (else just the bot; ``FakeDiscord(full_member_lists=True)`` overrides),
REQUEST_GUILD_MEMBERS (op 8, discord.py's chunking with the members intent) is answered, and
MESSAGE_CREATE/UPDATE/DELETE of non-ephemeral messages are sent per the intents.

What the bot produced, in order, as frozen :class:`Record` (kind ``channel_message``, ``dm``,
``interaction_response``, ``followup``, ``message_edit``, ``message_delete``; with channel_id,
user_id (DM recipient / interaction user), ephemeral, content, embeds, components, attachments
(filename, description, data), interaction_id, deferred): ``fake.records``,
``public_payloads(channel=None)``, ``dms(user)``, ``ephemerals(user)``, ``records_for(ix)``,
``mark()`` and ``await wait_for(predicate, timeout, after=mark)``. Current message state:
``message(id)``, ``messages(channel)``, ``last_message(channel)``; ``Message.button(label)``,
``find_component(custom_id=, label=, type=)``, ``custom_ids()``, ``text()``.

Gateway: ``wait_until_ready(timeout, commands=True)``, ``bot_connected``, ``reconnect_bot()`` (op 7,
the bot RESUMEs and missed events are replayed), ``identify_payloads``, ``synced_commands(guild)``.
"""

from .commands import CommandUsageError
from .interactions import FakeInteraction, InteractionTimeout, Rejection
from .model import (
    ApiError,
    AttachmentInfo,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    HttpError,
    Message,
    Perm,
    Record,
    UnknownRoute,
    Upload,
)
from .process import BotProcess
from .server import FakeDiscord

__all__ = [
    "ApiError",
    "AttachmentInfo",
    "BotProcess",
    "CommandUsageError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeRole",
    "FakeUser",
    "HttpError",
    "InteractionTimeout",
    "Message",
    "Perm",
    "Record",
    "Rejection",
    "UnknownRoute",
    "Upload",
]
