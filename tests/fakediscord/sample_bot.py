"""A tiny discord.py bot that exercises FakeDiscord; run as a separate process by the tests.

Reads DISCORD_API_BASE, DISCORD_GATEWAY_URL and DISCORD_TOKEN (and SAMPLE_GUILD_ID to sync guild
commands), points discord.py at them before login, then serves ``/demo ...``:

    ping [who]     ephemeral "pong <locale>" (naming ``who`` if given)
    table          public message with an embed, a PNG, a button and a select
    play cards     autocomplete on ``cards``; ephemeral "played <cards>"
    dm             DMs the caller a file; on 403 answers ephemerally with the error code
    double         defers, then acknowledges again on purpose; reports the error in a followup
    slow           sleeps SAMPLE_SLOW_SECONDS (4) then answers; reports the failure publicly
    think          defers ephemerally, then answers through a followup
    steps          public defer, edit original (+file), ephemeral followup (+file), fetch/edit via
                   the channel, history, delete the followup
    name           opens a modal; the submission is answered publicly
    admin reset    needs Manage Server (checked by the bot from the interaction's permissions)
    about          (global command) public "about" text
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import struct
import zlib

import discord
import yarl
from discord import app_commands
from discord.ext import commands
from discord.gateway import DiscordWebSocket

log = logging.getLogger("sample_bot")

HAND = ["AS", "AH", "KS", "KH", "10D", "2C", "BJ", "RJ"]


def tiny_png(width: int = 2, height: int = 1) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="demo:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        button.disabled = True
        button.label = "Joined"
        await interaction.response.edit_message(content=f"Joined by {interaction.user.display_name}", view=self)

    @discord.ui.select(
        custom_id="demo:suit",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=name, value=value) for name, value in
                 (("Spades", "S"), ("Hearts", "H"), ("Clubs", "C"), ("Diamonds", "D"))],
    )
    async def suit(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"suit {select.values[0]}", ephemeral=True)


class SampleBot(commands.Bot):
    def __init__(self, guild_id: int | None) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), help_command=None)
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        self.add_view(TableView())
        self.tree.add_command(about)
        if self.guild_id:
            guild = discord.Object(self.guild_id)
            self.tree.add_command(demo, guild=guild)
            await self.tree.sync(guild=guild)
        else:
            self.tree.add_command(demo)
        await self.tree.sync()


demo = app_commands.Group(name="demo", description="Commands that exercise the fake")
admin = app_commands.Group(name="admin", description="Server management", parent=demo)


@demo.command(name="ping", description="Answer privately")
@app_commands.describe(who="Someone to mention")
async def ping(interaction: discord.Interaction, who: discord.Member | None = None) -> None:
    suffix = f" {who.display_name}" if who else ""
    await interaction.response.send_message(f"pong {interaction.locale.value}{suffix}", ephemeral=True)


@demo.command(name="table", description="Post a public table")
async def table(interaction: discord.Interaction) -> None:
    embed = discord.Embed(title="Table", description="Waiting for players")
    file = discord.File(io.BytesIO(tiny_png()), filename="table.png", description="the table")
    await interaction.response.send_message("Table ready", embed=embed, file=file, view=TableView())


@demo.command(name="play", description="Play cards")
@app_commands.describe(cards="Cards from your hand")
async def play(interaction: discord.Interaction, cards: str) -> None:
    await interaction.response.send_message(f"played {cards}", ephemeral=True)


@play.autocomplete("cards")
async def cards_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=card, value=card) for card in HAND if card.startswith(current.upper())][:25]


@demo.command(name="dm", description="Send you a private message")
async def dm(interaction: discord.Interaction) -> None:
    file = discord.File(io.BytesIO(b"AS AH KS"), filename="hand.txt", description="your hand")
    try:
        await interaction.user.send("Your hand", file=file)
    except discord.Forbidden as error:
        await interaction.response.send_message(f"cannot DM you ({error.code})", ephemeral=True)
    else:
        await interaction.response.send_message("check your DMs", ephemeral=True)


@demo.command(name="double", description="Acknowledge twice (a bug on purpose)")
async def double(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True)
    route = discord.http.Route("POST", "/interactions/{interaction_id}/{token}/callback",
                               interaction_id=interaction.id, token=interaction.token)
    try:
        await interaction.client.http.request(route, json={"type": 5, "data": {"flags": 64}})
    except discord.HTTPException as error:
        await interaction.followup.send(f"second ack failed: {error.status} {error.code}", ephemeral=True)
    else:
        await interaction.followup.send("second ack accepted?!", ephemeral=True)


@demo.command(name="slow", description="Answer too late")
async def slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(float(os.environ.get("SAMPLE_SLOW_SECONDS", "4")))
    try:
        await interaction.response.send_message("finally", ephemeral=True)
    except discord.NotFound as error:
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(f"late ack failed: {error.code}")


@demo.command(name="think", description="Defer, then follow up")
async def think(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send("thought about it")


@demo.command(name="steps", description="Walk through the message routes")
async def steps(interaction: discord.Interaction) -> None:
    await interaction.response.defer()
    await interaction.edit_original_response(
        content="step 1", attachments=[discord.File(io.BytesIO(b"one"), filename="one.txt")])
    followup = await interaction.followup.send(
        "step 2", ephemeral=True, file=discord.File(io.BytesIO(b"two"), filename="two.txt"), wait=True)
    original = await interaction.original_response()
    assert isinstance(interaction.channel, discord.TextChannel)
    fetched = await interaction.channel.fetch_message(original.id)
    await fetched.edit(content=f"step 3 ({len(fetched.attachments)} file)")
    seen = [m.id async for m in interaction.channel.history(limit=10)]
    await followup.delete()
    await interaction.channel.send(f"step 4: original in history: {original.id in seen}")


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="demo:name:text", max_length=32)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


@demo.command(name="name", description="Tell me your name")
async def name(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal(custom_id="demo:name"))


@admin.command(name="reset", description="Reset the server's tables")
@app_commands.checks.has_permissions(manage_guild=True)
async def reset(interaction: discord.Interaction, confirm: bool) -> None:
    await interaction.response.send_message(f"reset {'done' if confirm else 'cancelled'}", ephemeral=True)


@app_commands.command(name="about", description="About this bot")
async def about(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(f"sample bot in {interaction.guild.name if interaction.guild else '?'}")


def build_bot() -> SampleBot:
    guild_id = int(os.environ["SAMPLE_GUILD_ID"]) if os.environ.get("SAMPLE_GUILD_ID") else None
    bot = SampleBot(guild_id)

    @bot.tree.error
    async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.MissingPermissions):
            text = "missing permissions: " + ", ".join(error.missing_permissions)
        else:
            log.error("command failed", exc_info=error)
            text = "something went wrong"
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    return bot


def point_at_fake() -> None:
    """What the real bot does too: take REST and gateway addresses from the environment."""
    if os.environ.get("DISCORD_API_BASE"):
        discord.http.Route.BASE = os.environ["DISCORD_API_BASE"]
    if os.environ.get("DISCORD_GATEWAY_URL"):
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DISCORD_GATEWAY_URL"])


def main() -> None:
    point_at_fake()
    discord.utils.setup_logging(level=logging.INFO)
    build_bot().run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
