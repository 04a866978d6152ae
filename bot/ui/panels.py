"""A player's private hand panel: an ephemeral message with the hand picture, its text,
and the choices the rules allow right now (declarations, plays, no-swap).

The panel is refreshed in place as cards arrive and turns pass, through the interaction
that opened it or last used it; Discord allows that for 15 minutes, after which the panel
says so. Its menus and buttons are dynamic items whose ids carry the kind and the
channel (the card picker also its picking in progress: positions in the owner's hand,
never card names), so they keep working after a restart. Everything in it is the
owner's own view.
"""

from __future__ import annotations

import functools
import io
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.ai import rank_plays
from bot.errors import BotError
from bot.guard import GuardedControl
from bot.services import Services, services_of
from bot.table_data import Table
from bot.text.catalogue import say
from bot.text.events import call_text, calls_status, copy_word, phase_status, trump_name
from bot.tree import defer_privately, locale_of, mark_stored, reply, report_error
from bot.ui.cards_input import hand_order
from bot.ui.decisions import (
    CALL_GROUPS,
    DRAFT_PATTERN,
    JOKERS,
    CallDraft,
    allowed_bids,
    asked_to_accept,
    copy_choices,
    draft_of,
    group_cards,
    may_call,
    may_pass,
    transfer_choices,
    trump_words,
)
from bot.ui.render import hand_picture, hand_text, plain_names, seat_names
from engine.actions import Action, AnswerTransfer, Bid, NameTrump, PassBid, Transfer
from engine.cards import Card, Suit, format_cards, parse_cards
from engine.errors import EngineError
from engine.game import (
    Bidding,
    Burying,
    CallingFriends,
    Dealing,
    Game,
    NamingTrump,
    Playing,
    Swapping,
    Transferring,
)
from engine.legal import legal_declarations, legal_plays
from engine.views import SeatView, public_view

MAX_OPTIONS = 25
# Discord lets a bot edit an interaction's messages for 15 minutes; stop a little before
PANEL_LIFETIME = 14 * 60.0


def play_choices(services: Services, channel_id: int, user_id: int) -> list[tuple[Card, ...]]:
    """The user's legal plays now, best first (empty when it is not their turn)."""
    table, seat, _ = services.tables.view_for(channel_id, user_id)
    game = table.game
    assert game is not None
    return rank_plays(game, seat, legal_plays(game, seat))


def declaration_choices(services: Services, channel_id: int, user_id: int
                        ) -> list[tuple[Card, ...]]:
    table, seat, _ = services.tables.view_for(channel_id, user_id)
    assert table.game is not None
    return legal_declarations(table.game, seat)


async def build_panel(services: Services, channel_id: int, user_id: int, locale: str,
                      picking: Progress | None = None
                      ) -> tuple[str, discord.File, discord.ui.View]:
    """The panel's text, hand picture and controls. ``picking``: a card picking or the
    calls being made, carried over from the panel's last state."""
    table, seat, view = services.tables.view_for(channel_id, user_id)
    game = table.game
    assert game is not None
    phase = game.phase
    lines = [hand_text(locale, view)]
    ui = discord.ui.View(timeout=None)
    kind = pick_kind(game, seat)
    draft = picking if isinstance(picking, CallDraft) else None
    picking = picking if isinstance(picking, Picking) else None
    lines += add_decisions(ui, locale, table, seat, draft)
    unplayable: Sequence[Card] = ()
    selected: list[Card] = []  # picked cards of the hand stand raised on its picture
    if isinstance(phase, Dealing):
        if phase.pending_return and phase.pending_return[0] == seat:
            lines.append(say(locale, "hint_return", count=phase.pending_return[2]))
        options = declaration_choices(services, channel_id, user_id)
        if options:
            ui.add_item(PanelChoice("declare", channel_id, say(locale, "pick_declaration"),
                                    options))
    elif isinstance(phase, Burying) and phase.taker == seat:
        lines.append(say(locale, "hint_bury", count=phase.kitty_size))
    elif isinstance(phase, Swapping) and phase.declarer == seat:
        lines.append(say(locale, "hint_swap"))
    elif isinstance(phase, Playing) and phase.turn == seat:
        lines.append(say(locale, "your_turn"))
        options = play_choices(services, channel_id, user_id)
        playable = {c for play in options for c in play}
        unplayable = [c for c in view.hand if c not in playable]
        ui.add_item(PanelChoice("play", channel_id, say(locale, "pick_play"), options))
    elif not isinstance(phase, Playing) and phase.name in ("hand_over", "match_over"):
        lines.append(say(locale, "hand_over_panel"))
    if isinstance(phase, Playing) and view.calls:  # (public: the called cards, who is found)
        lines.append(calls_status(locale, view, seat_names(table)))
    if kind is not None:
        pool = pick_pool(view, kind)
        if picking is None or picking.kind != kind or picking.size != len(pool):
            picking = Picking(kind, len(pool))
        names = pool_names(view, pool)
        if kind != "play":
            lines.append(say(locale, "hint_pick"))
        lines.append(picked_line(locale, picking, names))
        selected = [card for i, card in picking.picked(pool) if i < len(view.hand)]
        add_picker(ui, locale, channel_id, picking, pick_groups(locale, view, kind), names)
    lines += services.notes.take_private(channel_id, user_id)
    picture = await hand_picture(services.pictures, view, unplayable=unplayable, selected=selected,
                                 locale=locale)
    file = discord.File(io.BytesIO(picture.png), filename="hand.png",
                        description=picture.alt_text[:1024])
    return "\n".join(lines)[:1990], file, ui


