"""The stats commands' Discord side: leaderboard, stats and history texts and embeds,
the server settings text, and the leaderboard's persistent paging buttons."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.guard import GuardedControl
from bot.ratings import display
from bot.services import services_of
from bot.stats.queries import HistoryEntry, LeaderboardPage
from bot.stats.settings import ServerSettings
from bot.store import LEADERBOARD_ORDERS, LeaderboardRow, PlayerStats
from bot.table_data import TableSettings
from bot.text.catalogue import say
from bot.tree import as_typed, locale_of, report_error


def _number(value: float) -> str:
    return f"{value:.1f}"


def leaderboard_line(locale: str | None, row: LeaderboardRow, order: str) -> str:
    if order == "rating":
        key = "lb_line_rating"
    elif order == "wins":
        key = "lb_line_wins"
    else:
        key = "lb_line_levels"
    return say(locale, key, pos=row.position, name=as_typed(row.name),
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


class LeaderboardButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
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
        locale = locale_of(interaction)
        try:
            stats = services_of(interaction.client).stats
            page = await stats.leaderboard_click(interaction.guild_id, self.guild_id,
                                                 self.order, self.page)
            await interaction.response.edit_message(embed=leaderboard_embed(page, locale),
                                                    view=leaderboard_view(page, locale))
        except Exception as exc:  # every failure gets an answer
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
    shown = as_typed(stats.name if stats else name)
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
    shown = as_typed(name)
    if not entries:
        return say(locale, "history_empty", name=shown)
    lines = [say(locale, "history_title", name=shown)]
    for e in entries:
        date = e.finished_at.strftime("%Y-%m-%d") if e.finished_at else "—"
        result = say(locale, f"history_{e.outcome}")
        ranked = say(locale, "history_ranked") if e.ranked else ""
        if e.fixed_teams:
            lines.append(say(
                locale, "history_line", id=e.match_id, date=date,
                partners=_names(e.partners, locale) or "—",
                opponents=_names(e.opponents, locale),
                result=result, hands=e.hands,
                levels=f" · {e.levels[0]}:{e.levels[1]}" if e.levels else "",
                ranked=ranked))
        else:  # no fixed partners: the sides changed from hand to hand
            lines.append(say(
                locale, "history_line_open", id=e.match_id, date=date,
                players=_names(e.others, locale), result=result,
                hands=e.hands,
                levels=say(locale, "history_own_level", level=e.levels[0]) if e.levels
                else "", ranked=ranked))
    return "\n".join(lines)


def _names(names: Sequence[str], locale: str | None) -> str:
    """Seat names as a list; a former player (who erased their data) has none."""
    return ", ".join(as_typed(n) if n else say(locale, "former_player")
                     for n in names)


def settings_text(settings: ServerSettings, defaults: TableSettings, locale: str | None
                  ) -> str:
    """The server's settings; ``defaults``: the bot's, where the server keeps them."""
    options = " ".join(f"{k}={v}" for k, v in settings.options.items()) or "—"
    shown = settings.table_settings(defaults)
    size = settings.table_size()
    table = say(locale, "settings_table", players=size[0], decks=size[1]) if size else "—"
    return say(locale, "settings_show", preset=settings.base_preset, options=options,
               table=table,
               timer=round(shown.turn_timer),
               ranked=say(locale, "yes" if settings.computers_ranked else "no"),
               nudge=say(locale, "settings_nudge", seconds=round(shown.nudge_after))
               if shown.nudges else say(locale, "settings_nudge_never"))
