"""Server leaderboards, player stats, match history, match export and server settings.

The StatsService counts every scored hand into the players' totals and (for ranked
matches) their openskill ratings (``bot/ratings.py``), exactly once: the store marks how
many hands of a match are counted (``matches.stats_hands``), and the service counts the
rest after each hand and at start-up. Every query takes the server (guild) id, so a
server's data is never shown in another server.

**Ranked.** A match is ranked unless the server's settings forbid computer players at
ranked tables (``computers_ranked`` off) and the table has a computer in a seat when the
match starts; a user in two seats also makes it casual. Only humans are rated, and a
human partnered with computers is rated too. Leaderboards show ranked play only;
``stats`` shows all play and the ranked part.

The export format is documented in ``docs/match-export.md``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.errors import BotError
from bot.ratings import Member, display, rate_hand
from bot.store import (
    LEADERBOARD_ORDERS,
    HandRecord,
    HandStats,
    LeaderboardOrder,
    LeaderboardRow,
    MatchRecord,
    PlayerStats,
    SeatRecord,
    Store,
    StoreError,
)
from bot.text.catalogue import say
from engine.errors import EngineError
from engine.game import Game, HandOver, MatchOver
from engine.record import FORMAT as RECORD_FORMAT
from engine.record import VERSION as RECORD_VERSION
from engine.record import GameRecord
from engine.rules import PRESETS, ruleset
from engine.scoring import HandResult

if TYPE_CHECKING:
    from bot.client import ShengjiBot

log = logging.getLogger(__name__)

PAGE_SIZE = 10
EXPORT_FORMAT = "shengji-match"
EXPORT_VERSION = 1


# -- server settings -----------------------------------------------------------------------


def parse_option_text(text: str | None) -> dict[str, str]:
    """``decks=3, level_ranks=K,A`` → {"decks": "3", "level_ranks": "K,A"}: pairs are
    separated by spaces (a trailing comma is allowed), and a value may hold commas."""
    out: dict[str, str] = {}
    for part in (text or "").split():
        part = part.strip(",")
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise BotError("bad_rules", reason=f"write options as name=value, not {part!r}")
        out[key] = value
    return out


@dataclass(frozen=True)
class ServerSettings:
    """What a server's admins set for new tables (stored as JSON in guild_settings)."""

    preset: str | None = None  # None: classic
    options: dict[str, str] = field(default_factory=dict)  # over the default preset
    turn_timer: float | None = None  # None: the bot's default
    computers_ranked: bool = True  # may computer players sit at ranked tables?

    @property
    def base_preset(self) -> str:
        return self.preset or "classic"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ServerSettings:
        preset = data.get("preset")
        options = data.get("options")
        timer = data.get("turn_timer")
        return cls(preset=preset if isinstance(preset, str) and preset in PRESETS else None,
                   options={str(k): str(v) for k, v in options.items()}
                   if isinstance(options, dict) else {},
                   turn_timer=float(timer) if isinstance(timer, (int, float)) else None,
                   computers_ranked=bool(data.get("computers_ranked", True)))

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": dict(self.options),
                "turn_timer": self.turn_timer, "computers_ranked": self.computers_ranked}

    def rules_for(self, preset: str | None, options: dict[str, Any]
                  ) -> tuple[str, dict[str, Any]]:
        """The preset and options of a new table: the server's default options apply when
        the table uses the server's default preset; the table's own options win."""
        chosen = preset or self.base_preset
        if chosen == self.base_preset:
            return chosen, {**self.options, **options}
        return chosen, dict(options)


# -- records built here ----------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardPage:
    guild_id: int
    order: LeaderboardOrder
    page: int  # 0-based
    pages: int
    total: int
    rows: list[LeaderboardRow]


@dataclass(frozen=True)
class HistoryEntry:
    """One ended match seen from one player."""

    match_id: int
    finished_at: datetime | None
    partners: list[str]
    opponents: list[str]
    outcome: str  # won, lost, abandoned
    hands: int
    ranked: bool
    levels: tuple[str, str] | None  # (the player's team, the other team) at the end


