"""TableService: the only code that changes a game. One table per channel.

An action is one transaction, under the table's lock: compute the next game (the
current one is left as it is), append the action to the store (durably, before anyone
is answered), then swap the next game in. A refused action raises ``BotError``; an
action the store did not take raises ``BotError("storage")``; either way the table is
exactly as it was, with nothing to undo. What derives from a stored action (the hand's
record, stats, the end of the match) runs after the swap and never un-happens it: a
failure there is logged and caught up later (a restart replays the log).

Each change is put in the table's outbox under the lock and published after it, in
order (``bot/outbox.py``). A clock task per table deals the cards, closes the last
chance to declare, lets computer players (and stand-ins for away players) act in every
phase (bidding, naming the trump and calling friends too), applies the default of a
person's after-hand choice when their timer runs out (``after_hand_default``), and
starts the next hand. A computer decides outside the lock, on the game as it was; its
action is applied only if the game is still that one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.errors import BotError
from bot.outbox import Outbox
from bot.stats.hands import hand_record
from bot.store import FORMER_PLAYER, CorruptRow, SeatRecord, Store, StoreError, TableRecord
from bot.table_data import (
    AI_LEVELS,
    Seat,
    Table,
    TableSettings,
    after_hand_default,
    check_hosted,
    fitting_decks,
)
from bot.through_cancel import to_the_end
from engine.actions import (
    Action,
    Bury,
    Deal,
    Declare,
    EndDeal,
    Event,
    NextHand,
    Play,
    ReturnCards,
    SwapKitty,
    action_from_dict,
    action_to_dict,
    event,
)
from engine.cards import Card
from engine.errors import EngineError
from engine.game import AFTER_HAND, Dealing, Game, HandOver, MatchOver, apply, settled_result
from engine.rules import Ruleset, ruleset
from engine.views import SeatView, seat_view

log = logging.getLogger(__name__)

#: A clock step that could not be done (the database away) is tried again after 1 s, then
#: 2, 4, up to this (or at once when something happens at the table).
CLOCK_RETRY_LONGEST = 8.0
#: How often, at most and at least, the service looks for tables left alone (seconds).
IDLE_SWEEP_LONGEST, IDLE_SWEEP_SHORTEST = 600.0, 1.0


class Publisher(Protocol):
    """How the service tells the world (the Discord layer implements it)."""

    async def table_changed(self, table: Table, events: Sequence[Event]) -> None:
        """Public: update the table message and announce the public events."""

    async def tell_seat(self, table: Table, seat: int, events: Sequence[Event]) -> None:
        """Private: events only ``seat`` may see (hidden trump, cards received)."""

    def table_gone(self, channel_id: int) -> None:
        """The channel is gone (deleted, or its server removed the bot): nothing more is
        shown there."""


class Deciders(Protocol):
    """Computer players. An implementation hands the AI ``seat_view(game, seat)`` only."""

    async def decide(self, game: Game, seat: int, level: str, seed: int) -> Action: ...

    async def declaration(self, game: Game, seat: int, level: str, seed: int
                          ) -> Declare | None: ...


class StatsHooks(Protocol):
    """Stats and ratings (bot/stats/counting.py): is a match ranked; count a stored hand."""

    async def ranked(self, guild_id: int, seats: Sequence[SeatRecord]) -> bool: ...

    async def hand_recorded(self, match_id: int) -> None: ...


@dataclass
class _Running:
    """What the service keeps beside a table: its lock, outbox and clock."""

    outbox: Outbox
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wakeup: asyncio.Event = field(default_factory=asyncio.Event)
    since: float = field(default_factory=time.monotonic)  # when the current wait began
    task: asyncio.Task[None] | None = None
    failed: int = 0  # the clock's steps in a row that could not be done (an outage)


@dataclass(frozen=True)
class Restored:
    """A table rebuilt at start-up, with the public events its replay went through (the
    most recent ones: the table's recent lines come back, without being announced)."""

    table: Table
    recent: Sequence[Event]


RECENT_REPLAYED = 200


@dataclass(frozen=True)
class Damaged:
    """A stored table that could not be rebuilt at start-up. It is kept as it is in the
    store (nothing is deleted without someone asking); its channel is told why, and its
    host (or a member with Manage Server) can end it, after which its log exports."""

    record: TableRecord
    reason: str


def _damage_reason(exc: Exception) -> str:
    """Why a table could not be restored, fit for its channel and the log: the error's
    code, never its sentence (a refused replay can name the cards in someone's hand)."""
    if isinstance(exc, EngineError):
        preset = exc.params.get("preset")
        return exc.code + (f" {preset!r}" if isinstance(preset, str) else "")
    if isinstance(exc, StoreError):
        return "unreadable stored data"
    return type(exc).__name__


def _hours(seconds: float) -> int | float:
    """Seconds as hours, for a text: a whole number where it is one."""
    hours = round(seconds / 3600, 3)
    return int(hours) if hours == int(hours) else hours


def next_game(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """The game after ``action`` and its events; ``game`` itself is left as it was
    (``EngineError`` if the rules refuse the action). A new holder, so whoever still
    holds the old game (a computer deciding on it) sees it unchanged."""
    state, events = apply(game.state, action)
    return Game.of(state, [*game.log, action]), list(events)


class TableService:
    def __init__(self, store: Store, publisher: Publisher, deciders: Deciders, *,
                 default_settings: TableSettings | None = None, seed: int | None = None,
                 stats: StatsHooks | None = None, idle_lobby: float | None = None,
                 idle_paused: float | None = None) -> None:
        """``idle_lobby``, ``idle_paused``: seconds after which a lobby nobody touched, or
        a match paused with everyone away, is closed (``_close_idle``); None: never."""
        self.store = store
        self.publisher = publisher
        self.deciders = deciders
        self.default_settings = default_settings or TableSettings()
        self.stats = stats
        self.tables: dict[int, Table] = {}
        self.damaged: dict[int, Damaged] = {}  # by channel: tables kept out of play
        self._running: dict[int, _Running] = {}  # by channel, beside self.tables
        self._going: set[int] = set()  # channels whose table ``_gone`` is ending
        self._rng = random.Random(seed)  # a seed makes every deal repeatable (tests)
        self._closing = False
        self.idle_lobby = idle_lobby
        self.idle_paused = idle_paused
        self._sweeper: asyncio.Task[None] | None = None

    # -- start-up and shutdown ------------------------------------------------------------

    async def restore(self) -> list[Restored]:
        """Rebuild the stored tables in a lobby or in play; games in play are replayed from
        their logs. (A finished table is read when its Play again is pressed: a deployment
        keeps one for every channel that ever played.)"""
        restored = []
        for record in await self.store.live_tables():
            try:
                table, recent = await self._restore_one(record)
            except Exception as exc:  # one bad row must not stop the bot
                reason = _damage_reason(exc)
                log.warning("table in channel %s could not be restored, kept aside "
                            "(quarantined): %s", record.channel_id, reason)
                self.damaged[record.channel_id] = Damaged(record, reason)
                continue
            self._keep(table)
            restored.append(Restored(table, recent))  # (drawn as it ended, if it did)
            if table.status == "finished":
                self._let_go(table)
            elif table.status == "playing":
                self._wait_begins(table, self._running[table.channel_id])
                self._start_clock(table)
        return restored

    async def _restore_one(self, record: TableRecord) -> tuple[Table, list[Event]]:
        table = Table.of(record, self.default_settings)
        if table.status != "finished":
            table.rules  # noqa: B018 - an unknown preset or option fails here, not on redraw
        recent: deque[Event] = deque(maxlen=RECENT_REPLAYED)
        if table.status == "playing" and table.match_id is not None:
            match = await self.store.load_match(table.match_id)
            if match is None:
                raise StoreError(f"match {table.match_id} is missing")
            table.game = Game(Ruleset.from_dict(match.rules), match.seed)
            stored = await self.store.match_hands(table.match_id)
            # hand numbers are the engine's (a three-bid re-deal skips one)
            recorded = stored[-1].hand_no + 1 if stored else 0
            for data in await self.store.load_actions(table.match_id):
                events = table.game.apply(action_from_dict(data))
                recent.extend(e for e in events if e.audience is None)
                # a crash between storing an action and its hand's result: catch up
                if any(e.kind == "hand_scored" for e in events) and \
                        table.game.hand_number >= recorded:
                    await self._derive(table, events)
            # a crash between storing the last level move after a hand and its amendment
            # (the hand recorded before, or just now)
            if table.game.hand_number >= recorded - 1:
                try:
                    await self._settle_hand(table)
                except StoreError as exc:  # (a record a step behind: no reason to stop)
                    log.warning("match %s: hand %s not amended: %s", table.match_id,
                                table.game.hand_number, exc)
            if isinstance(table.game.phase, MatchOver) and table.status == "playing":
                # a crash after the match's end was stored (or before), before the
                # table's row was
                await self._finish(table, table.game.phase.winner_team,
                                   stored=match.status != "playing")
        return table, list(recent)

    async def close(self) -> None:
        self._closing = True
        tasks = [run.task for run in self._running.values() if run.task]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # -- lobby ------------------------------------------------------------------------------

    def get(self, channel_id: int) -> Table:
        """The channel's table in a lobby or in play (``no_table`` for none, or one that
        has finished)."""
        damaged = self.damaged.get(channel_id)
        if damaged is not None:
            raise BotError("table_damaged", reason=damaged.reason)
        table = self.tables.get(channel_id)
        if table is None or table.status == "finished":
            raise BotError("no_table")
        return table

    async def create(self, *, channel_id: int, guild_id: int, user_id: int, name: str,
                     preset: str, options: dict[str, Any], locale: str = "en-US",
                     settings: TableSettings | None = None) -> Table:
        existing = self.tables.get(channel_id)
        if existing is not None and existing.status != "finished":
            raise BotError("table_exists")
        if channel_id in self.damaged:
            raise BotError("table_damaged", reason=self.damaged[channel_id].reason)
        options = fitting_decks(preset, options)  # (6 players of find-friends: 3 decks)
        try:
            rules = ruleset(preset, **options)
        except EngineError as exc:
            raise BotError.refused("bad_rules", exc) from None
        check_hosted(rules)
        table = Table(channel_id, guild_id, user_id, rules.preset, dict(options),
                      settings or self.default_settings, [None] * rules.players, locale)
        table.seats[0] = Seat("human", user_id, name)
        await self._save(table)
        await self.store.upsert_player(guild_id, user_id, name)
        run = self._keep(table)
        run.outbox.put([])
        await run.outbox.flush()
        return table

    async def join(self, channel_id: int, user_id: int, name: str, seat: int | None = None
                   ) -> int:
        table, run = self._get(channel_id)
        if table.status == "playing":
            return await self._sit_again(table, run, user_id, name)
        async with run.lock:
            self._in_lobby(table)
            current = table.seat_of(user_id)
            if seat is None:
                if current is not None:
                    raise BotError("already_seated", seat=current)
                seat = self._free_seat(table)
            self._check_seat(table, seat)
            occupant = table.seats[seat]
            if occupant is not None and occupant.user_id != user_id:
                raise BotError("seat_taken", seat=seat)
            if current is not None:
                table.seats[current] = None
            table.seats[seat] = Seat("human", user_id, name)
            passed = _pass_host(table)
            await self._save(table)
            await self.store.upsert_player(table.guild_id, user_id, name)
            run.outbox.put(passed)
        await run.outbox.flush()
        return seat

    async def _sit_again(self, table: Table, run: _Running, user_id: int, name: str) -> int:
        """During a match: a player who left takes their seat back from the computer."""
        async with run.lock:
            current = table.seat_of(user_id)
            if current is not None:
                raise BotError("already_seated", seat=current)
            match = await self.store.load_match(table.match_id) if table.match_id else None
            started = match.seats if match is not None else []
            mine = [i for i, s in enumerate(started) if s.kind == "human"
                    and s.user_id == user_id and i < len(table.seats)]
            if not mine:
                computers = [i for i, s in enumerate(table.seats) if s is not None and s.is_ai]
                if computers:  # the host may let them in (bot/ui/buttons.py LetInButton)
                    raise BotError("ask_host", seat=computers[0])
                raise BotError("already_started")
            seat = mine[0]
            occupant = table.seats[seat]
            if occupant is not None and not occupant.is_ai:
                raise BotError("seat_taken", seat=seat)
            table.seats[seat] = Seat("human", user_id, name)
            await self._save(table)
            if table.actor() == seat:
                run.since = time.monotonic()  # their full turn timer starts now
            run.outbox.put([])
            run.wakeup.set()
        await run.outbox.flush()
        return seat

    async def back(self, channel_id: int, user_id: int) -> bool:
        """The player is here (they opened their hand, pressed "I'm back", or acted):
        a computer no longer plays for them. True if they had been away."""
        table, run = self._get(channel_id)
        async with run.lock:
            seat = self._must_be_seated(table, user_id)
            occupant = self._occupant(table, seat)
            if not occupant.away:
                return False
            occupant.away = False
            await self._save_away(table)
            if table.actor() == seat:
                self._wait_begins(table, run)  # their full turn timer starts now
            run.outbox.put([event("back", seat=seat)])
            run.wakeup.set()
        await run.outbox.flush()
        return True

    async def leave(self, channel_id: int, user_id: int) -> None:
        table, run = self._get(channel_id)
        async with run.lock:
            seat = self._must_be_seated(table, user_id)
            passed: list[Event] = []
            if table.status == "playing":
                # a seat in play is never left empty: a computer takes it over (and a
                # host who leaves stays the host: the seat waits for them)
                name = f"{self._occupant(table, seat).name} (bot)"
                table.seats[seat] = Seat("ai", None, name, "easy")
            else:
                table.seats[seat] = None
                passed = _pass_host(table)
            await self._save(table)
            run.outbox.put(passed)
            run.wakeup.set()
        await run.outbox.flush()

    async def add_ai(self, channel_id: int, user_id: int, seat: int | None = None,
                     level: str = "easy") -> int:
        table, run = self._get(channel_id)
        if level not in AI_LEVELS:
            raise BotError("bad_ai_level", levels=", ".join(AI_LEVELS))
        async with run.lock:
            self._in_lobby(table)
            self._must_be_seated(table, user_id)
            if seat is None:
                seat = self._free_seat(table)
            self._check_seat(table, seat)
            occupant = table.seats[seat]
            if occupant is not None and not occupant.is_ai:
                raise BotError("seat_taken", seat=seat)
            table.seats[seat] = Seat("ai", None, f"Bot {seat + 1}", level)
            await self._save(table)
            run.outbox.put([])
        await run.outbox.flush()
        return seat

    async def remove_ai(self, channel_id: int, user_id: int, seat: int) -> None:
        table, run = self._get(channel_id)
        async with run.lock:
            self._in_lobby(table)
            self._must_be_seated(table, user_id)
            self._check_seat(table, seat)
            occupant = table.seats[seat]
            if occupant is None or not occupant.is_ai:
                raise BotError("not_a_bot_seat", seat=seat)
            table.seats[seat] = None
            await self._save(table)
            run.outbox.put([])
        await run.outbox.flush()

    async def remove(self, channel_id: int, user_id: int, seat: int, *,
                     can_manage: bool = False) -> Seat:
        """Before the start, the host frees a seat (a person's or a computer's); the
        host's own seat is left with ``leave``. Returns who sat there."""
        table, run = self._get(channel_id)
        async with run.lock:
            self._in_lobby(table)
            self._must_be_host(table, user_id, can_manage)
            self._check_seat(table, seat)
            occupant = table.seats[seat]
            if occupant is None:
                raise BotError("seat_empty", seat=seat)
            if occupant.user_id == user_id and not occupant.is_ai:
                raise BotError("remove_yourself")
            table.seats[seat] = None
            passed = _pass_host(table)
            await self._save(table)
            run.outbox.put(passed)
        await run.outbox.flush()
        return occupant

    async def play_again(self, channel_id: int, user_id: int, *, can_manage: bool = False
                         ) -> Table:
        """After a match: a new table in the channel with the same rules, settings and
        people (and computers) in the same seats, in the lobby; the host starts it."""
        if channel_id in self.damaged:
            raise BotError("table_damaged", reason=self.damaged[channel_id].reason)
        old = self.tables.get(channel_id) or await self._stored_finished(channel_id)
        if old is None or old.status != "finished" or old.match_id is None:
            raise BotError("no_finished_match")
        match = await self.store.load_match(old.match_id)
        # the people (and computers) who started the match, in their seats: someone who
        # left during it is seated again, not the computer that stood in for them
        # (a seat whose player erased their data is empty)
        started: list[Seat | None] = [None if s.user_id == FORMER_PLAYER else Seat.of(s)
                                      for s in match.seats] if match is not None \
            else list(old.seats)
        if user_id != old.host_id and not can_manage and \
                not any(s is not None and s.user_id == user_id and not s.is_ai
                        for s in started):
            raise BotError("not_seated")
        seats: list[Seat | None] = list(started[:len(old.seats)])
        host = user_id if old.host_id == FORMER_PLAYER else old.host_id
        table = Table(channel_id, old.guild_id, host, old.preset, dict(old.options),
                      old.settings, seats, old.locale, old.message_id)
        now = self.tables.get(channel_id)
        if now is not None and now is not old:  # (another Play again, or a create, meanwhile)
            raise BotError("table_exists")
        await self._save(table)
        run = self._keep(table)
        run.outbox.put([])
        await run.outbox.flush()
        return table

    async def _stored_finished(self, channel_id: int) -> Table | None:
        """The channel's finished table as stored (not kept since the start), if any."""
        try:
            record = await self.store.load_table(channel_id)
        except CorruptRow as exc:  # (one bad row never stops the bot)
            log.warning("the finished table in channel %s does not read: %s", channel_id, exc)
            return None
        if record is None or record.status != "finished":
            return None
        return Table.of(record, self.default_settings)

    async def let_in(self, channel_id: int, user_id: int, seat: int, newcomer_id: int,
                     name: str, *, can_manage: bool = False) -> None:
        """During a match, the host lets ``newcomer_id`` take over seat ``seat`` from
        the computer that plays it."""
        table, run = self._get(channel_id)
        async with run.lock:
            if table.status != "playing":
                raise BotError("not_started")
            self._must_be_host(table, user_id, can_manage)
            self._check_seat(table, seat)
            if table.seat_of(newcomer_id) is not None:
                raise BotError("already_seated_other", seat=table.seat_of(newcomer_id))
            occupant = table.seats[seat]
            if occupant is None or not occupant.is_ai:
                raise BotError("seat_taken", seat=seat)
            table.seats[seat] = Seat("human", newcomer_id, name)
            await self._save(table)
            await self.store.upsert_player(table.guild_id, newcomer_id, name)
            if table.actor() == seat:
                self._wait_begins(table, run)
            run.outbox.put([event("back", seat=seat)])
            run.wakeup.set()
        await run.outbox.flush()

    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False
                    ) -> Table:
        """Start the match (the host, or a member with Manage Server); empty seats get
        computer players."""
        table, run = self._get(channel_id)
        async with run.lock:
            self._in_lobby(table)
            self._must_be_host(table, user_id, can_manage)
            for i, seat in enumerate(table.seats):
                if seat is None:
                    table.seats[i] = Seat("ai", None, f"Bot {i + 1}", "easy")
                else:
                    seat.away = False  # (a new match: everybody plays their own cards)
            rules = table.rules
            seed = self._rng.randrange(2**62)
            seats = [s.record() for s in table.seats if s is not None]
            ranked = await self.stats.ranked(table.guild_id, seats) if self.stats else False
            table.match_id = await self.store.create_match(
                table.guild_id, table.channel_id, seed, rules.to_dict(), seats, ranked=ranked)
            table.game = Game(rules, seed)
            table.status = "playing"
            self._wait_begins(table, run)
            await self._save(table)
            run.outbox.put([])
        await run.outbox.flush()
        self._start_clock(table)
        return table

    async def end(self, channel_id: int, user_id: int, *, can_manage: bool) -> None:
        damaged = self.damaged.get(channel_id)
        if damaged is not None:
            await self._end_damaged(damaged, user_id, can_manage=can_manage)
            return
        table, run = self._get(channel_id)
        if user_id != table.host_id and not can_manage:
            raise BotError("not_host")
        async with run.lock:
            await self._abandon(table)
            await self._save(table)
            run.outbox.put([])
        if run.task:
            run.task.cancel()
        await run.outbox.flush()

    async def _end_damaged(self, damaged: Damaged, user_id: int, *, can_manage: bool) -> None:
        """The host closes a table that could not be restored: its match is abandoned
        (so its log can be exported) and the channel is free for a new table."""
        record = damaged.record
        if user_id != record.host_id and not can_manage:
            raise BotError("not_host")
        await self._abandon_stored(record.match_id)
        await self.store.save_table(replace(record, status="finished"))
        del self.damaged[record.channel_id]

    async def _abandon(self, table: Table) -> None:
        """(Under the table's lock.) The table is finished, its match abandoned if in play."""
        if table.match_id is not None and table.status == "playing":
            await self.store.finish_match(table.match_id, "abandoned", None)
        table.status = "finished"

    async def _abandon_stored(self, match_id: int | None) -> None:
        """The match of a table kept aside is abandoned, if it was still in play."""
        if match_id is not None:
            match = await self.store.load_match(match_id)
            if match is not None and match.status == "playing":
                await self.store.finish_match(match_id, "abandoned", None)

    # -- a channel or a server that is gone --------------------------------------------------

    async def channel_gone(self, channel_id: int) -> bool:
        """The channel was deleted (or Discord no longer knows it): its table ends as by
        ``end`` (its match abandoned, its hands kept), with nothing shown, and is no longer
        kept, nor stored. True if a table was ended."""
        ended = await self._gone(channel_id)
        if ended:
            log.info("the channel %s of a table was deleted: its table ended", channel_id)
        return ended

    async def _gone(self, channel_id: int) -> bool:
        """``channel_gone`` without its log line; a channel told while it is being ended
        (the gateway's event and a redraw's 404 at once) is ended once."""
        if channel_id in self._going:
            return False
        self._going.add(channel_id)
        try:
            return await self._end_gone(channel_id)
        finally:
            self._going.discard(channel_id)

    async def _end_gone(self, channel_id: int) -> bool:
        """(Where the store fails, the table is kept, and the next 404 or start tells
        again.)"""
        damaged = self.damaged.get(channel_id)
        table = self.tables.get(channel_id)
        if damaged is not None:
            await self._abandon_stored(damaged.record.match_id)
            await self.store.forget_table(channel_id)
            del self.damaged[channel_id]
            ended = True
        elif table is not None:
            run = self._running[channel_id]
            ended = table.status != "finished"
            async with run.lock:
                await self._abandon(table)
                await self.store.forget_table(channel_id)
            if run.task:
                run.task.cancel()
            del self.tables[channel_id], self._running[channel_id]
        else:
            # a finished table, not kept since the start (``restore``), if any (one left
            # behind where the store fails is harmless)
            with contextlib.suppress(StoreError):
                await self.store.forget_table(channel_id)
            return False
        self.publisher.table_gone(channel_id)
        return ended

    def guilds(self) -> set[int]:
        """The servers of the tables kept (in play, in a lobby, or damaged)."""
        return ({t.guild_id for t in self.tables.values()}
                | {d.record.guild_id for d in self.damaged.values()})

    async def guild_gone(self, guild_id: int) -> int:
        """The server removed the bot (or was deleted): its tables end (``channel_gone``);
        how many were ended."""
        channels = [c for c, t in self.tables.items() if t.guild_id == guild_id]
        channels += [c for c, d in self.damaged.items() if d.record.guild_id == guild_id]
        ended = 0
        for channel_id in channels:
            ended += await self._gone(channel_id)
        log.info("the server %s removed the bot: %d table(s) ended", guild_id, ended)
        return ended

    async def remember_message(self, table: Table, message_id: int, *,
                               moving_from: int | None = None) -> None:
        """The public table message now lives at ``message_id``; ``moving_from``: a nudge
        is moving it from that message, not deleted yet."""
        run = self._running.get(table.channel_id)
        if run is None or self.tables.get(table.channel_id) is not table:
            return  # a table that was replaced meanwhile
        async with run.lock:
            table.message_id, table.moving_from = message_id, moving_from
            await self._save(table)

    # -- playing ----------------------------------------------------------------------------

    def view_for(self, channel_id: int, user_id: int) -> tuple[Table, int, SeatView]:
        table = self.get(channel_id)
        seat = self._must_be_seated(table, user_id)
        if table.game is None:
            raise BotError("not_started")
        return table, seat, seat_view(table.game, seat)

    async def act(self, channel_id: int, user_id: int, make: Callable[[int], Action]
                  ) -> list[Event]:
        """Apply the action ``make(seat)`` for the user's seat: stored, then published."""
        table, run = self._get(channel_id)
        async with run.lock:
            seat = self._must_be_seated(table, user_id)
            if table.game is None or table.status != "playing":
                raise BotError("not_started")
            events = await self._commit(table, run, make(seat))
            occupant = self._occupant(table, seat)
            if occupant.away:  # acting ends "away"
                occupant.away = False
                await self._save_away(table)
                events.append(event("back", seat=seat))
            run.outbox.put(events)
        await run.outbox.flush()
        return events

    async def declare(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: Declare(seat, tuple(cards)))

    async def give_back(self, channel_id: int, user_id: int, cards: Sequence[Card]
                        ) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: ReturnCards(seat, tuple(cards)))

    async def bury(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: Bury(seat, tuple(cards)))

    async def swap(self, channel_id: int, user_id: int, give: Sequence[Card],
                   take: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id,
                              lambda seat: SwapKitty(seat, tuple(give), tuple(take)))

    async def play(self, channel_id: int, user_id: int, cards: Sequence[Card]) -> list[Event]:
        return await self.act(channel_id, user_id, lambda seat: Play(seat, tuple(cards)))

    # -- the one place a game changes ---------------------------------------------------------

    async def _commit(self, table: Table, run: _Running, action: Action) -> list[Event]:
        """Next game, append, swap. Called under the table's lock."""
        game = table.game
        assert game is not None and table.match_id is not None
        try:
            after, events = next_game(game, action)
        except EngineError as exc:
            raise BotError.refused("illegal", exc) from None
        table.active_at = time.time()
        try:
            cancelled = await to_the_end(self.store.append_action(
                table.match_id, len(game.log), action_to_dict(action)))
        except StoreError as exc:  # (worded: a database out of reach needs no traceback)
            # (said once while the table's clock keeps failing: it said so already)
            log.log(logging.DEBUG if run.failed else logging.WARNING,
                    "could not store an action of match %s: %s", table.match_id, exc)
            raise BotError("storage") from None
        table.game = after  # the action happened: nothing below may say otherwise
        self._wait_begins(table, run)
        run.wakeup.set()
        if cancelled:  # (the service is closing: the next start catches up the rest)
            raise asyncio.CancelledError
        try:
            await self._derive(table, events)
        except Exception:  # the action is stored: no failure may deny it
            log.exception("match %s: the results of a stored action are caught up later",
                          table.match_id)
        return events

    async def _derive(self, table: Table, events: Sequence[Event]) -> None:
        """What follows from stored events: the hand's record, stats, the match's end."""
        game = table.game
        assert game is not None and table.match_id is not None
        last_winner = None
        for ev in events:
            if ev.kind == "trick_won":
                last_winner = ev.seat
            elif ev.kind == "hand_scored":
                await self.store.record_hand(hand_record(table.match_id, game, ev.get("result"),
                                                         last_winner))
                if self.stats:
                    await self.stats.hand_recorded(table.match_id)
            # the match's end and the table's row together, even through a cancel
            # (closing): a row left in play would be restored as a table in play
            elif ev.kind == "match_over" and \
                    await to_the_end(self._finish(table, ev.get("team"))):
                raise asyncio.CancelledError
        if any(ev.kind in AFTER_HAND for ev in events):
            await self._settle_hand(table)

    async def _settle_hand(self, table: Table) -> None:
        """The level moves after a hand, once all are made, amend its stored record (its
        levels after, and its lines: ``settled_result``)."""
        game = table.game
        assert game is not None and table.match_id is not None
        settled = settled_result(game.state)
        if settled is not None:
            await self.store.amend_hand(hand_record(table.match_id, game, settled, None))

    async def _finish(self, table: Table, team: int, *, stored: bool = False) -> None:
        """The match is over: stored as finished (unless ``stored``: a restart after a
        crash between the two writes), then the table's row."""
        assert table.match_id is not None
        table.status = "finished"
        if not stored:
            await self.store.finish_match(table.match_id, "finished", team)
        await self._save(table)

    async def _deliver(self, table: Table, events: Sequence[Event]) -> None:
        """One outbox batch: the public events, then each seat's private ones. A finished
        table's last batch lets the table go (``_let_go``)."""
        await self.publisher.table_changed(table, [e for e in events if e.audience is None])
        for seat in sorted({e.audience for e in events if e.audience is not None}):
            await self.publisher.tell_seat(table, seat,
                                           [e for e in events if e.audience == seat])
        if table.status == "finished":
            self._let_go(table)

    def _let_go(self, table: Table) -> None:
        """A finished table is no longer kept: its game (about half a megabyte for a whole
        match) would stay in memory until the channel's next table, one for every channel
        that played since the start. Play again reads it from the store
        (``_stored_finished``); everything else treats it as gone already."""
        channel_id = table.channel_id
        if self.tables.get(channel_id) is table:
            del self.tables[channel_id], self._running[channel_id]

    # -- the clock ----------------------------------------------------------------------------

    def _start_clock(self, table: Table) -> None:
        run = self._running[table.channel_id]
        if run.task is None or run.task.done():
            run.task = asyncio.create_task(self._clock(table, run),
                                           name=f"table-{table.channel_id}")

    def _due(self, table: Table) -> float | None:
        """Seconds from the start of the wait until the clock acts, or None (nothing to do)."""
        game = table.game
        if game is None or table.status != "playing":
            return None
        phase = game.phase
        s = table.settings
        if isinstance(phase, Dealing) and phase.pending_return is None:
            return s.deal_pause if phase.stock else s.last_chance
        if isinstance(phase, HandOver):
            return None if table.paused else s.hand_pause
        if isinstance(phase, MatchOver):
            return None
        actor = table.actor()
        if actor is None:
            return None
        seat = table.seats[actor]
        if seat is None or seat.is_ai:
            return s.ai_pause
        return s.away_pause if seat.away else s.turn_timer

    async def _clock(self, table: Table, run: _Running) -> None:
        while table.status == "playing" and not self._closing:
            due = self._due(table)
            run.wakeup.clear()
            if due is None and table.paused:  # (woken when someone is back, or leaves)
                await run.wakeup.wait()
                continue
            if due is None:
                return
            delay = run.since + due - time.monotonic()
            if delay > 0:
                try:
                    async with asyncio.timeout(delay):  # (wait_for can swallow a cancel)
                        await run.wakeup.wait()
                    continue  # something happened: look again
                except TimeoutError:
                    pass
            try:
                await self._tick(table, run)
                if run.failed:
                    log.info("clock of channel %s: going on after %d failed tries",
                             table.channel_id, run.failed)
                    run.failed = 0
            except BotError as exc:
                self._wait_begins(table, run)
                await self._retry_later(table, run, exc.key)
            except asyncio.CancelledError:
                raise
            except Exception:  # one table's fault must not stop the others
                if not run.failed:  # (its traceback once in a row)
                    log.exception("clock of channel %s failed", table.channel_id)
                self._wait_begins(table, run)
                await self._retry_later(table, run, "failed")

    async def _retry_later(self, table: Table, run: _Running, why: str) -> None:
        """After a clock step that failed: wait 1 s, then twice as long each time in a row
        (to ``CLOCK_RETRY_LONGEST``), so that an outage is not tried and logged many times a
        second; said once (at WARNING) until the clock goes on. Something happening at the
        table (a person's action, which also means the database is back) ends the wait."""
        run.failed += 1
        wait = min(CLOCK_RETRY_LONGEST, 2.0 ** (run.failed - 1))
        log.log(logging.WARNING if run.failed == 1 else logging.DEBUG,
                "clock of channel %s: %s; trying again in %g s", table.channel_id, why, wait)
        run.wakeup.clear()
        try:
            async with asyncio.timeout(wait):
                await run.wakeup.wait()
        except TimeoutError:
            pass

    # -- tables left alone --------------------------------------------------------------------

    def _idle_limit(self, table: Table) -> float | None:
        """How long the table may be left alone: a lobby, or a match paused with every
        person away (a table playing on is never idle: its computers play)."""
        if table.status == "lobby":
            return self.idle_lobby
        if table.status == "playing" and table.paused:
            return self.idle_paused
        return None

    async def _sweep(self) -> None:
        """Closes the tables left alone for longer than their limit, looking now and then
        (a tenth of the shorter limit, from 1 s to 10 minutes)."""
        limits = [limit for limit in (self.idle_lobby, self.idle_paused) if limit]
        every = min(IDLE_SWEEP_LONGEST, max(IDLE_SWEEP_SHORTEST, min(limits) / 10))
        while not self._closing:
            await asyncio.sleep(every)
            now = time.time()
            for table in list(self.tables.values()):
                limit = self._idle_limit(table)
                if limit and now - table.active_at >= limit:
                    try:
                        await self._close_idle(table)
                    except StoreError as exc:  # (the next look tries again)
                        log.warning("could not close the idle table in channel %s: %s",
                                    table.channel_id, exc)
                    except Exception:  # (one table's failure must not stop the others)
                        log.exception("could not close the idle table in channel %s",
                                      table.channel_id)

    async def _close_idle(self, table: Table) -> None:
        """The table is closed as by ``/shengji end`` (a match abandoned), saying why."""
        run = self._running.get(table.channel_id)
        if run is None or self.tables.get(table.channel_id) is not table:
            return
        async with run.lock:
            limit = self._idle_limit(table)  # (looked at again: someone may have come)
            if not limit or time.time() - table.active_at < limit:
                return
            kind = "closed_idle_lobby" if table.status == "lobby" else "closed_idle_paused"
            await self._abandon(table)
            await self._save(table)
            run.outbox.put([event(kind, hours=_hours(limit))])
        if run.task:
            run.task.cancel()
        log.info("the table in channel %s was left alone for %g hours: closed",
                 table.channel_id, _hours(limit))
        await run.outbox.flush()

    async def _tick(self, table: Table, run: _Running) -> None:
        """What the clock does when a wait is over: a step of the game's own (deal, end
        of the deal, next hand), or a computer's decision for the seat to act: a computer
        seat's, or a stand-in's for a person whose timer ran out (they are away from then
        on), except in a person's after-hand choice (the level transfer), where the
        default applies instead (``after_hand_default``)."""
        decision: tuple[Game, int, str, int] | None = None
        dealt = False
        async with run.lock:
            due = self._due(table)
            if due is None or time.monotonic() < run.since + due:
                return
            game = table.game
            assert game is not None
            phase = game.phase
            if isinstance(phase, Dealing) and phase.pending_return is None:
                dealt = bool(phase.stock)
                step = Deal(min(game.players, len(phase.stock))) if dealt else EndDeal()
                run.outbox.put(await self._commit(table, run, step))
            elif isinstance(phase, HandOver):
                run.outbox.put(await self._commit(table, run, NextHand()))
            else:
                actor = table.actor()
                assert actor is not None
                seat = self._occupant(table, actor)
                timed_out = not seat.is_ai and not seat.away
                if timed_out:
                    seat.away = True  # the turn timed out
                    table.turn_ends = None
                # a person's after-hand choice takes its default; any other decision of
                # theirs is made by a computer standing in until they are back
                default = None if seat.is_ai else after_hand_default(phase)
                try:
                    events = await self._commit(table, run, default) if default else []
                except BotError:
                    if timed_out:  # nothing happened
                        seat.away = False
                    raise
                if timed_out:
                    await self._save_away(table)
                run.outbox.put([_away_event(actor), *events] if timed_out else events)
                if default is None:
                    decision = (game, actor, seat.ai_level or "easy",
                                self._rng.randrange(2**31))
        await run.outbox.flush()
        if dealt:
            await self._computer_declarations(table, run)
        if decision is not None:
            decided_on, actor, level, seed = decision
            action = await self.deciders.decide(decided_on, actor, level, seed)
            await self._apply_decision(table, run, decided_on, actor, action)

    async def _apply_decision(self, table: Table, run: _Running, decided_on: Game,
                              seat: int, action: Action) -> None:
        """A computer's action for ``seat``, if the game is still the one it decided on
        and the seat is still played by a computer; otherwise the clock looks again."""
        async with run.lock:
            occupant = table.seats[seat]
            if table.game is not decided_on or occupant is None or \
                    not (occupant.is_ai or occupant.away):
                return
            run.outbox.put(await self._commit(table, run, action))
        await run.outbox.flush()

    async def _computer_declarations(self, table: Table, run: _Running) -> None:
        """After a round of the deal: each computer seat may declare, in seat order."""
        for i, seat in enumerate(table.seats):
            game = table.game
            if seat is None or not seat.is_ai or game is None:
                continue
            decl = await self.deciders.declaration(game, i, seat.ai_level or "easy",
                                                   self._rng.randrange(2**31))
            if decl is None:
                continue
            try:
                await self._apply_decision(table, run, game, i, decl)
            except BotError:
                continue

    # -- helpers ------------------------------------------------------------------------------

    def _wait_begins(self, table: Table, run: _Running) -> None:
        """A new wait starts now; when a person is to act, the table tells (in wall-clock
        time, for Discord's countdown) when their turn timer runs out."""
        run.since = time.monotonic()
        due = self._due(table)
        actor = table.actor()
        seat = table.seats[actor] if actor is not None else None
        person = seat is not None and not seat.is_ai and not seat.away
        table.turn_ends = time.time() + due if person and due is not None else None

    def _keep(self, table: Table) -> _Running:
        """``table`` is now the channel's table (a new one replaces a finished one)."""
        self.tables[table.channel_id] = table
        run = _Running(Outbox(lambda events: self._deliver(table, events),
                              f"channel {table.channel_id}"))
        self._running[table.channel_id] = run
        if self._sweeper is None and (self.idle_lobby or self.idle_paused):
            self._sweeper = asyncio.create_task(self._sweep(), name="idle-tables")
        return run

    def _get(self, channel_id: int) -> tuple[Table, _Running]:
        table = self.get(channel_id)
        return table, self._running[channel_id]

    async def _save(self, table: Table) -> None:
        table.active_at = time.time()
        await self.store.save_table(table.record())

    async def _save_away(self, table: Table) -> None:
        """Who is away, kept for a restart; where it cannot be stored the game goes on (what
        happened stands), and a restart only takes everybody for back."""
        try:
            await self._save(table)
        except StoreError:
            log.warning("could not store who is away at the table in channel %s",
                        table.channel_id)

    @staticmethod
    def _must_be_host(table: Table, user_id: int, can_manage: bool) -> None:
        if user_id != table.host_id and not can_manage:
            raise BotError("not_host")

    @staticmethod
    def _in_lobby(table: Table) -> None:
        if table.status != "lobby":
            raise BotError("already_started")

    @staticmethod
    def _free_seat(table: Table) -> int:
        free = [i for i, s in enumerate(table.seats) if s is None]
        if not free:
            raise BotError("table_full")
        return free[0]

    @staticmethod
    def _check_seat(table: Table, seat: int) -> None:
        if not 0 <= seat < len(table.seats):
            raise BotError("no_such_seat", seat=seat, seats=len(table.seats))

    @staticmethod
    def _must_be_seated(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise BotError("not_seated")
        return seat

    @staticmethod
    def _occupant(table: Table, seat: int) -> Seat:
        """The seat of a table in play (never empty once the match has started)."""
        occupant = table.seats[seat]
        assert occupant is not None
        return occupant


def _pass_host(table: Table) -> list[Event]:
    """In a lobby, whoever hosts is seated: where the host is not (they left, or their seat
    was freed) and a person is, the first person seated becomes the host, so that the
    people waiting can start the match. The event that says so, if the host changed."""
    if table.seat_of(table.host_id) is not None:
        return []
    for i, seat in enumerate(table.seats):
        if seat is not None and not seat.is_ai and seat.user_id is not None:
            table.host_id = seat.user_id
            return [event("host_passed", seat=i)]
    return []  # (nobody to take over: the next person to sit down hosts)


def _away_event(seat: int) -> Event:
    return event("away", seat=seat)
