"""Picture speed and size: render + PNG-encode times (median of N runs) and file sizes.

Run: .venv/bin/python bench/images.py [--runs N]
Targets (docs, never asserted in tests): every hand and every table (3 to 6 seats, every
preset) under 10 ms warm, every file under 300 KB. "cold" is the first render after the
caches are emptied (a fresh process; a hand's first also makes the hand palette); the other
figures are with the caches warm, as in a running bot (whose picture worker draws a hand
and a table at start). A warm picture is pasted from cached parts, so the same scene again
is the best case; the "play by play" tables and the hands "picked", "dealt" and "played"
render a new state each run (the next play, the turn moving on, the points at a trick's
end; another card picked, dealt or played), as a game does. "cpu" is the render's own CPU
time, which a loaded machine inflates far less than the wall clock.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import Card, Rank, Suit, deck, parse_cards
from engine.order import TrumpContext
from images import (
    BidInfo,
    CallInfo,
    DeclarationInfo,
    LevelChange,
    Rendered,
    ResultScene,
    SeatInfo,
    Side,
    TableScene,
    canvas,
    fonts,
    hand,
    render_hand,
    render_result,
    render_table,
    table,
)
from images import cards as faces

TARGETS_MS = {"hand": 10.0, "table": 10.0, "result": 50.0}
MAX_BYTES = 300 * 1024


def dealt(decks: int, count: int, seed: int) -> list[Card]:
    cards = deck(decks)
    random.Random(seed).shuffle(cards)
    return cards[:count]


def cases() -> dict[str, Callable[[], Rendered]]:
    ctx = TrumpContext(Rank.FIVE, Suit.HEARTS)
    hand25, hand52 = dealt(2, 25, 1), dealt(4, 52, 2)
    order = ctx.sort_for_display(hand25)
    six = [SeatInfo(f"玩家 {i}", 33, team=i % 2, is_turn=i == 4) for i in range(6)]
    trick6 = [(seat, dealt(4, 6, 10 + seat)) for seat in range(4)]
    four = [
        SeatInfo(name, 13, team=i % 2, is_dealer=i == 0)
        for i, name in enumerate(["小明", "Bob", "Alice", "王小二"])
    ]
    trick4 = [(0, parse_cards("AS AS KS KS")), (1, parse_cards("3S 4S 9S 5H"))]
    mid_hand = {
        "levels": (Rank.FIVE, Rank.SEVEN),
        "defenders": 0,
        "point_cards": parse_cards("KD 10C 10C 5S KH"),
        "previous_trick": [(seat, parse_cards("QC QC")) for seat in range(4)],
        "previous_winner": 1,
        "hand_number": 4,
    }
    levels = (Rank.FIVE, Rank.TWO, Rank.JACK, Rank.ACE, Rank.TEN, Rank.SEVEN)

    def by_player(count: int) -> list[SeatInfo]:
        """Levels by player: the dealer and a found friend defend, the rest unknown."""
        return [SeatInfo(f"玩家 {i}", 17, is_dealer=i == 0, is_turn=i == 3, level=levels[i],
                         side=Side.DEFENDING if i in (0, 2) else None, is_friend=i == 2)
                for i in range(count)]

    ace, king = parse_cards("AS KD")
    trick5 = [(seat, dealt(2, 2, 20 + seat)) for seat in range(4)]
    friends = {
        "point_cards": parse_cards("KD 10C 10C 5S KH"),
        "previous_trick": [(seat, parse_cards("QC")) for seat in range(5)],
        "previous_winner": 1,
        "hand_number": 4,
    }
    three = [SeatInfo(name, 34, bid=bid, passed=passed, level=level, is_turn=i == 2)
             for i, (name, bid, passed, level) in enumerate(
                 [("小明", 85, False, Rank.TWO), ("Bob", None, True, Rank.SIX),
                  ("Alice", None, False, Rank.KING)])]
    hand60 = dealt(4, 60, 3)  # four decks, the kitty in hand
    order60 = ctx.sort_for_display(hand60)
    titanic = [SeatInfo(name, 51, team=i % 2, is_dealer=i == 0, is_turn=i == 2)
               for i, name in enumerate(["小明", "Bob", "Alice", "王小二"])]
    return {
        "hand 25": lambda: render_hand(hand25, ctx)[0],
        "hand 60 four decks": lambda: render_hand(hand60, ctx)[0],
        "hand 32 six seats": lambda: render_hand(dealt(3, 32, 4), ctx)[0],
        "hand 60 picked": in_turn(
            [lambda k=k: render_hand(hand60, ctx, selected=order60[k:k + 1 + k % 3],  # type: ignore[misc]
                                     unplayable=order60[30:])[0] for k in range(58)]),
        "hand 60 dealt": in_turn(
            [lambda n=n: render_hand(hand60[:n], ctx, new=hand60[n - 4:n])[0]  # type: ignore[misc]
             for n in range(8, 61)]),
        "hand 60 played": in_turn(
            [lambda n=n: render_hand(order60[n:], ctx)[0] for n in range(50)]),  # type: ignore[misc]
        "hand 25 marked": lambda: render_hand(
            hand25, ctx, selected=order[:3], unplayable=order[10:], new=order[5:7]
        )[0],
        "hand 52 four-colour": lambda: render_hand(hand52, ctx, four_colour=True)[0],
        "table 4 seats": lambda: render_table(
            TableScene(
                four, Rank.FIVE, Suit.HEARTS, trick=trick4, winner=0, attacker_points=35,
                **mid_hand,  # type: ignore[arg-type]
            )
        ),
        "table 4 dealing": lambda: render_table(
            TableScene(
                four, Rank.FIVE, Suit.HEARTS, levels=(Rank.FIVE, Rank.SEVEN), defenders=0,
                hand_number=4, dealing=True, cards_to_deal=38,
                declaration=DeclarationInfo(2, parse_cards("5H 5H")),
            )
        ),
        "table 6 seats": lambda: render_table(
            TableScene(
                six, Rank.TWO, None, trump_hidden=True, trick=trick6, winner=2,
                **mid_hand,  # type: ignore[arg-type]
            )
        ),
        "table 5 find-friends": lambda: render_table(
            TableScene(
                by_player(5), Rank.FIVE, Suit.SPADES, trick=trick5, winner=1,
                attacker_points=40, calls=[CallInfo(ace, 2, 2)],
                **friends,  # type: ignore[arg-type]
            )
        ),
        "table 6 find-friends": lambda: render_table(
            TableScene(
                by_player(6), Rank.FIVE, Suit.SPADES, trick=trick6, winner=2,
                attacker_points=40, calls=[CallInfo(ace, 1, 2), CallInfo(king, 2)],
                **friends,  # type: ignore[arg-type]
            )
        ),
        "table 4 four decks": lambda: render_table(
            TableScene(
                four, Rank.FIVE, Suit.HEARTS, winner=1, attacker_points=80,
                trick=[(0, parse_cards("9S 9S 9S 9S 8S 8S 8S 8S")),
                       (1, parse_cards("AS AS AS AS KS KS KS KS"))],
                **mid_hand,  # type: ignore[arg-type]
            )
        ),
        "table 4 titanic": lambda: render_table(
            TableScene(
                titanic, Rank.FIVE, Suit.HEARTS, winner=0, attacker_points=60,
                trick=[(0, parse_cards("QD QD QD JD JD JD")),
                       (1, parse_cards("3D 4D 9D 9D 9D 6C"))],
                **mid_hand,  # type: ignore[arg-type]
            )
        ),
        "table 3 bidding": lambda: render_table(
            TableScene(three, None, trump_hidden=True, bid=BidInfo(85, 0, standing=True))
        ),
        "result": lambda: render_result(
            ResultScene(
                parse_cards("5H 10S KD 3C 4C JH 5S 7D"),
                4,
                145,
                [LevelChange("A", "5", "5"), LevelChange("B", "7", "9")],
                "Bob",
                ["Attackers took 25 points in tricks.", "The kitty: 30 × 4 = 120."],
            )
        ),
        **{f"table {n} play by play": in_turn(play_by_play(n)) for n in (3, 4, 5, 6)},
    }


class InTurn:
    """One render after the other, a new state each call (round again after the last)."""

    def __init__(self, renders: list[Callable[[], Rendered]]) -> None:
        self.renders = renders
        self.turns = itertools.cycle(renders)

    def __call__(self) -> Rendered:
        return next(self.turns)()

    def warm(self) -> None:
        """Every state once, then the cached parts forgotten: the card faces, icons and
        words are warm, as in a bot that has run a while, but each state is new."""
        for render in self.renders:
            render()
        for cached in PARTS:
            cached.cache_clear()


in_turn = InTurn


def play_by_play(count: int) -> list[Callable[[], Rendered]]:
    """A table of ``count`` seats as a hand goes: each state one play more (random cards of
    three decks, one to four a play), the turn and the cards left moving with it; at each
    trick's end the points and the previous trick change. Fixed teams at even counts, else
    levels by player with two calls."""
    rng = random.Random(count)
    pile = deck(3)
    fixed = count % 2 == 0
    levels = (Rank.FIVE, Rank.TWO, Rank.JACK, Rank.ACE, Rank.TEN, Rank.SEVEN)
    ace, king = parse_cards("AS KD")
    renders: list[Callable[[], Rendered]] = []
    trick: list[tuple[int, list[Card]]] = []
    previous: list[tuple[int, list[Card]]] = []
    points, won, left, size = 0, [], [40] * count, 1
    for play in range(240):
        seat = play % count
        if seat == 0:
            if trick:
                previous = trick
                won += [c for _, cards in trick for c in cards if c.points][:2]
                points += 5 * len(won)
            trick, size = [], rng.randint(1, 4)
        trick = [*trick, (seat, rng.sample(pile, size))]
        left[seat] -= size
        plates = [SeatInfo(f"玩家 {i}", max(0, left[i]), is_dealer=i == 0,
                           is_turn=i == (seat + 1) % count, team=i % 2 if fixed else None,
                           level=None if fixed else levels[i],
                           side=Side.DEFENDING if not fixed and i == 0 else None)
                  for i in range(count)]
        scene = TableScene(
            plates, Rank.FIVE, Suit.SPADES, trick=trick, winner=rng.choice(trick)[0],
            attacker_points=points, point_cards=won[-12:], previous_trick=previous,
            previous_winner=previous[0][0] if previous else None, hand_number=4,
            levels=(Rank.FIVE, Rank.SEVEN) if fixed else (), defenders=0 if fixed else None,
            calls=() if fixed else (CallInfo(ace, 1, 2), CallInfo(king, 2)))
        renders.append(lambda scene=scene: render_table(scene))  # type: ignore[misc]
    return renders


#: The caches of the parts a warm picture is pasted from.
PARTS = (table._header_tile, table._plays_tile, table._plate_sprite, table._previous_tile,
         hand._cards_tile, hand._number_tile)


def clear_caches() -> None:
    """Empty every cache the pictures fill, as in a fresh process (fonts stay loaded)."""
    for cached in (
        faces.card_face, faces._blank, faces.suit_icon, faces.card_back, faces.card_index,
        fonts._stamp, fonts._runs, fonts.text_width, canvas.player_text,
        table._background, table._layout, table._palette, hand._palette,
        table._quantized_background, hand._felt_index, *PARTS,
    ):
        cached.cache_clear()


def median_ms(make: Callable[[], Rendered], runs: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of one render. On a busy machine the CPU
    time (this thread's own) is the better guide to what an idle one would take."""
    walls, cpus = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        make()
        cpus.append((time.thread_time() - start_cpu) * 1000)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args(argv).runs
    out = sys.stdout
    out.write(
        f"{'case':<26}{'cold ms':>9}{'warm ms':>9}{'cpu ms':>8}{'target':>8}{'KB':>7}  size\n"
    )
    for name, make in cases().items():
        clear_caches()
        start = time.perf_counter()
        rendered = make()
        cold = (time.perf_counter() - start) * 1000
        if isinstance(make, InTurn):
            make.warm()
        warm, cpu = median_ms(make, runs)
        target = next(ms for case, ms in TARGETS_MS.items() if name.startswith(case))
        flag = "" if warm < target and len(rendered.png) < MAX_BYTES else "  OVER"
        out.write(
            f"{name:<26}{cold:>9.1f}{warm:>9.1f}{cpu:>8.1f}{target:>8.0f}"
            f"{len(rendered.png) / 1024:>7.0f}  {rendered.width}×{rendered.height}{flag}\n"
        )


if __name__ == "__main__":
    main()
