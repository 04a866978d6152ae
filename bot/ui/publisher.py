"""The Discord side of publishing: the table message, announcements, DMs.

* The public table message (picture + text + buttons) is edited in place, coalesced
  so that a burst of actions makes one edit; after each redraw the ``redrawn`` callback
  lets the open hand panels follow (``bot/ui/panel_registry.py``). Under load (many
  tables waiting for a redraw, pictures queued for the worker) the edits of tables that
  wait for no person coalesce over longer intervals, up to ``MAX_STRETCH`` times.
* Hidden trump suits are told by DM; when a DM fails (closed DMs: 403, code 50007) the
  text is kept for the player and shown privately at their next interaction.
* A person's turn not taken within the table's ``nudge_after`` seconds posts the table
  message anew at the channel's end (the old one deleted): a new message's mention
  notifies them, an edit's does not, and the table comes back into view. The move is
  stored from before the post until the old message is deleted (``moving_from``), so
  that a start after a kill in between deletes the one left over (``finish_move``).
* A channel Discord no longer knows (404, Unknown Channel: deleted, perhaps while the
  bot was down) is handed to the ``channel_gone`` callback, which ends its table; then
  ``table_gone`` makes the publisher forget the channel.
* It posts through a ``Postbox`` and never sees the Bot.

Nothing private is ever sent to the channel: public texts come from public events and
the public view only.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import aiohttp
import discord

from bot.services import Pictures
from bot.table_data import Table
from bot.text.catalogue import say
from bot.text.events import describe_event, result_lines, trump_name
from bot.through_cancel import to_the_end
from bot.tree import as_typed
from bot.ui.buttons import table_buttons
from bot.ui.render import (
    person_to_act,
    plain_names,
    result_picture,
    seat_names,
    table_picture,
    table_text,
)
from engine.actions import Event
from engine.game import AFTER_HAND, settled_result
from engine.scoring import HandResult
from engine.views import SeatView, public_view

log = logging.getLogger(__name__)

#: What the bot needs in a channel to post and edit its table message (the text, its
#: picture, its buttons), as ``discord.Permissions`` names them; in a thread,
#: ``send_messages_in_threads`` stands for ``send_messages``.
TABLE_PERMISSIONS = ("view_channel", "send_messages", "attach_files")

TABLE_LOG_LINES = 8
# the coalescing interval grows by one ``edit_interval`` for every this many tables (or
# pictures) waiting, to at most ``MAX_STRETCH`` intervals
WAITING_PER_STRETCH = 12
MAX_STRETCH = 4.0
#: Discord's JSON error code for a channel it does not know (deleted).
UNKNOWN_CHANNEL = 10003
#: A start that finds a table message's move interrupted reads this many of the channel's
#: messages after the old one for a new one posted but not stored.
MOVE_SCAN = 50
#: The table message's picture: what tells it from the bot's other posts in the channel.
TABLE_PICTURE = "table.png"


class MessagePosted(Protocol):
    """Told where the table message lives (``message_id``), and while a nudge moves it,
    the old message not deleted yet (``moving_from``); for the table service to store."""

    def __call__(self, table: Table, message_id: int, *,
                 moving_from: int | None = None) -> Awaitable[None]: ...


def unknown_channel(exc: BaseException) -> bool:
    """Did Discord answer that the channel does not exist (any more)?"""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_CHANNEL


class Postbox:
    """A way to post: channel messages and direct messages, through a Discord client."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self._client.get_partial_messageable(channel_id)

    @property
    def user_id(self) -> int | None:
        """The bot's own user id (None before it logs in)."""
        return self._client.user.id if self._client.user else None

    async def direct(self, user_id: int, text: str) -> None:
        user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
        await user.send(text)