def hand_stats(match: MatchRecord, hand: HandRecord) -> list[HandStats]:
    """What a hand adds to each human's totals (a user in two seats counts once)."""
    out: list[HandStats] = []
    seen: set[int] = set()
    for seat, record in enumerate(match.seats):
        if record.user_id is None or record.user_id in seen:
            continue
        seen.add(record.user_id)
        team = seat % 2  # partners sit opposite (engine.game.Game.team_of)
        won = hand.winner_team == team
        out.append(HandStats(
            user_id=record.user_id, defending=team == hand.defenders_team, won=won,
            levels_gained=hand.levels_gained if won else 0,
            kitty_captured=hand.kitty_multiplier > 0 and hand.last_trick_seat == seat))
    return out


def teams_of(seats: Sequence[SeatRecord]) -> list[list[Member]]:
    teams: list[list[Member]] = [[], []]
    for seat, record in enumerate(seats):
        teams[seat % 2].append(Member(record.user_id, record.ai_level))
    return teams


# -- the service -----------------------------------------------------------------------------


class StatsService:
    """Counting hands into stats and ratings, and every query behind the stats commands."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = asyncio.Lock()  # one counter at a time: ratings are read-modify-write

    # server settings

    async def server_settings(self, guild_id: int) -> ServerSettings:
        return ServerSettings.from_dict(await self.store.guild_settings(guild_id))

    async def update_settings(self, guild_id: int, *, preset: str | None = None,
                              options: str | None = None, turn_timer: float | None = None,
                              computers_ranked: bool | None = None, reset: bool = False
                              ) -> ServerSettings:
        """Change what is given; ``options`` "-" (or "none") clears the default options."""
        current = ServerSettings() if reset else await self.server_settings(guild_id)
        new_preset = current.preset if preset is None else preset
        if options is None:
            # a new default preset starts without the old preset's options
            new_options = current.options if preset is None or preset == current.preset \
                else {}
        elif options.strip().lower() in ("-", "none"):
            new_options = {}
        else:
            new_options = parse_option_text(options)
        try:
            ruleset(new_preset or "classic", **new_options)
        except EngineError as exc:
            raise BotError("bad_rules", reason=exc.message) from None
        settings = ServerSettings(
            preset=new_preset, options=new_options,
            turn_timer=current.turn_timer if turn_timer is None else float(turn_timer),
            computers_ranked=current.computers_ranked if computers_ranked is None
            else computers_ranked)
        await self.store.set_guild_settings(guild_id, settings.to_dict())
        return settings

    # hooks called by the TableService

    async def ranked(self, guild_id: int, seats: Sequence[SeatRecord]) -> bool:
        """Is a match with these seats ranked in this server? (See the module docstring.)"""
        users = [s.user_id for s in seats if s.user_id is not None]
        if len(users) != len(set(users)):
            return False
        if any(s.kind == "ai" for s in seats):
            return (await self.server_settings(guild_id)).computers_ranked
        return True

    async def hand_recorded(self, match_id: int) -> None:
        """Count the match's uncounted hands. Never raises: a failure is logged and the
        hands are counted later (the next hand, or at start-up)."""
        try:
            await self.count_match(match_id)
        except (StoreError, EngineError, ValueError):
            log.exception("could not count the hands of match %s", match_id)

    async def count_match(self, match_id: int) -> int:
        """Count every stored, uncounted hand of one match; how many were counted."""
        async with self._lock:
            match = await self.store.load_match(match_id)
            if match is None:
                return 0
            done = await self.store.stats_progress(match_id)
            if done >= match.hands_played:
                return 0
            hands = (await self.store.match_hands(match_id))[done:]
            teams = teams_of(match.seats)
            for hand in hands:
                ratings = []
                if match.ranked:
                    users = [m.user_id for team in teams for m in team if m.user_id]
                    current = await self.store.load_ratings(match.guild_id, users)
                    ratings = rate_hand(teams, hand.winner_team, current)
                await self.store.count_hand(match_id, hand.hand_no, hand_stats(match, hand),
                                            ratings)
            return len(hands)

    async def catch_up(self) -> int:
        """At start-up: count the hands a crash left uncounted (and, after an upgrade,
        the hands stored before migration 002)."""
        counted = 0
        for match_id in await self.store.pending_stats():
            try:
                counted += await self.count_match(match_id)
            except StoreError:
                log.exception("could not count the hands of match %s", match_id)
        return counted

    # queries: each takes the server, and shows nothing of another server

    async def leaderboard(self, guild_id: int, order: str, page: int) -> LeaderboardPage:
        if order not in LEADERBOARD_ORDERS:
            raise BotError("lb_bad_order", orders=", ".join(LEADERBOARD_ORDERS))
        kind = cast(LeaderboardOrder, order)
        page = max(0, page)
        rows, total = await self.store.leaderboard(guild_id, kind, offset=page * PAGE_SIZE,
                                                   limit=PAGE_SIZE)
        pages = max(1, -(-total // PAGE_SIZE))
        if page >= pages and total:  # the board shrank under an old button: last page
            return await self.leaderboard(guild_id, order, pages - 1)
        return LeaderboardPage(guild_id, kind, page, pages, total, rows)

    async def leaderboard_click(self, viewer_guild: int | None, guild_id: int, order: str,
                                page: int) -> LeaderboardPage:
        """A paging button: refused outside the server the board belongs to."""
        if viewer_guild != guild_id:
            raise BotError("lb_other_server")
        return await self.leaderboard(guild_id, order, page)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        return await self.store.player_stats(guild_id, user_id)

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10
                      ) -> list[HistoryEntry]:
        out = []
        for match in await self.store.match_history(guild_id, user_id=user_id, limit=limit):
            seat = next((i for i, s in enumerate(match.seats) if s.user_id == user_id), None)
            if seat is None:
                continue
            team = seat % 2
            partners = [s.name for i, s in enumerate(match.seats) if i % 2 == team and i != seat]
            opponents = [s.name for i, s in enumerate(match.seats) if i % 2 != team]
            outcome = "abandoned" if match.status == "abandoned" else \
                "won" if match.winner_team == team else "lost"
            levels = None
            if match.hands_played:
                last = (await self.store.match_hands(match.id))[-1]
                levels = (last.levels_after[team], last.levels_after[1 - team])
            out.append(HistoryEntry(match.id, match.finished_at, partners, opponents, outcome,
                                    match.hands_played, match.ranked, levels))
        return out

    async def export(self, guild_id: int, match_id: int) -> dict[str, Any]:
        """The match as a ``shengji-match`` document (docs/match-export.md). Only ended
        matches of this server: a match in play would reveal hidden cards."""
        match = await self.store.load_match(match_id)
        if match is None or match.guild_id != guild_id:
            raise BotError("no_match", match=match_id)
        if match.status == "playing":
            raise BotError("match_in_play", match=match_id)
        actions = await self.store.load_actions(match_id)
        hands = await self.store.match_hands(match_id)
        return {
            "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
            "match": {"id": match.id, "status": match.status, "ranked": match.ranked,
                      "winner_team": match.winner_team, "hands_played": match.hands_played,
                      "started_at": match.started_at.isoformat(),
                      "finished_at": None if match.finished_at is None
                      else match.finished_at.isoformat()},
            "seats": [{"seat": i, "team": i % 2, "kind": s.kind, "name": s.name,
                       "ai_level": s.ai_level} for i, s in enumerate(match.seats)],
            "record": {"format": RECORD_FORMAT, "version": RECORD_VERSION, "seed": match.seed,
                       "rules": match.rules, "actions": actions},
            "hands": [hand_summary(h) for h in hands],
        }


# -- export and replay -------------------------------------------------------------------------


def hand_summary(hand: HandRecord) -> dict[str, Any]:
    """The result of a stored hand as written in an export."""
    return {"hand_no": hand.hand_no, "dealer": hand.dealer, "level": hand.level,
            "trump": hand.trump, "defenders_team": hand.defenders_team,
            "attacker_points": hand.attacker_points,
            "kitty_multiplier": hand.kitty_multiplier, "last_trick_seat": hand.last_trick_seat,
            "winner_team": hand.winner_team, "levels_gained": hand.levels_gained,
            "levels_before": list(hand.levels_before), "levels_after": list(hand.levels_after)}


def _replayed_summary(hand_no: int, result: HandResult, trump: str | None,
                      last_trick_seat: int | None) -> dict[str, Any]:
    defenders = result.dealer % 2
    winner = {"defenders": defenders, "attackers": 1 - defenders}.get(result.side)

    def by_team(pair: tuple[Any, Any]) -> list[str]:
        out = ["", ""]
        out[defenders], out[1 - defenders] = pair[0].label, pair[1].label
        return out

    return {"hand_no": hand_no, "dealer": result.dealer, "level": result.old_levels[0].label,
            "trump": trump, "defenders_team": defenders,
            "attacker_points": result.attacker_points, "kitty_multiplier": result.multiplier,
            "last_trick_seat": last_trick_seat, "winner_team": winner,
            "levels_gained": result.levels if winner is not None else 0,
            "levels_before": by_team(result.old_levels),
            "levels_after": by_team(result.new_levels)}


def replay_export(document: dict[str, Any]) -> list[dict[str, Any]]:
    """Replay an export's record with the engine; every scored hand's result, in the
    export's ``hands`` format. Raises EngineError if the document or an action is bad."""
    if document.get("format") != EXPORT_FORMAT or document.get("version") != EXPORT_VERSION:
        raise EngineError("bad_record", f"not a {EXPORT_FORMAT} version {EXPORT_VERSION} file")
    record = GameRecord.from_dict(document["record"])
    game = Game(record.rules, record.seed)
    out: list[dict[str, Any]] = []
    last_winner: int | None = None
    for action in record.actions:
        for ev in game.apply(action):
            if ev.kind == "trick_won":
                last_winner = ev.seat
            elif ev.kind == "hand_scored":
                phase = game.phase
                assert isinstance(phase, (HandOver, MatchOver))
                trump = phase.ctx.trump
                out.append(_replayed_summary(game.hand_number, ev.get("result"),
                                             None if trump is None else trump.value,
                                             last_winner))
    return out