async def open_panel(services: Services, interaction: discord.Interaction) -> None:
    """Show the caller their hand privately, and keep it fresh."""
    assert interaction.channel_id is not None
    channel_id, user_id = interaction.channel_id, interaction.user.id
    await defer_privately(interaction)  # drawing the hand takes a while: answer first
    await services.tables.back(channel_id, user_id)  # looking at one's hand: not away
    content, file, ui = await build_panel(services, channel_id, user_id, locale_of(interaction))
    await reply(interaction, content, file=file, view=ui, ephemeral=True)
    keep_fresh(services, interaction, channel_id)


def keep_fresh(services: Services, interaction: discord.Interaction, channel_id: int,
               picking: Progress | None = None) -> None:
    """Refresh the panel this interaction answered (or was clicked on) as the game goes
    (a picking in progress stays while the cards to pick from are the same)."""
    user_id = interaction.user.id
    locale = locale_of(interaction)
    opened = time.monotonic()

    async def refresh() -> bool:
        if time.monotonic() - opened > PANEL_LIFETIME:
            await interaction.edit_original_response(content=say(locale, "panel_expired"),
                                                     attachments=[], view=None)
            return False
        content, file, ui = await build_panel(services, channel_id, user_id, locale, picking)
        if not services.panels.is_current(channel_id, user_id, refresh):
            return False  # a newer state of the panel is drawn (or being drawn) meanwhile
        await interaction.edit_original_response(content=content, attachments=[file], view=ui)
        return True

    services.panels.keep(channel_id, user_id, refresh)


