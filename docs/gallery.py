"""Write sample pictures (and their alt texts) to look at: hands, tables, results.

Tables of 3 to 6 seats: classic and six with their fixed teams, find-friends with each
seat's own level and the called friend unknown or found, three-bid bidding and playing;
results with team rows and with one row per player.

Run: .venv/bin/python docs/gallery.py [FOLDER]   (default: gallery/, which git ignores)
     .venv/bin/python docs/gallery.py --sample    (rewrites the README's docs/*-sample.png)

Every sample is dealt from a seeded shuffle, so the same command writes the same files.
Each table also gets a ``-phone.png``: the picture shrunk to 380 pixels wide, as Discord
shows it on a phone, to check that it still reads there.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from engine.cards import Card, Rank, Suit, deck, parse_cards
from engine.order import Colour, SuitSystem, TrumpContext
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
    render_hand,
    render_result,
    render_table,
)

CHANGZHU_PERMANENT = frozenset({Rank.TWO, Rank.THREE, Rank.FIVE})
PHONE_WIDTH = 380
SAMPLES = {"table-4-mid-hand": "table-sample.png", "hand-25-picking": "hand-sample.png"}


def dealt(decks: int, count: int, seed: int) -> list[Card]:
    cards = deck(decks)
    random.Random(seed).shuffle(cards)
    return cards[:count]


def samples() -> dict[str, Rendered]:
    out: dict[str, Rendered] = {}
    classic = TrumpContext(Rank.FIVE, Suit.HEARTS)
    hand25 = dealt(2, 25, 1)
    out["hand-25-classic"], _ = render_hand(hand25, classic)
    order = classic.sort_for_display(hand25)
    out["hand-25-marked"], _ = render_hand(
        hand25,
        classic,
        selected=order[2:4],
        unplayable=[card for card in hand25 if not classic.is_trump(card)],
        new=hand25[-2:],
    )
    # cards picked in the hand panel (here three spades) stand raised
    out["hand-25-picking"], _ = render_hand(hand25, classic, selected=order[9:12])
    out["hand-25-undeclared"], _ = render_hand(hand25, None, new=hand25[-1:])
    changzhu = TrumpContext(Rank.SEVEN, Suit.SPADES, permanent=CHANGZHU_PERMANENT)
    out["hand-26-changzhu"], _ = render_hand(dealt(2, 26, 2), changzhu)
    red_black = TrumpContext(Rank.TEN, Colour.RED, suits=SuitSystem.RED_BLACK)
    out["hand-25-red-black"], _ = render_hand(dealt(2, 25, 3), red_black)
    out["hand-39-three-decks"], _ = render_hand(dealt(3, 39, 4), classic)
    out["hand-52-four-decks"], _ = render_hand(dealt(4, 52, 5), classic, four_colour=True)
    out["hand-60-dealer-with-kitty"], _ = render_hand(dealt(4, 60, 6), classic)
    out["hand-1"], _ = render_hand(parse_cards("BJ"), classic)
    four = [
        SeatInfo("1. 小明", 21, is_dealer=True, team=0),
        SeatInfo("2. Bob the Builder of Very Long Names", 21, team=1),
        SeatInfo("3. 🐉 Dragon", 22, is_turn=True, team=0),
        SeatInfo("4. Zoë 👨\u200d👩\u200d👧", 22, team=1, away=True),
    ]
    out["table-4-mid-hand"] = render_table(
        TableScene(
            seats=four,
            level=Rank.FIVE,
            trump=Suit.HEARTS,
            trick=[(0, parse_cards("AS AS KS KS")), (1, parse_cards("3S 4S 9S 5H"))],
            winner=0,
            attacker_points=35,
            levels=(Rank.FIVE, Rank.SEVEN),
            defenders=0,
            point_cards=parse_cards("KD 10C 10C 5S"),
            previous_trick=[
                (3, parse_cards("QC QC")),
                (0, parse_cards("KC KC")),
                (1, parse_cards("10C 10C")),
                (2, parse_cards("3C 4C")),
            ],
            previous_winner=0,
            hand_number=4,
        )
    )
    out["table-4-dealing"] = render_table(
        TableScene(
            seats=[SeatInfo(info.name, 12 + (i < 2), is_dealer=i == 0, team=i % 2)
                   for i, info in enumerate(four)],
            level=Rank.FIVE,
            trump=Suit.HEARTS,
            levels=(Rank.FIVE, Rank.SEVEN),
            defenders=0,
            hand_number=4,
            dealing=True,
            cards_to_deal=50,
            declaration=DeclarationInfo(2, parse_cards("5H 5H")),
        )
    )
    names = ["小明", "李华", "Alice", "王小二", "Müller", "山田太郎"]
    out["table-6-mid-trick"] = render_table(
        TableScene(
            seats=[
                SeatInfo(name, 33, team=i % 2, is_dealer=i == 3, is_turn=i == 5)
                for i, name in enumerate(names)
            ],
            level=Rank.SEVEN,
            trump=Suit.SPADES,
            trump_hidden=True,
            trick=[
                (3, parse_cards("QD QD QD JD JD JD")),
                (4, parse_cards("2D 3D 4D 6D 8D 9D")),
                (0, parse_cards("BJ BJ SJ SJ 3C 3C")),
                (1, parse_cards("AD AD KD KD 10D 10D")),
                (2, parse_cards("4H 6C 8C 9D 10D KD")),
            ],
            winner=0,
            attacker_points=120,
            title="升级 · 六人",
            levels=(Rank.SEVEN, Rank.TWO),
            defenders=1,
            point_cards=parse_cards("KD KD 10S 10H 5C 5C 5D KH KS"),
            previous_trick=[(seat, parse_cards("AH")) for seat in range(6)],
            previous_winner=2,
            hand_number=2,
        ),
        four_colour=True,
    )
    out["table-5-no-trump"] = render_table(
        TableScene(
            seats=[SeatInfo(f"Player {i + 1}", 20 - (i < 2), team=None) for i in range(5)],
            level=Rank.ACE,
            trump=None,
            trick=[(2, parse_cards("5C")), (3, parse_cards("KC"))],
            winner=3,
            attacker_points=0,
        )
    )
    out.update(new_games())
    out["result"] = render_result(
        ResultScene(
            kitty=parse_cards("5H 10S KD 3C 4C JH 5S 7D"),
            multiplier=4,
            attacker_points=145,
            level_changes=[
                LevelChange("小明 & Alice", "5", "5"),
                LevelChange("Bob & Zoë", "7", "9"),
            ],
            next_dealer="Bob the Builder",
            lines=[
                "Attackers took 25 points in tricks.",
                "The kitty holds 30 points; the last trick was won with a pair, so ×4 = 120.",
                "145 points: the attackers go up 2 levels and take the deal.",
                "攻方共得 145 分，升两级，下一局由 Bob 坐庄。",
            ],
            title="Hand 4",
        )
    )
    return out


def new_games() -> dict[str, Rendered]:
    """find-friends (5 and 6 seats, levels by player) and three-bid (3 seats)."""
    out: dict[str, Rendered] = {}
    levels = [Rank.FIVE, Rank.TWO, Rank.JACK, Rank.ACE, Rank.TEN, Rank.SEVEN]
    names = ["1. 小明", "2. Bob", "3. 🐉 Dragon", "4. Zoë", "5. 王小二", "6. Ann"]
    ace = parse_cards("AS")[0]
    five = [SeatInfo(names[i], 17 - (i < 2), is_dealer=i == 0, is_turn=i == 2, level=levels[i],
                     side=Side.DEFENDING if i == 0 else None) for i in range(5)]
    out["table-5-friend-unknown"] = render_table(TableScene(
        five, Rank.FIVE, Suit.SPADES, calls=[CallInfo(ace, 2)],
        trick=[(0, parse_cards("KH KH")), (1, parse_cards("3H 9H"))], winner=0,
        attacker_points=30, point_cards=parse_cards("10D 10C 5H 5S"),
        previous_trick=[(s, parse_cards(c)) for s, c in
                        enumerate(["AS", "4S", "KS", "10S", "9S"])], previous_winner=0,
        hand_number=3, title="find-friends"))
    # six seats, two friends called: one found (seat 3), the other still unknown
    six = [SeatInfo(names[i], 14, is_dealer=i == 0, is_turn=i == 4, level=levels[i],
                    side=Side.DEFENDING if i in (0, 2) else None, is_friend=i == 2)
           for i in range(6)]
    out["table-6-one-friend-found"] = render_table(TableScene(
        six, Rank.FIVE, Suit.HEARTS, calls=[CallInfo(ace, 1, 2),
                                            CallInfo(parse_cards("KD")[0], 2)],
        trick=[(2, parse_cards("QC QC")), (3, parse_cards("3C 7C"))], winner=2,
        attacker_points=55, point_cards=parse_cards("KC 10S 10H 5D 5D"), hand_number=5,
        title="find-friends · 6"), four_colour=True)
    bidding = [SeatInfo(names[0], 34, bid=90, level=Rank.THREE),
               SeatInfo(names[1], 34, passed=True, level=Rank.SIX),
               SeatInfo(names[2], 34, is_turn=True, level=Rank.KING)]
    out["table-3-bidding"] = render_table(TableScene(
        bidding, None, trump_hidden=True, bid=BidInfo(90, 0, standing=True), hand_number=2,
        title="three-bid"))
    playing = [SeatInfo(names[i], 20 - (i == 0), is_dealer=i == 1, is_turn=i == 0,
                        level=(Rank.THREE, Rank.SIX, Rank.KING)[i],
                        side=Side.DEFENDING if i == 1 else Side.ATTACKING) for i in range(3)]
    out["table-3-three-bid"] = render_table(TableScene(
        playing, Rank.SIX, Suit.CLUBS, bid=BidInfo(85, 1),
        trick=[(1, parse_cards("AD AD")), (2, parse_cards("KD QD"))], winner=1,
        attacker_points=45, point_cards=parse_cards("KS 10S 10H 10C 5D"), hand_number=2,
        title="three-bid"))
    out["result-find-friends"] = render_result(ResultScene(
        kitty=parse_cards("5H 10S KD 3C 4C JH 5S 7D"), multiplier=0, attacker_points=55,
        level_changes=[
            LevelChange(names[0], "5", "8", ("defended",), Side.DEFENDING, is_dealer=True),
            LevelChange(names[1], "2", "2", ("no change",), Side.ATTACKING),
            LevelChange(names[2], "J", "J", ("defended", "stopped at a must-play level"),
                        Side.DEFENDING),
            LevelChange(names[3], "A", "A", ("no change",), Side.ATTACKING),
            LevelChange(names[4], "10", "10", ("no change",), Side.ATTACKING)],
        next_declarers=[names[0], names[2]],
        lines=["Attackers took 55 points in tricks.",
               "Defenders go up: the dealer 2 levels, the friend 1 (stopped at J)."],
        title="Hand 3"))
    out["result-three-bid"] = render_result(ResultScene(
        kitty=parse_cards("KH 10C 3C 4D 7S 8S"), multiplier=2, attacker_points=130,
        level_changes=[
            LevelChange(names[0], "3", "4", ("won as attackers",), Side.ATTACKING),
            LevelChange(names[1], "6", "6", ("no change",), Side.DEFENDING, is_dealer=True),
            LevelChange(names[2], "K", "A", ("won as attackers",), Side.ATTACKING)],
        lines=["130 points against a bid of 85: each attacker goes up 1 level."],
        bid=85, title="Hand 2"))
    return out


def phone_view(rendered: Rendered) -> Image.Image:
    """The picture as a phone shows it: :data:`PHONE_WIDTH` pixels wide."""
    image = Image.open(io.BytesIO(rendered.png))
    height = round(image.height * PHONE_WIDTH / image.width)
    return image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default="gallery", type=Path)
    parser.add_argument("--sample", action="store_true",
                        help="rewrite the README's sample pictures in docs/")
    args = parser.parse_args(argv)
    pictures = samples()
    if args.sample:
        for name, file in SAMPLES.items():
            target = Path(__file__).with_name(file)
            target.write_bytes(pictures[name].png)
            sys.stdout.write(f"{target}\n")
        return
    folder = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    for name, rendered in pictures.items():
        (folder / f"{name}.png").write_bytes(rendered.png)
        (folder / f"{name}.txt").write_text(rendered.alt_text + "\n", encoding="utf-8")
        if name.startswith("table"):
            phone_view(rendered).save(folder / f"{name}-phone.png")
        size = f"{rendered.width}×{rendered.height}, {len(rendered.png) // 1024} KB"
        sys.stdout.write(f"{folder / name}.png  {size}\n")


if __name__ == "__main__":
    main()