class DiscordPublisher:
    """``Publisher`` for the TableService. ``message_posted`` (``MessagePosted``) is told
    when the table message moves to a new message; ``redrawn(channel_id)`` after each
    redraw of a table (the open hand panels follow it); ``channel_gone(channel_id)`` when
    Discord no longer knows the table's channel."""

    def __init__(self, post: Postbox, *,
                 message_posted: MessagePosted,
                 redrawn: Callable[[int], Awaitable[None]],
                 channel_gone: Callable[[int], Awaitable[object]],
                 pictures: Pictures,
                 edit_interval: float = 1.0) -> None:
        self.post = post
        self.pictures = pictures
        self.message_posted = message_posted
        self.redrawn = redrawn
        self.channel_gone = channel_gone
        self.edit_interval = edit_interval
        self.recent: dict[int, deque[str]] = defaultdict(lambda: deque(maxlen=TABLE_LOG_LINES))
        self.pending_private: dict[tuple[int, int], list[str]] = defaultdict(list)
        self._flushing: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._forbidden: set[int] = set()  # channels where posting the table was refused
        self._gone: set[int] = set()  # channels deleted (``table_gone``): never drawn again
        self._token_refused = False  # a 401 was logged (the token was reset)
        self._latest: dict[int, Table] = {}
        # each channel's last result post and its text (the level transfer adds to it)
        self._results: dict[int, tuple[discord.Message, str]] = {}
        self._lock: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # each channel's nudge to come: the wait it is for (the game and when the turn
        # ends) and its task
        self._nudges: dict[int, tuple[tuple[object, float], asyncio.Task[None]]] = {}
        self._closing = False

    async def show_damaged(self, channel_id: int, message_id: int | None, locale: str,
                           reason: str) -> None:
        """Tell a channel that its table could not be restored (its buttons go away)."""
        text = say(locale, "table_damaged", reason=reason)
        channel = self.post.channel(channel_id)
        try:
            if message_id is not None:
                try:
                    await channel.get_partial_message(message_id).edit(
                        content=text, attachments=[], view=None)
                    return
                except discord.NotFound as exc:
                    if unknown_channel(exc):
                        raise
            await channel.send(content=text)
        except discord.HTTPException as exc:
            if unknown_channel(exc):
                await self.channel_gone(channel_id)
                return
            log.warning("could not tell channel %s that its table is damaged", channel_id)

    async def close(self) -> None:
        """Stop redrawing (before the HTTP session closes): pending redraws are dropped,
        running ones cancelled."""
        self._closing = True
        tasks = [t for t in self._flushing.values() if not t.done()]
        tasks += [task for _, task in self._nudges.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def remember_events(self, table: Table, events: Sequence[Event]) -> None:
        """The table's recent lines from events that happened before (a restart replays
        the log, so the lines survive it without being stored twice)."""
        names = seat_names(table)
        by_player = table.rules.seating.individual_levels
        for ev in events:
            if ev.audience is None and ev.kind != "hand_scored":
                line = describe_event(table.locale, ev, names, by_player=by_player)
                if line:
                    self.recent[table.channel_id].append(line)

    # -- Publisher protocol ---------------------------------------------------------------------

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        if table.channel_id in self._gone:
            return
        shown = self._latest.get(table.channel_id)
        if shown is not None and shown is not table:  # a new table: the old lines go
            self.recent[table.channel_id].clear()
        names = seat_names(table)
        by_player = table.rules.seating.individual_levels
        after_hand: list[str] = []  # (a batch of level moves never ends the match)
        for ev in events:
            line = describe_event(table.locale, ev, names, by_player=by_player)
            if line and ev.kind != "hand_scored":
                self.recent[table.channel_id].append(line)
            if ev.kind == "hand_scored":
                await self._post_result(table, ev, names)
            elif ev.kind in AFTER_HAND and line:
                after_hand.append(line)
            elif ev.kind == "match_over":
                await self._post_match_over(table, ev)
        if after_hand:
            await self._add_to_result(table, after_hand)
        self.schedule(table)

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        if table.channel_id in self._gone:
            return
        occupant = table.seats[seat]
        if occupant is None or occupant.is_ai or occupant.user_id is None:
            return
        for ev in events:
            if ev.kind == "trump_told":
                await self._tell_trump(table, occupant.user_id, ev)
            elif ev.kind == "transfer_offered":
                await self._tell_offer(table, occupant.user_id, ev)
            elif ev.kind in ("kitty_taken", "cards_taken", "cards_returned", "swap_offered"):
                # shown on the player's own hand panel (ephemeral), never in the channel
                line = describe_event(table.locale, ev, seat_names(table))
                if line:
                    self.pending_private[(table.channel_id, occupant.user_id)].append(line)
        self.schedule(table)

    # -- the table message ---------------------------------------------------------------------

    def schedule(self, table: Table) -> None:
        """Redraw soon; changes that arrive while a redraw runs get one more redraw."""
        if self._closing or table.channel_id in self._gone:
            return
        channel = table.channel_id
        self._dirty.add(channel)
        self._latest[channel] = table  # a new table in the channel replaces the old one
        task = self._flushing.get(channel)
        if task is None or task.done():
            self._flushing[channel] = asyncio.create_task(self._flush(channel))

    async def _flush(self, channel_id: int) -> None:
        while channel_id in self._dirty and not self._closing:
            if self.edit_interval:
                await asyncio.sleep(self._interval(self._latest[channel_id]))
            self._dirty.discard(channel_id)
            table = self._latest[channel_id]
            try:
                await self.refresh(table)
                if channel_id in self._forbidden:
                    self._forbidden.discard(channel_id)
                    log.info("the table message in %s can be posted again", channel_id)
            except Exception as exc:  # a failed edit must not stop the game
                if unknown_channel(exc):  # deleted: its table ends (then ``table_gone``)
                    await self.channel_gone(channel_id)
                    return
                self._failed("update the table message", channel_id, exc)
            await self.redrawn(channel_id)
        drawn = self._latest.get(channel_id)
        if drawn is not None and drawn.status == "finished" and channel_id not in self._dirty:
            self._forget(channel_id)  # (its message says how it ended: nothing more to draw)

    def table_gone(self, channel_id: int) -> None:
        """The channel is gone: what waits for it is dropped, and it is never drawn or
        posted to again (Discord never gives its id to another channel)."""
        self._gone.add(channel_id)
        self._forget(channel_id)

    def _forget(self, channel_id: int) -> None:
        """Nothing is kept for the channel: not its table (a finished match's game is
        about half a megabyte), its lines, its last result or its pending redraw."""
        self._dirty.discard(channel_id)
        task = self._flushing.pop(channel_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        for kept in (self._latest, self.recent, self._results, self._lock):
            kept.pop(channel_id, None)
        self._drop_nudge(channel_id)
        self._forbidden.discard(channel_id)
        for key in [k for k in self.pending_private if k[0] == channel_id]:
            del self.pending_private[key]

    def _refused(self, channel_id: int, exc: discord.Forbidden) -> None:
        """Discord refused a post in the channel (its permissions): said once until the
        table message gets through again, not a traceback a redraw or result."""
        if channel_id not in self._forbidden:
            self._forbidden.add(channel_id)
            log.warning("cannot post the table message in %s (%s %s): the bot needs %s there",
                        channel_id, exc.status, exc.text, ", ".join(TABLE_PERMISSIONS))

    def _failed(self, doing: str, channel_id: int, exc: Exception) -> None:
        """A post or edit that failed, with its traceback; but the channel's permissions
        (``_refused``) and a refused token (401: in the seconds between its reset and the
        gateway's close that stops the bot) are said once."""
        if isinstance(exc, discord.Forbidden):
            self._refused(channel_id, exc)
            return
        if unknown_channel(exc):  # deleted: the table's next redraw ends it
            log.info("could not %s in %s: the channel was deleted", doing, channel_id)
            return
        if isinstance(exc, discord.HTTPException) and exc.status == 401:
            if not self._token_refused:
                self._token_refused = True
                log.warning("Discord refused the bot token (401) to %s in %s: it was reset; "
                            "the bot stops when the gateway closes", doing, channel_id)
            return
        log.exception("could not %s in %s", doing, channel_id)

    def _interval(self, table: Table) -> float:
        """How long a redraw of ``table`` waits for more changes: ``edit_interval``, longer
        while many redraws wait, except where the game waits for a person (they watch)."""
        if person_to_act(table) is not None:
            return self.edit_interval
        waiting = len(self._dirty) + self.pictures.waiting
        return self.edit_interval * min(MAX_STRETCH, 1 + waiting / WAITING_PER_STRETCH)

    def summary(self, table: Table, view: SeatView | None = None) -> str:
        """The table as text, with its recent public events (``view``: the game's
        ``public_view``, if the caller has it)."""
        return table_text(table, list(self.recent[table.channel_id]), view)

    async def refresh(self, table: Table, *, anew: bool = False) -> None:
        """Edit (or post) the table message to show the table as it is now; ``anew``: post
        it as a new message at the channel's end and delete the old one (a nudge)."""
        try:
            await self._draw(table, anew)
        finally:
            self._arm_nudge(table)

    async def _draw(self, table: Table, anew: bool) -> None:
        async with self._lock[table.channel_id]:
            # one public view for the text and the picture, taken before the picture is
            # drawn: both show the same moment even if the game moves on meanwhile
            public = public_view(table.game) if table.game is not None else None
            content = self.summary(table, public)
            picture = await table_picture(self.pictures, table, public)
            file = discord.File(_bytes(picture.png), filename=TABLE_PICTURE,
                                description=picture.alt_text[:1024])
            view = table_buttons(table)
            channel = self.post.channel(table.channel_id)
            # the person to act is mentioned in the text; only they may be pinged
            to_act = person_to_act(table)
            mentions = discord.AllowedMentions(
                everyone=False, roles=False,
                users=[discord.Object(to_act)] if to_act is not None else False)
            old = table.message_id
            if old is not None and not anew:
                try:
                    await channel.get_partial_message(old).edit(
                        content=content, attachments=[file], view=view,
                        allowed_mentions=mentions)
                    return
                except discord.NotFound as exc:
                    if unknown_channel(exc):
                        raise
                    log.info("table message in %s was deleted: posting it again",
                             table.channel_id)
                file = discord.File(_bytes(picture.png), filename=TABLE_PICTURE,
                                    description=picture.alt_text[:1024])
            moving = old if anew else None
            if moving is not None:  # (stored first: a kill from now on leaves a trace)
                await self.message_posted(table, moving, moving_from=moving)
            message = await channel.send(content=content, file=file, view=view,
                                         allowed_mentions=mentions)
            # once posted, the new message is stored and a nudge's old one deleted even
            # through a close, or the next start would show two table messages
            if await to_the_end(self._moved(table, message.id, moving)):
                raise asyncio.CancelledError

    async def _moved(self, table: Table, message_id: int, old: int | None) -> None:
        """The table message is now ``message_id``: stored, then ``old`` (a nudge's) is
        deleted, after the new one is stored so that there is never no table message, and
        then the move is over."""
        await self.message_posted(table, message_id, moving_from=old)
        if old is not None:
            with contextlib.suppress(discord.NotFound):
                await self.post.channel(table.channel_id).get_partial_message(old).delete()
            await self.message_posted(table, message_id)

    async def finish_move(self, table: Table) -> None:
        """At a start, a table whose message a kill stopped moving (``moving_from``): the
        message left over is deleted, the old one, or a new one the bot posted after it
        but did not store (its picture, ``TABLE_PICTURE``, tells it from the bot's other
        posts); then the move is over. A failure that may pass (Discord's error, the
        network's) leaves the move stored for the next start; a refusal (no permission to
        read or delete) ends it."""
        old, now = table.moving_from, table.message_id
        if old is None or now is None:
            return
        channel = self.post.channel(table.channel_id)
        try:
            if now != old:
                with contextlib.suppress(discord.NotFound):
                    await channel.get_partial_message(old).delete()
            else:
                me = self.post.user_id
                async for message in channel.history(after=discord.Object(old),
                                                     limit=MOVE_SCAN):
                    if message.author.id == me and \
                            any(a.filename == TABLE_PICTURE for a in message.attachments):
                        with contextlib.suppress(discord.NotFound):
                            await message.delete()
        except discord.Forbidden:
            log.warning("could not tidy the table message's move in %s (no permission)",
                        table.channel_id)
        except (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError) as exc:
            log.warning("could not tidy the table message's move in %s (%s): tried again at "
                        "the next start", table.channel_id, type(exc).__name__)
            return
        await self.message_posted(table, now)

    # -- nudges ------------------------------------------------------------------------------

    def _arm_nudge(self, table: Table) -> None:
        """After a redraw: a person's turn gets its nudge at ``nudge_after`` seconds into
        their wait, unless it is over by then; once a wait (the same wait redrawn keeps
        its nudge, or the one it had)."""
        channel_id, game, ends = table.channel_id, table.game, table.turn_ends
        kept = self._nudges.get(channel_id)
        if kept is not None and kept[0][0] is game and kept[0][1] == ends:
            return
        self._drop_nudge(channel_id)
        settings = table.settings
        if person_to_act(table) is None or ends is None or game is None or \
                not settings.nudges or self._closing or \
                channel_id in self._gone:
            return
        at = ends - settings.turn_timer + settings.nudge_after  # (the wait began then)
        wait = (game, ends)
        self._nudges[channel_id] = (wait, asyncio.create_task(
            self._nudge(table, wait, at), name=f"nudge-{channel_id}"))

    def _drop_nudge(self, channel_id: int) -> None:
        """The channel's nudge to come, if any, is not made (not the one running now)."""
        kept = self._nudges.pop(channel_id, None)
        if kept is not None and kept[1] is not asyncio.current_task():
            kept[1].cancel()

    async def _nudge(self, table: Table, wait: tuple[object, float], at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        channel_id = table.channel_id
        if self._latest.get(channel_id) is not table or table.game is not wait[0] or \
                table.turn_ends != wait[1] or person_to_act(table) is None:
            return  # (the turn is over: its redraw armed the next nudge)
        try:
            await self.refresh(table, anew=True)
        except Exception as exc:  # as a redraw's
            if unknown_channel(exc):
                await self.channel_gone(channel_id)
                return
            self._failed("post the table message anew", channel_id, exc)

    async def _post_result(self, table: Table, ev: Event, names: list[str]) -> None:
        result = ev.get("result")
        if result is None:
            return
        channel = self.post.channel(table.channel_id)
        text = "\n".join([*result_lines(table.locale, result), f"→ {names[result.next_dealer]}"])
        try:
            message = await channel.send(content=text[:1900],
                                         files=await self._result_files(table, result))
            self._results[table.channel_id] = (message, text)
        except discord.HTTPException as exc:
            self._failed("post the result", table.channel_id, exc)

    async def _result_files(self, table: Table, result: HandResult) -> list[discord.File]:
        """The result's picture, as the post's file (none where it cannot be drawn: the
        words go out without it)."""
        try:
            picture = await result_picture(self.pictures, table.locale, result,
                                           plain_names(table), table.rules.seating)
        except Exception:
            log.exception("could not draw the result in %s", table.channel_id)
            return []
        return [discord.File(_bytes(picture.png), filename="result.png",
                             description=picture.alt_text[:1024])]

    async def _add_to_result(self, table: Table, lines: list[str]) -> None:
        """What became of the levels after the hand (the level transfer, a kitty penalty):
        said in the hand's result post, whose picture is drawn again with every level
        after the moves once the last is made; or in a post of its own when that one is
        gone."""
        posted = self._results.get(table.channel_id)
        channel = self.post.channel(table.channel_id)
        added = "\n".join(lines)
        try:
            if posted is not None:
                message, text = posted
                text = f"{text}\n{added}"
                settled = settled_result(table.game.state) if table.game is not None else None
                files = [] if settled is None else \
                    await self._result_files(table, settled)
                edit = channel.get_partial_message(message.id).edit
                try:
                    await (edit(content=text[:1900], attachments=files) if files
                           else edit(content=text[:1900]))
                    self._results[table.channel_id] = (message, text)
                    return
                except discord.NotFound:
                    del self._results[table.channel_id]
            await channel.send(content=added[:1900],
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            self._failed("add to the result", table.channel_id, exc)

    async def _post_match_over(self, table: Table, ev: Event) -> None:
        """The winners, by name (a team's players, or with levels by player the one who
        won), and where to look back at the match."""
        winner = int(ev.get("team"))
        seating = table.rules.seating
        if seating.individual_levels:
            seat = table.seats[winner] if 0 <= winner < len(table.seats) else None
            text = say(table.locale, "match_over_post_player",
                       name=as_typed(seat.name) if seat is not None else "?")
        else:
            winners = [as_typed(s.name) for i, s in enumerate(table.seats)
                       if s is not None and seating.fixed_team(i) == winner]
            text = say(table.locale, "match_over_post", team=winner + 1,
                       names=say(table.locale, "name_separator").join(winners))
        try:
            await self.post.channel(table.channel_id).send(
                content=text[:1900], allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            self._failed("post the match's end", table.channel_id, exc)

    # -- private ---------------------------------------------------------------------------------

    async def _tell_privately(self, table: Table, user_id: int, text: str, fallback: str,
                              what: str) -> None:
        """``text`` by DM; when that fails, ``fallback`` is kept for the player's next
        private answer (never posted where others see it)."""
        try:
            await self.post.direct(user_id, text)
        except Exception as exc:  # DMs closed (403), or any other failure
            log.info("could not DM %s at table %s (%r): told privately instead",
                     what, table.channel_id, exc)
            self.pending_private[(table.channel_id, user_id)].append(fallback)

    async def _tell_trump(self, table: Table, user_id: int, ev: Event) -> None:
        trump = trump_name(table.locale, ev.get("trump"))
        await self._tell_privately(table, user_id, say(table.locale, "trump_dm", trump=trump),
                                   say(table.locale, "trump_dm_fallback", trump=trump),
                                   "a declarer")

    async def _tell_offer(self, table: Table, user_id: int, ev: Event) -> None:
        """A teammate offers the player levels: told by DM (else at their next private
        interaction); they answer on their hand panel."""
        names = seat_names(table)
        giver = ev.get("seat") if ev.seat is None else ev.seat
        text = say(table.locale, "transfer_dm", channel=f"<#{table.channel_id}>",
                   giver=names[giver] if isinstance(giver, int) and 0 <= giver < len(names)
                   else "?", levels=int(ev.get("levels", 0)))
        await self._tell_privately(table, user_id, text, text, "a transfer offer")

    def take_private(self, channel_id: int, user_id: int) -> list[str]:
        """Private notes kept for a player (e.g. a refused DM), to show ephemerally."""
        return self.pending_private.pop((channel_id, user_id), [])


def _bytes(data: bytes) -> io.BytesIO:
    return io.BytesIO(data)
