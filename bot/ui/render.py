"""From tables and seat views to pictures and text (no Discord here).

Pictures come from ``images``. Pillow holds the interpreter while it draws, so in a
thread it would starve the event loop that answers interactions: the bot draws them in
a worker process (:class:`PictureWorkers`, which the bot starts, hands to the
publisher and the panels through its services, and stops); tests and scripts may draw in
a thread instead (:class:`ThreadPictures`). The worker is sent plain
data (scenes, cards, labels) and sends back PNG bytes. A player's own hand picture (and
a hand's result) goes before table-message refreshes waiting for the worker.

Public pictures are built from ``public_view`` only, so a hidden trump, a hand or a
called friend not yet revealed by play can never reach the channel: a seat is drawn as a
defender or an attacker only once everybody knows it (``SeatView.defenders``,
``sides_settled``), a called card as "friend unknown" until its copy is played.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from bot.services import Pictures
from bot.table_data import Table
from bot.text.catalogue import has, say, template
from bot.text.events import (
    declaration_text,
    match_over_status,
    phase_status,
    result_lines,
    trump_name,
)
from bot.tree import as_typed
from bot.ui.cards_input import hand_order
from engine.ai.pool import WorkerPool, end_with_parent
from engine.cards import Card, Rank, parse_cards
from engine.game import Dealing, HandOver, MatchOver, Playing
from engine.order import TrumpContext
from engine.scoring import HandResult
from engine.teams import Formation, Seating
from engine.views import SeatView, public_view
from images import (
    BidInfo,
    CallInfo,
    DeclarationInfo,
    Labels,
    LevelChange,
    Rendered,
    ResultScene,
    SeatInfo,
    Side,
    TableScene,
    render_hand,
    render_result,
    render_table,
)
from images.table import bid_text, seat_roles


class PictureWorkers:
    """Pictures drawn in worker processes, urgent ones (a player's hand) first.

    At most one picture per worker is handed to the executor at a time; the others wait
    here, in two queues, so an urgent picture never waits behind a queue of table
    refreshes (the executor's own queue is first come, first served).
    """

    def __init__(self, workers: int = 1) -> None:
        self._free = workers
        self._waiting: tuple[deque[asyncio.Future[None]], deque[asyncio.Future[None]]] = (
            deque(), deque())  # (urgent, the rest)
        # (started now, its caches warmed: the first picture a player waits for is quick)
        self._pool = WorkerPool(workers, end_with_parent, warm=_warm)

    @property
    def waiting(self) -> int:
        """Pictures waiting for a worker (not counting those being drawn)."""
        return sum(not f.done() for queue in self._waiting for f in queue)

    async def draw(self, urgent: bool, render: Callable[..., Rendered], *args: Any,
                   **kwargs: Any) -> Rendered:
        """``render(*args, **kwargs)`` in a worker, once one is free for it."""
        if self._free and not self.waiting:
            self._free -= 1
        else:
            turn = asyncio.get_running_loop().create_future()
            self._waiting[0 if urgent else 1].append(turn)
            try:
                await turn
            except asyncio.CancelledError:
                if turn.done() and not turn.cancelled():
                    self._release()  # the worker was handed over as we were cancelled
                raise
        try:
            drawn: Rendered = await self._pool.run(asyncio.get_running_loop(), render, *args,
                                                   **kwargs)
            return drawn
        finally:
            self._release()

    def _release(self) -> None:
        """Hand the worker to the next picture waiting, urgent ones first."""
        for queue in self._waiting:
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_result(None)
                    return
        self._free += 1

    def close(self) -> None:
        self._pool.close()


def _warm() -> None:
    """Draw a hand and a table once: fonts, card faces, backgrounds and the palette are
    made before the first picture a player waits for."""
    hand = parse_cards("AS KH 10C 5D BJ")
    render_hand(hand, None)
    seating = Seating(4)
    render_table(TableScene([SeatInfo(f"{i + 1}.", 0, team=seating.fixed_team(i))
                             for i in range(4)],
                            Rank.TWO))


class ThreadPictures:
    """Pictures drawn in a thread of this process (tests, scripts: no worker to start).
    Pillow holds the interpreter meanwhile, so the bot itself uses :class:`PictureWorkers`."""

    waiting = 0

    async def draw(self, urgent: bool, render: Callable[..., Rendered], *args: Any,
                   **kwargs: Any) -> Rendered:
        return await asyncio.to_thread(render, *args, **kwargs)


def plain_names(table: Table) -> list[str]:
    """Each seat's number and name as the person's display name has it: for pictures,
    buttons, menus and autocomplete, which show no markdown."""
    return [f"{i + 1}. {s.name}" if s else f"{i + 1}. —" for i, s in enumerate(table.seats)]


def seat_names(table: Table) -> list[str]:
    """``plain_names`` for a message's text (``as_typed``)."""
    return [as_typed(name) for name in plain_names(table)]


def status_line(table: Table, view: SeatView | None = None) -> str:
    """The table's state in a line; ``view``: the game's ``public_view`` if the caller has
    it already (else it is made here when needed)."""
    locale = table.locale
    if table.status == "lobby":
        host = table.seat_of(table.host_id)
        seat = table.seats[host] if host is not None else None
        if seat is None:  # (the host left, and nobody is seated to take over)
            return say(locale, "status_lobby")
        return say(locale, "status_lobby_host", name=as_typed(seat.name))
    if table.status == "finished" or table.game is None:
        game = table.game
        if game is not None and isinstance(game.phase, MatchOver):
            return match_over_status(locale, game.phase.winner_team, seat_names(table),
                                     by_player=game.rules.seating.individual_levels)
        return say(locale, "status_finished")
    phase = table.game.phase
    names = seat_names(table)
    actor = table.actor()
    if isinstance(phase, Dealing):
        if phase.pending_return is not None:
            return say(locale, "ev_stuck", name=names[phase.pending_return[0]],
                       count=phase.pending_return[2], victim=names[phase.pending_return[1]])
        if phase.stock:
            return say(locale, "status_deal", left=len(phase.stock))
        return say(locale, "status_last_chance")
    if isinstance(phase, HandOver):
        return say(locale, "status_paused" if table.paused else "status_hand_over")
    if isinstance(phase, MatchOver):  # the table is being closed right now
        return match_over_status(locale, phase.winner_team, names,
                                 by_player=table.game.rules.seating.individual_levels)
    if view is None:
        view = public_view(table.game)
    status = phase_status(locale, view, names)  # bids, calls, transfers
    if status is not None:
        return status
    key = {"bury": "status_bury", "swap": "status_swap", "play": "status_play"}[phase.name]
    return say(locale, key, name=names[actor] if actor is not None else "?")


def person_to_act(table: Table) -> int | None:
    """The user id of the person the game waits for (not a computer, not away)."""
    actor = table.actor() if table.status == "playing" else None
    seat = table.seats[actor] if actor is not None else None
    if seat is None or seat.is_ai or seat.away or seat.user_id is None:
        return None
    return seat.user_id


def turn_line(table: Table) -> str:
    """Whose turn, by mention, with Discord's countdown of their turn timer."""
    user_id = person_to_act(table)
    if user_id is None or table.turn_ends is None:
        return ""
    return say(table.locale, "turn_line", mention=f"<@{user_id}>",
               ends=f"<t:{int(table.turn_ends)}:R>")


def table_text(table: Table, recent: Sequence[str], view: SeatView | None = None) -> str:
    """The table as text: seats, levels and trump, the status, the recent events;
    ``view`` as for :func:`status_line`."""
    locale = table.locale
    lines = [f"**{say(locale, 'table_title', preset=table.preset)}**"]
    game = table.game
    playing = game is not None and table.status == "playing"
    if game is not None and playing and view is None:
        view = public_view(game)
    scene = table_scene(table, view) if playing else None
    words = picture_labels(locale)
    for i, seat in enumerate(table.seats):
        name = as_typed(seat.name) if seat else say(locale, "empty_seat")
        if seat and seat.is_ai:
            level = f"ai_level_{seat.ai_level}"
            name += f" 🤖 {say(locale, level) if has(level) else seat.ai_level}"
        if scene is not None:
            name += "".join(f" · {note}" for note in seat_roles(scene.seats[i], words))
        lines.append(say(locale, "lobby_line", seat=i + 1, name=name))
    if game is not None and scene is not None and view is not None:
        trump = trump_name(locale, None if view.ctx is None else
                           ("none" if view.ctx.trump is None else view.ctx.trump.value))
        points = say(locale, "points_line", points=view.attacker_points)
        seating = game.rules.seating
        if seating.individual_levels:  # each seat's level is on its line
            lines.append(f"{words.trump}: {trump} · {points}")
        else:
            teams = " / ".join("+".join(str(s + 1) for s in seating.seats_of_holder(holder))
                               for holder in range(seating.level_holders))
            levels = " / ".join(level.label for level in game.levels)
            lines.append(say(locale, "levels_line", teams=teams, levels=levels, trump=trump)
                         + " · " + points)
        # (the bidding and the calls are in the status line; the hand's bid stays here)
        if scene.bid is not None and not scene.bid.standing:
            lines.append(bid_text(scene.bid, seat_names(table), words))
        if view.phase == "deal" and view.standing is not None:
            standing = view.standing
            lines.append(say(locale, "standing_line", text=declaration_text(
                locale, standing.kind, standing.size, standing.shown)))
    lines.append(status_line(table, view))
    turn = turn_line(table)
    if turn:
        lines.append(turn)
    if recent:
        lines.append("")
        lines += [f"> {line}" for line in recent]
    return "\n".join(lines)[:1900]


def picture_labels(locale: str | None, counts: Mapping[str, int] | None = None) -> Labels:
    """The pictures' words in ``locale``'s language, from the catalogue; ``counts`` picks
    the plural form of a word whose number the caller knows (the picture fills in ``{n}``)."""
    counts = counts or {}
    return Labels(**{f.name: template(locale, f"picture_{f.name}", counts.get(f.name))
                     for f in fields(Labels)})


def table_scene(table: Table, view: SeatView | None = None) -> TableScene:
    """The table as everybody may see it: built from ``public_view`` only (``view``, if
    the caller has it already)."""
    names = plain_names(table)
    title = say(table.locale, "table_title", preset=table.preset)
    game = table.game
    if game is None:  # the lobby: fixed teams in their colours, else every seat's level
        rules = table.rules
        seating = rules.seating
        fixed = seating.formation is Formation.FIXED
        first = rules.level_ranks[0]
        seats = [SeatInfo(n, 0, team=seating.fixed_team(i) if fixed else None,
                          level=first if seating.individual_levels else None)
                 for i, n in enumerate(names)]
        return TableScene(seats, first, title=title)
    if view is None:
        view = public_view(game)
    seating = game.rules.seating
    fixed = seating.formation is Formation.FIXED
    individual = seating.individual_levels
    bidding = view.phase == "bid"
    actor = table.actor()
    if actor is None:
        actor = view.turn
    sizes = view.hand_sizes or (0,) * len(names)
    defenders = frozenset(view.defenders)
    dealer = None if bidding else view.dealer  # three-bid: the bidding makes the dealer
    if view.result is not None and not fixed:  # the sides shown are the hand's just played
        dealer = view.result.dealer
    last_bids = dict(view.bids)
    seats = [SeatInfo(n, sizes[i], is_dealer=dealer == i, is_turn=actor == i,
                      team=seating.fixed_team(i) if fixed else None,
                      away=seat is not None and seat.away,
                      level=view.seat_levels[i] if individual else None,
                      side=None if fixed else _side(view, i),
                      is_friend=seating.formation is Formation.CALLED and i in defenders
                      and i != dealer,
                      bid=last_bids.get(i) if bidding else None,
                      passed=bidding and i in last_bids and last_bids[i] is None)
             for i, (n, seat) in enumerate(zip(names, table.seats, strict=True))]
    level = view.level or (None if bidding else game.level_of(view.dealer or 0))
    trick = [(seat, list(cards)) for seat, cards in view.trick]
    winner = None
    phase = game.phase
    if trick and isinstance(phase, Playing) and phase.trick.lead is not None:
        plays = [cards for _, cards in phase.trick.plays]
        winner = phase.trick.plays[game.play_rules.trick_winner(phase.trick.lead, plays,
                                                                phase.ctx)][0]
    # the point cards are those of the tricks won by seats not known to defend (a friend
    # found takes its tricks' points back from the attackers, as the engine counts them)
    point_cards = [card for plays, won_by, _ in view.tricks if won_by not in defenders
                   for _, cards in plays for card in cards if card.points]
    previous = view.tricks[-1] if view.tricks else None
    dealing = view.phase == "deal"
    standing = view.standing if dealing else None
    return TableScene(
        seats, level, trump=view.ctx.trump if view.ctx else None,
        trump_hidden=view.ctx is None, trick=trick, winner=winner,
        attacker_points=view.attacker_points, title=title,
        levels=() if individual else view.levels,
        defenders=seating.holder(view.dealer) if view.dealer is not None and not individual
        else None,
        point_cards=point_cards,
        previous_trick=[(seat, list(cards)) for seat, cards in previous[0]] if previous else (),
        previous_winner=previous[1] if previous else None,
        hand_number=view.hand_number + 1, dealing=dealing, cards_to_deal=view.cards_to_deal,
        declaration=DeclarationInfo(standing.seat, standing.cards) if standing else None,
        calls=[CallInfo(card, copy, by) for card, copy, by in view.calls],
        calls_pending=seating.formation is Formation.CALLED and view.phase in ("bury", "call"),
        bid=_bid(view) if seating.formation is Formation.BID and not dealing else None)


def _side(view: SeatView, seat: int) -> Side | None:
    """``seat``'s side as everybody knows it: a defender once known (the dealer, a friend
    found by play), an attacker once no friend is still to be found; else None."""
    if view.phase in ("deal", "bid") or not view.defenders:
        return None
    if seat in view.defenders:
        return Side.DEFENDING
    return Side.ATTACKING if view.sides_settled else None


def _bid(view: SeatView) -> BidInfo:
    """three-bid: the lowest bid so far while bidding, then the hand's bid and dealer."""
    if view.phase == "bid":
        seat = next((s for s, points in reversed(view.bids) if points is not None), None)
        return BidInfo(view.bid, seat, standing=True)
    return BidInfo(view.bid, view.dealer)


async def table_picture(pictures: Pictures, table: Table, view: SeatView | None = None
                        ) -> Rendered:
    """The table's picture (``view`` as for :func:`status_line`)."""
    return await pictures.draw(False, render_table, table_scene(table, view),
                       labels=picture_labels(table.locale))


def hand_text(locale: str, view: SeatView) -> str:
    trump = ""
    if view.ctx is not None:
        trump = " · " + trump_name(locale, "none" if view.ctx.trump is None
                                   else view.ctx.trump.value)
    order = hand_order(view)
    numbered = " ".join(f"{i + 1}:{c.pretty}" for i, c in enumerate(order))
    return say(locale, "hand_header", count=len(order), trump=trump) + "\n" + numbered


async def hand_picture(pictures: Pictures, view: SeatView, *, unplayable: Sequence[Card] = (),
                       new: Sequence[Card] = (), selected: Sequence[Card] = (),
                       locale: str | None = None) -> Rendered:
    """The seat's hand (``selected``: cards picked, raised); its words in ``locale``'s
    language (English by default)."""
    return await pictures.draw(True, _hand_only, list(view.hand), view.ctx,
                       unplayable=list(unplayable), new=list(new), selected=list(selected),
                       labels=picture_labels(locale, {"hand": len(view.hand)}))


def _hand_only(cards: Sequence[Card], ctx: TrumpContext | None, **marks: Any) -> Rendered:
    """``render_hand`` without the order (the worker need not send it back)."""
    return render_hand(cards, ctx, **marks)[0]


def result_scene(locale: str, result: HandResult, names: Sequence[str],
                 seating: Seating) -> ResultScene:
    """A hand's result: the fixed teams' levels (two rows), or with levels by player each
    seat's level before and after, its side and the reasons of its change."""
    changes: list[LevelChange] = []
    if seating.individual_levels:
        for change in result.changes:
            side = Side.DEFENDING if change.seat in result.defenders else Side.ATTACKING
            reasons = tuple(say(locale, f"reason_{reason}") for reason in change.reasons)
            changes.append(LevelChange(names[change.seat], change.old.label, change.new.label,
                                       reasons, side, change.seat == result.dealer))
    else:
        by_holder = {change.seat: change for change in result.changes}
        defenders = seating.holder(result.dealer)
        for holder in sorted(range(seating.level_holders), key=lambda h: h != defenders):
            seats = seating.seats_of_holder(holder)
            team = "+".join(str(s + 1) for s in seats)
            first = by_holder.get(seats[0])
            if first is None:  # a result built without its changes
                old, new = ((result.old_levels[0], result.new_levels[0]) if holder == defenders
                            else (result.old_levels[1], result.new_levels[1]))
            else:
                old, new = first.old, first.new
            changes.append(LevelChange(team, old.label, new.label))
    bid = seating.formation is Formation.BID
    return ResultScene(list(result.kitty), result.multiplier, result.attacker_points,
                       changes, "" if bid or result.next_declarers else
                       names[result.next_dealer], result_lines(locale, result),
                       bid=result.bid,
                       next_declarers=[names[s] for s in result.next_declarers])


async def result_picture(pictures: Pictures, locale: str, result: HandResult,
                         names: Sequence[str], seating: Seating) -> Rendered:
    return await pictures.draw(True, render_result, result_scene(locale, result, names, seating),
                       labels=picture_labels(locale))