# -- Discord: embeds, texts and the leaderboard buttons ---------------------------------------


def _number(value: float) -> str:
    return f"{value:.1f}"


def leaderboard_line(locale: str | None, row: LeaderboardRow, order: str) -> str:
    if order == "rating":
        key = "lb_line_rating"
    elif order == "wins":
        key = "lb_line_wins"
    else:
        key = "lb_line_levels"
    return say(locale, key, pos=row.position, name=discord.utils.escape_markdown(row.name),
               rating=display(row.rating), hands=row.rating.hands if row.rating else 0,
               won=row.won, played=row.played, levels=row.levels_gained)


def leaderboard_embed(page: LeaderboardPage, locale: str | None) -> discord.Embed:
    lines = [leaderboard_line(locale, row, page.order) for row in page.rows]
    embed = discord.Embed(title=say(locale, f"lb_title_{page.order}"),
                          description="\n".join(lines) or say(locale, "lb_empty"))
    embed.set_footer(text=say(locale, "lb_footer", page=page.page + 1, pages=page.pages,
                              total=page.total))
    return embed


def lb_custom_id(guild_id: int, order: str, page: int) -> str:
    return f"sj:lb:{guild_id}:{order}:{page}"


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"sj:lb:(?P<guild>[0-9]+):(?P<order>rating|wins|levels)"
                                 r":(?P<page>[0-9]{1,6})"):
    """A paging or ordering button of a leaderboard. Its id says which server, order and
    page to show, and nothing else; the board is read fresh on every click."""

    def __init__(self, guild_id: int, order: str, page: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or order,
                                           custom_id=lb_custom_id(guild_id, order, page)))
        self.guild_id = guild_id
        self.order = order
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> LeaderboardButton:
        return cls(int(match["guild"]), match["order"], int(match["page"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.tree import locale_of, report_error

        bot = cast("ShengjiBot", interaction.client)
        locale = locale_of(interaction)
        try:
            page = await bot.stats.leaderboard_click(interaction.guild_id, self.guild_id,
                                                     self.order, self.page)
            await interaction.response.edit_message(embed=leaderboard_embed(page, locale),
                                                    view=leaderboard_view(page, locale))
        except Exception as exc:  # noqa: BLE001 - every failure gets an answer
            await report_error(interaction, exc)


def leaderboard_view(page: LeaderboardPage, locale: str | None) -> discord.ui.View:
    """Previous/next (only where there is a page) and the two other orders."""
    view = discord.ui.View(timeout=None)
    if page.page > 0:
        view.add_item(LeaderboardButton(page.guild_id, page.order, page.page - 1,
                                        say(locale, "btn_prev")))
    if page.page + 1 < page.pages:
        view.add_item(LeaderboardButton(page.guild_id, page.order, page.page + 1,
                                        say(locale, "btn_next")))
    for order in LEADERBOARD_ORDERS:
        if order != page.order:
            view.add_item(LeaderboardButton(page.guild_id, order, 0,
                                            say(locale, f"btn_lb_{order}")))
    return view


def stats_embed(stats: PlayerStats | None, name: str, locale: str | None) -> discord.Embed:
    shown = discord.utils.escape_markdown(stats.name if stats else name)
    embed = discord.Embed(title=say(locale, "stats_title", name=shown))
    if stats is None or (stats.played + stats.abandoned + stats.hands_defending
                         + stats.hands_attacking) == 0:
        embed.description = say(locale, "stats_none", name=shown)
        return embed
    lines = [
        say(locale, "stats_matches", played=stats.played, won=stats.won,
            abandoned=stats.abandoned, ranked_played=stats.ranked_played,
            ranked_won=stats.ranked_won),
        say(locale, "stats_defending", hands=stats.hands_defending, won=stats.won_defending),
        say(locale, "stats_attacking", hands=stats.hands_attacking, won=stats.won_attacking),
        say(locale, "stats_levels", levels=stats.levels_gained),
        say(locale, "stats_kitties", kitties=stats.kitties_captured),
    ]
    if stats.rating is None:
        lines.append(say(locale, "stats_unrated"))
    else:
        lines.append(say(locale, "stats_rating", rating=display(stats.rating),
                         position=stats.position, mu=_number(stats.rating.mu),
                         sigma=_number(stats.rating.sigma), hands=stats.rating.hands))
    embed.description = "\n".join(lines)
    return embed


def history_text(entries: Sequence[HistoryEntry], name: str, locale: str | None) -> str:
    shown = discord.utils.escape_markdown(name)
    if not entries:
        return say(locale, "history_empty", name=shown)
    lines = [say(locale, "history_title", name=shown)]
    for e in entries:
        lines.append(say(
            locale, "history_line", id=e.match_id,
            date=e.finished_at.strftime("%Y-%m-%d") if e.finished_at else "—",
            partners=discord.utils.escape_markdown(", ".join(e.partners) or "—"),
            opponents=discord.utils.escape_markdown(", ".join(e.opponents)),
            result=say(locale, f"history_{e.outcome}"), hands=e.hands,
            levels=f" · {e.levels[0]}:{e.levels[1]}" if e.levels else "",
            ranked=say(locale, "history_ranked") if e.ranked else ""))
    return "\n".join(lines)


def settings_text(settings: ServerSettings, default_timer: float, locale: str | None) -> str:
    options = " ".join(f"{k}={v}" for k, v in settings.options.items()) or "—"
    timer = settings.turn_timer if settings.turn_timer is not None else default_timer
    return say(locale, "settings_show", preset=settings.base_preset, options=options,
               timer=round(timer), ranked=say(locale, "yes" if settings.computers_ranked
                                               else "no"))
