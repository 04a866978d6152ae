"""``/shengji`` play commands: the hand panel, and playing, declaring, burying, swapping
and returning cards (typed, in symbols, or as the numbers under the hand picture), with
autocomplete from the caller's own legal choices; for keyboard players also bidding,
naming the trump, calling friends and the level transfer (the hand panel offers them as
buttons and menus). The autocomplete of a call is the dealer's alone and depends on the
trump only: it hints nothing about who holds what."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Sequence

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import BotError
from bot.services import Services, services_of
from bot.text.catalogue import say
from bot.text.events import trump_name
from bot.tree import defer_privately, locale_of, mark_stored, reply
from bot.ui.cards_input import parse_kitty_cards, parse_play
from bot.ui.decisions import keyboard_choices, transfer_choices
from bot.ui.panels import PANEL_ITEMS, declaration_choices, open_panel, play_choices
from bot.ui.render import plain_names
from cogs.group import ShengjiCog, channel_of, subcommand
from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    CallFriends,
    NameTrump,
    PassBid,
    Transfer,
)
from engine.cards import ALL_CARDS, Card, format_cards, parse_card, typed
from engine.errors import EngineError
from engine.game import CallingFriends, MatchState
from engine.views import SeatView

MAX_CHOICES = 25  # Discord's limit for autocomplete

Choices = Callable[[Services, int, int], Sequence[tuple[Card, ...]]]


class Play(ShengjiCog):
    controls = PANEL_ITEMS  # the hand panel's menus, also on panels opened before a restart

    def __init__(self, services: Services, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.services = services

    # -- autocomplete: the caller's own choices only ----------------------------------------

    async def play_cards(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        return self._choices(interaction, current, play_choices)

    async def declare_cards(self, interaction: discord.Interaction, current: str
                            ) -> list[app_commands.Choice[str]]:
        return self._choices(interaction, current, declaration_choices)

    async def call_cards(self, interaction: discord.Interaction, current: str
                         ) -> list[app_commands.Choice[str]]:
        """For the dealer calling: side cards from the ace down, then trumps (the trump
        is public: nothing here depends on any hand)."""
        state, seat = self._state(interaction)
        phase = state.phase if state is not None else None
        if not isinstance(phase, CallingFriends) or phase.dealer != seat:
            return []
        ctx = phase.ctx
        wanted = typed(current).strip().upper()
        cards = sorted(ALL_CARDS, key=lambda c: (ctx.is_trump(c), -c.rank, c.index))
        return [app_commands.Choice(name=c.pretty, value=str(c)) for c in cards
                if not wanted or str(c).startswith(wanted) or c.pretty.upper().startswith(wanted)
                ][:MAX_CHOICES]

    async def choose_options(self, interaction: discord.Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
        """The caller's own choices now (nothing when they have none)."""
        state, seat = self._state(interaction)
        if state is None:
            return []
        wanted = typed(current).strip().casefold()
        labelled = self._labelled_choices(interaction, state, seat)
        # (pass first: after 25 bids it would not be listed at all)
        labelled.sort(key=lambda choice: not isinstance(choice[2], PassBid))
        return [app_commands.Choice(name=label, value=word)
                for word, label, _ in labelled
                if word.casefold().startswith(wanted)
                or any(part.startswith(wanted) for part in [label.casefold(),
                                                            *label.casefold().split()])
                ][:MAX_CHOICES]

    def _labelled_choices(self, interaction: discord.Interaction, state: MatchState,
                          seat: int) -> list[tuple[str, str, Action]]:
        """The caller's choices now: (what to type, the label the list shows, the action)."""
        locale = locale_of(interaction)
        names = plain_names(self.services.tables.get(channel_of(interaction)))
        teammates = {c.target: c.teammate for c in transfer_choices(state, seat)}
        return [(word, choice_label(locale, action, names, teammates), action)
                for word, action in keyboard_choices(state, seat)]

    # -- commands -----------------------------------------------------------------------------

    @subcommand("hand", "Show your hand (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await open_panel(self.services, interaction)

    @subcommand("play", "Play cards: AS AS KS, ♠A ♠A ♠K, or card numbers")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    @app_commands.autocomplete(cards=play_cards)
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.play, _hand_cards(cards))

    @subcommand("declare", "Declare trump with cards of your hand")
    @app_commands.describe(cards="The cards to show, e.g. 2H 2H or SJ 7H 7H")
    @app_commands.autocomplete(cards=declare_cards)
    async def declare(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.declare, _hand_cards(cards))

    @subcommand("bury", "Bury the kitty (cards or numbers)")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    async def bury(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.bury, _hand_cards(cards))

    @subcommand("swap", "changzhu: swap side cards for kitty trumps")
    @app_commands.describe(give="Your side cards (empty: no swap)",
                           take="Kitty trumps of the same ranks")
    async def swap(self, interaction: discord.Interaction, give: str = "", take: str = ""
                   ) -> None:
        # (both may be empty: no swap; ``take`` names kitty cards, which have no numbers)
        await self._with_cards(interaction, self.services.tables.swap, lambda view: [
            parse_play(give, view) if give.strip() else [],
            parse_kitty_cards(take) if take.strip() else []])

    @subcommand("return", "changzhu 回牌: give cards back after a stick")
    @app_commands.describe(cards="The cards, or the numbers under your hand picture")
    async def give_back(self, interaction: discord.Interaction, cards: str) -> None:
        await self._with_cards(interaction, self.services.tables.give_back, _hand_cards(cards))

    @subcommand("choose", "Bid, pass, name the trump or place stopped levels "
                          "(three-bid, find-friends)")
    @app_commands.describe(option="One of your choices now (from the list)")
    @app_commands.autocomplete(option=choose_options)
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        state, seat = self._state(interaction)
        choices: dict[str, Action] = {}
        # what to type, or the label shown (typed out, or picked in a language whose
        # label differs): a label that two choices share names neither
        labelled = self._labelled_choices(interaction, state, seat) if state else []
        shown = Counter(label.casefold() for _, label, _ in labelled)
        for word, label, choice in labelled:
            choices[word.casefold()] = choice
            if shown[label.casefold()] == 1:
                choices.setdefault(label.casefold(), choice)
        if not choices:
            raise BotError("nothing_to_choose")
        action = choices.get(typed(option).strip().casefold())
        if action is None:
            raise BotError("bad_choice")
        await self._decide(interaction, lambda seat: action)

    @subcommand("call", "find-friends: call your friends after burying")
    @app_commands.describe(card="The called card, e.g. AH",
                           copy="Which copy counts (1: the first played)",
                           card2="Six players: the second call's card",
                           copy2="Which copy of the second card counts")
    @app_commands.autocomplete(card=call_cards, card2=call_cards)
    async def call(self, interaction: discord.Interaction, card: str,
                   copy: app_commands.Range[int, 1, 4] = 1, card2: str = "",
                   copy2: app_commands.Range[int, 1, 4] = 1) -> None:
        try:
            cards = tuple(parse_card(c.strip()) for c in (card, card2) if c.strip())
        except EngineError as exc:
            raise BotError.refused("bad_cards", exc) from None
        copies = (copy, copy2)[:len(cards)]
        await self._decide(interaction, lambda seat: CallFriends(seat, cards, copies))

    async def _decide(self, interaction: discord.Interaction,
                      make: Callable[[int], Action]) -> None:
        """Apply the caller's decision ``make(seat)`` and answer privately."""
        channel = channel_of(interaction)
        await defer_privately(interaction)
        await self.services.tables.act(channel, interaction.user.id, make)
        mark_stored(interaction)
        notes = self.services.notes.take_private(channel, interaction.user.id)
        await reply(interaction, "\n".join([say(locale_of(interaction), "done"), *notes]))

    def _state(self, interaction: discord.Interaction) -> tuple[MatchState | None, int]:
        """The caller's game now and their seat (None: no game they sit at)."""
        try:
            table, seat, _ = self.services.tables.view_for(channel_of(interaction),
                                                            interaction.user.id)
        except BotError:
            return None, 0
        return (table.game.state if table.game is not None else None), seat

    async def _with_cards(self, interaction: discord.Interaction,
                          act: Callable[..., Awaitable[object]], read: CardsReader) -> None:
        """Read the caller's cards (``read`` from their seat's view: ``_hand_cards``, or
        the swap's own), act, and answer privately with any notes kept for them (e.g. a
        refused DM)."""
        channel = channel_of(interaction)
        # answer first (Discord allows 3 s): storing and publishing may wait on the API
        await defer_privately(interaction)
        _, _, view = self.services.tables.view_for(channel, interaction.user.id)
        await act(channel, interaction.user.id, *read(view))
        mark_stored(interaction)
        notes = self.services.notes.take_private(channel, interaction.user.id)
        await reply(interaction, "\n".join([say(locale_of(interaction), "done"), *notes]))

    def _choices(self, interaction: discord.Interaction, current: str, source: Choices
                 ) -> list[app_commands.Choice[str]]:
        try:
            options = source(self.services, channel_of(interaction), interaction.user.id)
        except BotError:
            return []
        wanted = typed(current).strip().upper().replace(",", " ")
        out = []
        for cards in options:
            value = format_cards(cards)
            shown = " ".join(c.pretty for c in cards)
            if wanted and not (value.upper().startswith(wanted)
                               or shown.upper().startswith(wanted)):
                continue
            out.append(app_commands.Choice(name=shown[:100], value=value[:100]))
            if len(out) == MAX_CHOICES:
                break
        return out


#: What a card command reads from the caller's view: the cards of each of its options.
CardsReader = Callable[[SeatView], list[list[Card]]]


def _hand_cards(text: str) -> CardsReader:
    """One option's cards: text, symbols or hand numbers (blank input is unreadable)."""
    return lambda view: [parse_play(text, view)]


def choice_label(locale: str, action: Action, names: Sequence[str],
                 teammates: dict[int | None, bool]) -> str:
    """How ``/shengji choose`` lists a choice: as the panel's button or menu says it
    (``teammates``: whether a transfer's target plays with the chooser)."""
    if isinstance(action, Bid):
        return str(action.points)
    if isinstance(action, PassBid):
        return say(locale, "btn_pass_bid")
    if isinstance(action, NameTrump):
        return trump_name(locale, action.trump)
    if isinstance(action, AnswerTransfer):
        return say(locale, "btn_accept" if action.accept else "btn_refuse")
    if isinstance(action, Transfer) and action.target is not None:
        key = "btn_transfer_give" if teammates.get(action.target) else "btn_transfer_take"
        return say(locale, key, name=names[action.target])
    return say(locale, "btn_transfer_none")


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(services_of(bot), bot))