class PanelChoice(GuardedControl, discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"sj:pick:(?P<kind>declare|play):(?P<channel>[0-9]+)"):
    """The panel's menu of declarations or plays."""

    def __init__(self, kind: str, channel_id: int, placeholder: str = "",
                 options: Sequence[tuple[Card, ...]] = ()) -> None:
        choices = [discord.SelectOption(label=" ".join(c.pretty for c in cards)[:100],
                                        value=format_cards(cards)[:100])
                   for cards in options[:MAX_OPTIONS]]
        super().__init__(discord.ui.Select(
            custom_id=f"sj:pick:{kind}:{channel_id}", placeholder=placeholder or None,
            min_values=1, max_values=1,
            options=choices or [discord.SelectOption(label="-", value="-")]))
        self.kind = kind
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Select[Any], match: re.Match[str]
                             ) -> PanelChoice:
        return cls(match["kind"], int(match["channel"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            if interaction.channel_id != self.channel_id or not self.item.values:
                raise BotError("no_table")
            await interaction.response.defer()  # (an update of the panel follows)
            try:
                cards = parse_cards(self.item.values[0])
            except EngineError as exc:
                raise BotError.refused("bad_cards", exc) from None
            if self.kind == "declare":
                await services.tables.declare(self.channel_id, interaction.user.id, cards)
            else:
                await services.tables.play(self.channel_id, interaction.user.id, cards)
            mark_stored(interaction)
            await refresh_from(services, interaction, self.channel_id)
        except Exception as exc:  # every failure gets a private answer
            await report_error(interaction, exc)


class NoSwapButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=r"sj:noswap:(?P<channel>[0-9]+)"):
    """changzhu: the declarer keeps the kitty as it is."""

    def __init__(self, channel_id: int, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "No swap",
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"sj:noswap:{channel_id}"))
        self.channel_id = channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> NoSwapButton:
        return cls(int(match["channel"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            if interaction.channel_id != self.channel_id:
                raise BotError("no_table")
            await interaction.response.defer()  # (an update of the panel follows)
            await services.tables.swap(self.channel_id, interaction.user.id, (), ())
            mark_stored(interaction)
            await refresh_from(services, interaction, self.channel_id)
        except Exception as exc:  # every failure gets a private answer
            await report_error(interaction, exc)


# -- picking cards without typing -------------------------------------------------------------
#
# Burying, the changzhu swap, 回牌 and any lead or throw: pick a suit, then its cards (a
# multi-select), then confirm. The picking in progress lives in the custom ids (a bit mask
# over the cards to pick from, in the order of the hand picture, and the suit shown), so
# it survives a restart; the number of cards it was drawn for makes a stale menu refuse.

PICK_KINDS = ("bury", "return", "swap", "play")


def pick_kind(game: Game, seat: int) -> str | None:
    """What the seat may pick cards for now, if anything."""
    phase = game.phase
    if isinstance(phase, Dealing):
        pending = phase.pending_return
        return "return" if pending is not None and pending[0] == seat else None
    if isinstance(phase, Burying):
        return "bury" if phase.taker == seat else None
    if isinstance(phase, Swapping):
        return "swap" if phase.declarer == seat else None
    if isinstance(phase, Playing):
        return "play" if phase.turn == seat else None
    return None


def pick_pool(view: SeatView, kind: str) -> list[Card]:
    """The cards to pick from: the hand as numbered on its picture (for a swap, then the
    kitty's trumps the declarer may take)."""
    pool = hand_order(view)
    return pool + swap_offer(view) if kind == "swap" else pool


def swap_offer(view: SeatView) -> list[Card]:
    """The kitty's cards the declarer can swap in now: those it may take (the view holds
    no others) of a rank it holds as a side card to give for them."""
    ctx = view.ctx
    side_ranks = {c.rank for c in view.hand if ctx is not None and not ctx.is_trump(c)}
    return [c for c in view.kitty if c.rank in side_ranks]


def pick_groups(locale: str, view: SeatView, kind: str) -> list[tuple[str, list[int]]]:
    """The pool in groups of at most 25 (a select's limit): trumps (when the seat knows
    them), each suit, jokers, and for a swap the kitty's trumps."""
    hand = hand_order(view)
    order: list[str] = []
    members: dict[str, list[int]] = {}
    for i, card in enumerate(hand):
        if view.ctx is not None and view.ctx.is_trump(card):
            label = say(locale, "group_trumps")
        elif card.suit is None:
            label = say(locale, "group_jokers")
        else:
            label = card.suit.symbol
        if label not in members:
            order.append(label)
            members[label] = []
        members[label].append(i)
    offer = swap_offer(view) if kind == "swap" else []
    if offer:
        label = say(locale, "group_trump_kitty")
        order.append(label)
        members[label] = list(range(len(hand), len(hand) + len(offer)))
    groups = []
    for label in order:
        part = members[label]
        chunks = [part[i:i + MAX_OPTIONS] for i in range(0, len(part), MAX_OPTIONS)]
        for n, chunk in enumerate(chunks):
            groups.append((label if len(chunks) == 1 else f"{label} {n + 1}", chunk))
    return groups


@dataclass(frozen=True)
class Picking:
    """A picking in progress: what for, over how many cards, which are picked (bit i:
    card i of the pool), which group the card menu shows."""

    kind: str
    size: int
    mask: int = 0
    group: int = 0

    def custom_id(self, part: str, channel_id: int) -> str:
        return (f"sj:pk:{part}:{self.kind}:{channel_id}:{self.size}:"
                f"{_base36(self.mask)}:{self.group}")

    def picked(self, pool: Sequence[Card]) -> list[tuple[int, Card]]:
        return [(i, card) for i, card in enumerate(pool) if self.mask >> i & 1]


#: What a panel carries from one of its states to the next: a card picking, or the calls
#: the dealer is making.
Progress = Picking | CallDraft


PICK_TEMPLATE = (rf"sj:pk:(?P<part>{{parts}}):(?P<kind>{'|'.join(PICK_KINDS)}):"
                 r"(?P<channel>[0-9]+):(?P<size>[0-9]{1,3}):(?P<mask>[0-9a-z]{1,40}):"
                 r"(?P<group>[0-9]{1,2})")


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = digits[d] + out
        if n == 0:
            return out


def _picking_of(match: re.Match[str]) -> Picking:
    return Picking(match["kind"], int(match["size"]), int(match["mask"], 36),
                   int(match["group"]))


def pool_names(view: SeatView, pool: Sequence[Card]) -> list[str]:
    """Each card of the pool as the player sees it: hand cards with the number under
    them on the hand picture, kitty cards by name only."""
    in_hand = len(view.hand)
    return [f"{i + 1}:{card.pretty}" if i < in_hand else card.pretty
            for i, card in enumerate(pool)]


def picked_line(locale: str, picking: Picking, names: Sequence[str]) -> str:
    picked = [names[i] for i in range(len(names)) if picking.mask >> i & 1]
    if not picked:
        return say(locale, "picked_none")
    return say(locale, "picked_line", count=len(picked), cards=" ".join(picked))


def add_picker(ui: discord.ui.View, locale: str, channel_id: int, picking: Picking,
               groups: Sequence[tuple[str, list[int]]], names: Sequence[str]) -> None:
    """The suit menu, the card menu of the suit shown, and Confirm / Clear buttons."""
    if not groups:
        return
    group = min(picking.group, len(groups) - 1)
    picking = replace(picking, group=group)
    ui.add_item(PickMenu("g", picking, channel_id, options=[
        discord.SelectOption(
            label=f"{label} ({sum(picking.mask >> i & 1 for i in members)}/{len(members)})",
            value=str(n), default=n == group)
        for n, (label, members) in enumerate(groups)][:MAX_OPTIONS],
        placeholder=say(locale, "pick_group"), most=1))
    label, members = groups[group]
    ui.add_item(PickMenu("c", picking, channel_id, options=[
        discord.SelectOption(label=names[i], value=str(i),
                             default=bool(picking.mask >> i & 1))
        for i in members], placeholder=say(locale, "pick_cards", group=label),
        least=0, most=len(members)))
    ui.add_item(PickButton("ok", picking, channel_id, say(locale, f"btn_pick_{picking.kind}"),
                           discord.ButtonStyle.success, disabled=picking.mask == 0))
    ui.add_item(PickButton("x", picking, channel_id, say(locale, "btn_pick_clear"),
                           discord.ButtonStyle.secondary, disabled=picking.mask == 0))
    if picking.kind == "swap":
        ui.add_item(NoSwapButton(channel_id, say(locale, "btn_no_swap")))


class PickMenu(GuardedControl, discord.ui.DynamicItem[discord.ui.Select[Any]],
               template=PICK_TEMPLATE.replace("{parts}", "g|c")):
    """The picker's suit menu (``g``) or card menu (``c``)."""

    def __init__(self, part: str, picking: Picking, channel_id: int, *,
                 options: Sequence[discord.SelectOption] = (), placeholder: str = "",
                 least: int = 1, most: int = 1) -> None:
        super().__init__(discord.ui.Select(
            custom_id=picking.custom_id(part, channel_id), placeholder=placeholder or None,
            min_values=least, max_values=max(1, most),
            options=list(options) or [discord.SelectOption(label="-", value="-")]))
        self.part, self.picking, self.channel_id = part, picking, channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Select[Any], match: re.Match[str]) -> PickMenu:
        return cls(match["part"], _picking_of(match), int(match["channel"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            _pool, groups = _current_pool(services, interaction, self.channel_id, self.picking)
            values = [v for v in self.item.values if v.isdecimal()]
            if self.part == "g":
                group = int(values[0]) if values else 0
                picking = replace(self.picking, group=min(group, len(groups) - 1))
            else:
                members = groups[min(self.picking.group, len(groups) - 1)][1]
                chosen = {int(v) for v in values} & set(members)
                mask = self.picking.mask
                for i in members:
                    mask = mask | 1 << i if i in chosen else mask & ~(1 << i)
                picking = replace(self.picking, mask=mask)
            await interaction.response.defer()  # (an update of the panel follows)
            await refresh_from(services, interaction, self.channel_id, picking)
        except Exception as exc:  # every failure gets a private answer
            await report_error(interaction, exc)


class PickButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=PICK_TEMPLATE.replace("{parts}", "ok|x")):
    """The picker's Confirm (``ok``: bury, return, swap or play the picked cards) and
    Clear (``x``) buttons."""

    def __init__(self, part: str, picking: Picking, channel_id: int, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, *,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or part, style=style, disabled=disabled,
                                           custom_id=picking.custom_id(part, channel_id)))
        self.part, self.picking, self.channel_id = part, picking, channel_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> PickButton:
        return cls(match["part"], _picking_of(match), int(match["channel"]), item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        services = services_of(interaction.client)
        try:
            pool, _ = _current_pool(services, interaction, self.channel_id, self.picking)
            await interaction.response.defer()  # (an update of the panel follows)
            if self.part == "x":
                await refresh_from(services, interaction, self.channel_id,
                                   replace(self.picking, mask=0))
                return
            await _act_on(services, interaction.user.id, self.channel_id, self.picking, pool)
            mark_stored(interaction)
            await refresh_from(services, interaction, self.channel_id)
        except Exception as exc:  # every failure gets a private answer
            await report_error(interaction, exc)


def _current_pool(services: Services, interaction: discord.Interaction, channel_id: int,
                  picking: Picking) -> tuple[list[Card], list[tuple[str, list[int]]]]:
    """The pool the picking was drawn for, as it is now (a changed one: refused)."""
    if interaction.channel_id != channel_id:
        raise BotError("no_table")
    table, seat, view = services.tables.view_for(channel_id, interaction.user.id)
    assert table.game is not None
    if pick_kind(table.game, seat) != picking.kind:
        raise BotError("stale_pick")
    pool = pick_pool(view, picking.kind)
    if len(pool) != picking.size or picking.mask >> len(pool):
        raise BotError("stale_pick")
    return pool, pick_groups(locale_of(interaction), view, picking.kind)


async def _act_on(services: Services, user_id: int, channel_id: int, picking: Picking,
                  pool: Sequence[Card]) -> None:
    picked = picking.picked(pool)
    cards = [card for _, card in picked]
    tables = services.tables
    if picking.kind == "bury":
        await tables.bury(channel_id, user_id, cards)
    elif picking.kind == "return":
        await tables.give_back(channel_id, user_id, cards)
    elif picking.kind == "play":
        await tables.play(channel_id, user_id, cards)
    else:  # a swap: side cards of the hand for trumps of the kitty
        _, _, view = tables.view_for(channel_id, user_id)
        in_hand = len(view.hand)
        await tables.swap(channel_id, user_id, [c for i, c in picked if i < in_hand],
                          [c for i, c in picked if i >= in_hand])


# -- bids, naming the trump, calling friends, the level transfer ---------------------------
#
# The games whose sides form in the hand (RULES §5, §6). The choices come from
# ``bot/ui/decisions.py`` (each one the engine accepts now); every control's id carries
# the channel and the hand number, so a press on a panel of an earlier hand (or of the
# deal before a re-deal) is answered as such, and the calls being made travel in the
# ids of the dealer's own panel until Call.

QUICK_BIDS = 4  # the highest bids as buttons (beside Pass); every bid is in the menus


def add_decisions(ui: discord.ui.View, locale: str, table: Table, seat: int,
                  draft: CallDraft | None) -> list[str]:
    """The controls of a bid, naming, calling or transfer decision the seat has now,
    and the panel's lines about it (for any seat: what the table waits for)."""
    game = table.game
    assert game is not None
    state, channel, hand = game.state, table.channel_id, game.hand_number
    phase = state.phase
    names = seat_names(table)
    plain = plain_names(table)  # (button labels show no markdown)
    waiting = phase_status(locale, public_view(state), names)
    if isinstance(phase, Bidding) and phase.turn == seat:
        add_bids(ui, locale, channel, hand, allowed_bids(state, seat), may_pass(state, seat))
        return [say(locale, "hint_bid"), *([waiting] if waiting else [])]
    if isinstance(phase, NamingTrump) and phase.dealer == seat:
        words = trump_words(state, seat)
        ui.add_item(DecisionMenu("trump", channel, hand, 0, say(locale, "pick_trump"), [
            discord.SelectOption(label=trump_name(locale, w), value=w) for w in words]))
        return [say(locale, "hint_name_trump", points=phase.bid)]
    if isinstance(phase, CallingFriends) and phase.dealer == seat:
        friends = state.rules.friends
        if draft is None or len(draft.cards) != friends:
            draft = CallDraft.empty(friends)
        add_call_menus(ui, locale, channel, hand, draft, may_call(state, seat, draft),
                       copy_choices(state))
        return [say(locale, "hint_call", count=friends), draft_line(locale, draft)]
    choices = transfer_choices(state, seat)
    if choices:
        levels = phase.offers[0][1] if isinstance(phase, Transferring) else 0
        penalty = phase.penalty if isinstance(phase, Transferring) else None
        for choice in choices:
            if choice.target is None:
                label = say(locale, "btn_penalty_in_order" if penalty else "btn_transfer_none")
            else:
                label = say(locale, "btn_transfer_give" if choice.teammate
                            else "btn_transfer_take", name=plain[choice.target])
            ui.add_item(TransferButton(channel, hand, choice.target, label))
        hint = {None: "hint_transfer", "jack": "hint_penalty", "ace": "hint_penalty_ace"}
        return [say(locale, hint[penalty], levels=levels)]
    offer = asked_to_accept(state, seat)
    if offer is not None:
        giver, levels = offer
        ui.add_item(AnswerButton(channel, hand, True, say(locale, "btn_accept")))
        ui.add_item(AnswerButton(channel, hand, False, say(locale, "btn_refuse")))
        return [say(locale, "hint_answer_transfer", giver=names[giver], levels=levels)]
    if waiting is not None and not isinstance(phase, Playing):
        return [say(locale, "waiting_for", status=waiting)]
    return []


def add_bids(ui: discord.ui.View, locale: str, channel_id: int, hand: int,
             bids: Sequence[int], passing: bool) -> None:
    """The highest bids as buttons, then Pass; every bid in menus of at most 25."""
    for points in bids[:QUICK_BIDS]:
        ui.add_item(BidButton(channel_id, hand, str(points), str(points),
                              discord.ButtonStyle.primary))
    if passing:
        ui.add_item(BidButton(channel_id, hand, "pass", say(locale, "btn_pass_bid"),
                              discord.ButtonStyle.secondary))
    chunks = [bids[i:i + MAX_OPTIONS] for i in range(0, len(bids), MAX_OPTIONS)]
    for n, chunk in enumerate(chunks):
        ui.add_item(DecisionMenu("bid", channel_id, hand, n, say(
            locale, "pick_bid", high=chunk[0], low=chunk[-1]), [
            discord.SelectOption(label=str(p), value=str(p)) for p in chunk]))


def draft_line(locale: str, draft: CallDraft) -> str:
    parts = [call_text(locale, card, copy) if card is not None
             else say(locale, "call_not_picked")
             for card, copy in zip(draft.cards, draft.copies, strict=True)]
    return say(locale, "call_draft_line", calls="; ".join(parts))


def add_call_menus(ui: discord.ui.View, locale: str, channel_id: int, hand: int,
                   draft: CallDraft, ready: bool, copies: Sequence[int]) -> None:
    """The suit menu, the card menu of that suit and the copy menu for the call edited;
    a button for each call (with several friends), and Call."""
    ids = (channel_id, hand, draft)
    ui.add_item(CallMenu("g", *ids, say(locale, "pick_call_group"), [
        discord.SelectOption(label=say(locale, "group_jokers") if g == JOKERS
                             else Suit(g).symbol, value=g, default=g == draft.group)
        for g in CALL_GROUPS]))
    chosen = draft.cards[draft.editing]
    ui.add_item(CallMenu("c", *ids, say(locale, "pick_call_card"), [
        discord.SelectOption(label=card.pretty, value=str(card), default=card == chosen)
        for card in group_cards(draft.group)]))
    ui.add_item(CallMenu("k", *ids, say(locale, "pick_call_copy"), [
        discord.SelectOption(label=say(locale, "call_copy_option",
                                       copy=copy_word(locale, k)),
                             value=str(k), default=k == draft.copies[draft.editing])
        for k in copies]))
    if len(draft.cards) > 1:
        for i in range(len(draft.cards)):
            ui.add_item(CallButton(f"f{i}", *ids, say(locale, "btn_call_edit", number=i + 1),
                                   discord.ButtonStyle.primary if i == draft.editing
                                   else discord.ButtonStyle.secondary))
    ui.add_item(CallButton("ok", *ids, say(locale, "btn_call"), discord.ButtonStyle.success,
                           disabled=not ready))


def _hand_of(services: Services, interaction: discord.Interaction, channel_id: int,
             hand: int) -> tuple[Game, int]:
    """The game and the user's seat, if the control is of this channel and this hand."""
    if interaction.channel_id != channel_id:
        raise BotError("no_table")
    table, seat, _ = services.tables.view_for(channel_id, interaction.user.id)
    assert table.game is not None
    if table.game.hand_number != hand:
        raise BotError("stale_button")
    return table.game, seat


async def _decide(interaction: discord.Interaction, channel_id: int, hand: int,
                  make: Callable[[int], Action]) -> None:
    """Apply the seat's decision ``make(seat)`` and redraw the panel (a refusal is
    answered privately, with the engine's reason)."""
    services = services_of(interaction.client)
    try:
        _hand_of(services, interaction, channel_id, hand)
        await interaction.response.defer()  # (an update of the panel follows)
        await services.tables.act(channel_id, interaction.user.id, make)
        mark_stored(interaction)
        await refresh_from(services, interaction, channel_id)
    except Exception as exc:  # every failure gets a private answer
        await report_error(interaction, exc)


_HAND = r"(?P<channel>[0-9]+):(?P<hand>[0-9]{1,6})"


class BidButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=rf"sj:bid:{_HAND}:(?P<value>[0-9]{{1,3}}|pass)"):
    """three-bid: a bid of some points, or Pass."""

    def __init__(self, channel_id: int, hand: int, value: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or value, style=style,
                                           custom_id=f"sj:bid:{channel_id}:{hand}:{value}"))
        self.channel_id, self.hand, self.value = channel_id, hand, value

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]) -> BidButton:
        return cls(int(match["channel"]), int(match["hand"]), match["value"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.value
        await _decide(interaction, self.channel_id, self.hand,
                      lambda seat: PassBid(seat) if value == "pass" else Bid(seat, int(value)))


class DecisionMenu(GuardedControl, discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=rf"sj:(?P<kind>bid|trump)m:{_HAND}:(?P<part>[0-9])"):
    """three-bid: a menu of bids (``part``: which of the menus, 25 bids each), or the
    dealer's menu of trumps to name."""

    def __init__(self, kind: str, channel_id: int, hand: int, part: int = 0,
                 placeholder: str = "", options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"sj:{kind}m:{channel_id}:{hand}:{part}", placeholder=placeholder or None,
            options=list(options) or [discord.SelectOption(label="-", value="-")]))
        self.kind, self.channel_id, self.hand = kind, channel_id, hand

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Select[Any], match: re.Match[str]
                             ) -> DecisionMenu:
        return cls(match["kind"], int(match["channel"]), int(match["hand"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        make: Callable[[int], Action]
        if self.kind == "trump":
            make = functools.partial(NameTrump, trump=value)
        elif value.isdecimal():
            make = functools.partial(Bid, points=int(value))
        else:
            await report_error(interaction, BotError("stale_choice"))
            return
        await _decide(interaction, self.channel_id, self.hand, make)


_DRAFT_ID = rf"{_HAND}:{DRAFT_PATTERN}"


def _draft_id(part: str, channel_id: int, hand: int, draft: CallDraft) -> str:
    return f"sj:cf:{part}:{channel_id}:{hand}:{draft.text()}"


def _draft_of(match: re.Match[str]) -> CallDraft:
    try:
        return draft_of(match["calls"], match["editing"], match["group"])
    except ValueError:
        return CallDraft.empty(1)  # (a forged id: the press is refused as stale)


async def _redraw_call(interaction: discord.Interaction, channel_id: int, hand: int,
                       draft: CallDraft) -> None:
    """The dealer changed the calls being made: redraw their panel with them."""
    services = services_of(interaction.client)
    try:
        game, seat = _hand_of(services, interaction, channel_id, hand)
        phase = game.phase
        if not isinstance(phase, CallingFriends) or phase.dealer != seat or \
                len(draft.cards) != game.rules.friends:
            raise BotError("stale_choice")
        await interaction.response.defer()  # (an update of the panel follows)
        await refresh_from(services, interaction, channel_id, draft)
    except Exception as exc:  # every failure gets a private answer
        await report_error(interaction, exc)


class CallMenu(GuardedControl, discord.ui.DynamicItem[discord.ui.Select[Any]],
               template=rf"sj:cf:(?P<part>g|c|k):{_DRAFT_ID}"):
    """find-friends: the suit (``g``), card (``c``) or copy (``k``) menu of a call."""

    def __init__(self, part: str, channel_id: int, hand: int, draft: CallDraft,
                 placeholder: str = "", options: Sequence[discord.SelectOption] = ()) -> None:
        super().__init__(discord.ui.Select(
            custom_id=_draft_id(part, channel_id, hand, draft), placeholder=placeholder or None,
            options=list(options) or [discord.SelectOption(label="-", value="-")]))
        self.part, self.channel_id, self.hand, self.draft = part, channel_id, hand, draft

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Select[Any], match: re.Match[str]) -> CallMenu:
        return cls(match["part"], int(match["channel"]), int(match["hand"]), _draft_of(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        draft = self.draft
        try:
            if self.part == "g" and value in CALL_GROUPS:
                draft = replace(draft, group=value)
            elif self.part == "c":
                card = next(c for c in group_cards(draft.group) if str(c) == value)
                draft = draft.pick(card)
            elif self.part == "k" and value.isdecimal():
                draft = draft.copy(int(value))
            else:
                raise StopIteration
        except StopIteration:
            await report_error(interaction, BotError("stale_choice"))
            return
        await _redraw_call(interaction, self.channel_id, self.hand, draft)


class CallButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"sj:cf:(?P<part>ok|f[0-9]):{_DRAFT_ID}"):
    """find-friends: Call (``ok``), or which call the menus edit (``f0``, ``f1``)."""

    def __init__(self, part: str, channel_id: int, hand: int, draft: CallDraft,
                 label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(
            label=label or part, style=style, disabled=disabled,
            custom_id=_draft_id(part, channel_id, hand, draft)))
        self.part, self.channel_id, self.hand, self.draft = part, channel_id, hand, draft

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]) -> CallButton:
        return cls(match["part"], int(match["channel"]), int(match["hand"]), _draft_of(match),
                   item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        draft = self.draft
        if self.part != "ok":
            editing = int(self.part[1:])
            if editing >= len(draft.cards):
                await report_error(interaction, BotError("stale_choice"))
                return
            await _redraw_call(interaction, self.channel_id, self.hand,
                               replace(draft, editing=editing, group=_group_of(draft, editing)))
            return
        if not draft.complete:
            await report_error(interaction, BotError("stale_choice"))
            return
        await _decide(interaction, self.channel_id, self.hand, draft.action)


def _group_of(draft: CallDraft, editing: int) -> str:
    """The suit menu's group for a call: its card's, else the one shown."""
    card = draft.cards[editing]
    if card is None:
        return draft.group
    return JOKERS if card.suit is None else card.suit.value


class TransferButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=rf"sj:tr:{_HAND}:(?P<target>[0-9]|none)"):
    """level_transfer: where the stopped levels go (a seat, or nowhere)."""

    def __init__(self, channel_id: int, hand: int, target: int | None, label: str = "") -> None:
        code = "none" if target is None else str(target)
        super().__init__(discord.ui.Button(
            label=label or code, custom_id=f"sj:tr:{channel_id}:{hand}:{code}",
            style=discord.ButtonStyle.secondary if target is None
            else discord.ButtonStyle.primary))
        self.channel_id, self.hand, self.target = channel_id, hand, target

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> TransferButton:
        target = None if match["target"] == "none" else int(match["target"])
        return cls(int(match["channel"]), int(match["hand"]), target, item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        target = self.target
        await _decide(interaction, self.channel_id, self.hand,
                      lambda seat: Transfer(seat, target))


class AnswerButton(GuardedControl, discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"sj:tra:{_HAND}:(?P<answer>yes|no)"):
    """level_transfer: a teammate offered levels accepts or refuses them."""

    def __init__(self, channel_id: int, hand: int, accept: bool, label: str = "") -> None:
        answer = "yes" if accept else "no"
        super().__init__(discord.ui.Button(
            label=label or answer, custom_id=f"sj:tra:{channel_id}:{hand}:{answer}",
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary))
        self.channel_id, self.hand, self.accept = channel_id, hand, accept

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction,  # type: ignore[override]
                             item: discord.ui.Button[Any], match: re.Match[str]
                             ) -> AnswerButton:
        return cls(int(match["channel"]), int(match["hand"]), match["answer"] == "yes",
                   item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        accept = self.accept
        await _decide(interaction, self.channel_id, self.hand,
                      lambda seat: AnswerTransfer(seat, accept))


PANEL_ITEMS = (PanelChoice, NoSwapButton, PickMenu, PickButton, BidButton, DecisionMenu,
               CallMenu, CallButton, TransferButton, AnswerButton)


async def refresh_from(services: Services, interaction: discord.Interaction, channel_id: int,
                       picking: Progress | None = None) -> None:
    """Answer a component click on the panel by redrawing the panel, and keep that panel
    fresh through this (newer) interaction (registered first, so that a redraw of the
    older state still running stands down)."""
    keep_fresh(services, interaction, channel_id, picking)
    content, file, ui = await build_panel(services, channel_id, interaction.user.id,
                                          locale_of(interaction), picking)
    if interaction.response.is_done():  # deferred: the panel is the original message
        await interaction.edit_original_response(content=content, attachments=[file], view=ui)
    else:
        await interaction.response.edit_message(content=content, attachments=[file], view=ui)
