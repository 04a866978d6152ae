"""End of hand: kitty multiplier, level tables, advancing, next dealer (RULES §2, §3).

Level tables are data: rows ``(low, high, side, levels)`` over the attackers' points,
checked for gaps and overlaps when built, and extended by ``step`` beyond both ends.
A hand's result is data (``HandResult``, ``LevelChange``, ``Note``): the bot words it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from engine.cards import Card, Rank
from engine.order import SuitSystem
from engine.rules import Finish, KittyMultiplier, LevelTable, Ruleset
from engine.teams import Formation
from engine.values import derived

DEFENDERS, ATTACKERS, NOBODY = "defenders", "attackers", "none"
_INF = 10**9


@dataclass(frozen=True)
class Row:
    low: int  # inclusive
    high: int  # exclusive
    side: str
    levels: int
    take_over: bool  # the attackers deal next


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    step: int  # beyond the last row: attackers one more per step; below the first: defenders

    def __post_init__(self) -> None:
        for a, b in pairwise(self.rows):
            if a.high != b.low:
                raise ValueError(f"level table has a gap or overlap at {a.high}/{b.low}")

    def lookup(self, points: int) -> Row:
        first, last = self.rows[0], self.rows[-1]
        if points < first.low:
            extra = (first.low - points + self.step - 1) // self.step
            return Row(points, points + 1, first.side, first.levels + extra, first.take_over)
        if points >= last.high:
            extra = (points - last.high) // self.step + 1
            return Row(points, points + 1, last.side, last.levels + extra, last.take_over)
        for row in self.rows:
            if row.low <= points < row.high:
                return row
        raise AssertionError("unreachable")


def _steps(step: int, defend_rows: list[tuple[int, int, int]], *, take_over_row: bool = False
           ) -> Table:
    """Defender rows as given, then attacker rows of ``step`` points each."""
    rows = [Row(lo, hi, DEFENDERS, n, False) for lo, hi, n in defend_rows]
    attack_from = defend_rows[-1][1]
    if take_over_row:  # three decks: reaching the threshold takes the deal, no level
        rows.append(Row(attack_from, attack_from + step, ATTACKERS, 0, True))
        attack_from += step
    rows.append(Row(attack_from, attack_from + step, ATTACKERS, 1, True))
    return Table(tuple(rows), step)


# Level tables by ruleset: every hand's scoring reads one, and building it (rows,
# checked) cost as much as the rest of a hand's level change.
_TABLES: dict[int, tuple[Ruleset, Table]] = {}


def level_table(rules: Ruleset) -> Table:
    """The level table of a ruleset (RULES §2 "Level change", §3, §4), made once."""
    return derived(rules, _TABLES, _level_table)


def _level_table(rules: Ruleset) -> Table:
    rows: tuple[Row, ...]
    if rules.level_table is LevelTable.CHANGZHU:
        rows = (Row(-80, -40, DEFENDERS, 5, False), Row(-40, 0, DEFENDERS, 4, False),
                Row(0, 1, DEFENDERS, 3, False), Row(1, 40, DEFENDERS, 2, False),
                Row(40, 80, DEFENDERS, 1, False), Row(80, 120, ATTACKERS, 1, True))
        return Table(rows, 40)
    if rules.suits is SuitSystem.RED_BLACK:  # two-deck table, halved
        return _steps(20, [(-_INF, 1, 3), (1, 20, 2), (20, 40, 1)])
    if rules.decks == 1:
        rows = (Row(-_INF, 1, DEFENDERS, 2, False), Row(1, 40, DEFENDERS, 1, False),
                Row(40, 80, NOBODY, 0, True), Row(80, 100, ATTACKERS, 1, True),
                Row(100, 140, ATTACKERS, 2, True))
        return Table(rows, 40)
    if rules.decks == 3:
        return _steps(60, [(-_INF, 1, 3), (1, 60, 2), (60, 120, 1)], take_over_row=True)
    if rules.decks == 4:
        return _steps(80, [(-_INF, 1, 3), (1, 80, 2), (80, 160, 1)])
    return _steps(40, [(-_INF, 1, 3), (1, 40, 2), (40, 80, 1)])


#: RULES §5: the attackers' points that take the deal in find-friends.
FIND_FRIENDS_TAKE_OVER = 120


def find_friends_steps(points: int, defenders: int) -> tuple[str, tuple[int, int]]:
    """RULES §5: (side, (levels for the dealer, levels for each other player of it)).

    The attackers take over at 120 and each goes up one more per full 60 above it. Below
    120 the defenders go up by the number of defenders: alone 4 / 8 / 12; with one
    friend the dealer 2 / 4 / 6 and the friend 1 / 2 / 3; three defenders 1 / 2 / 3 each;
    for points under 120 / under 60 / none."""
    if points >= FIND_FRIENDS_TAKE_OVER:
        return ATTACKERS, (0, (points - FIND_FRIENDS_TAKE_OVER) // 60)
    tier = 3 if points <= 0 else 2 if points < 60 else 1
    per = {1: (4, 0), 2: (2, 1)}.get(defenders, (1, 1))
    return DEFENDERS, (per[0] * tier, per[1] * tier)


def three_bid_steps(points: int, bid: int) -> tuple[str, int]:
    """RULES §6: (side, levels): the attackers +1 at the bid and one more per further
    half bid; the dealer +2 under it, +4 under half of it, +6 with none."""
    if points >= bid:
        return ATTACKERS, 1 + (2 * (points - bid)) // bid
    return DEFENDERS, 6 if points <= 0 else 4 if 2 * points < bid else 2


def takes_over(rules: Ruleset, points: int, bid: int | None = None) -> bool:
    """Do the attackers win a hand with ``points`` (the kitty's included): take the deal
    (fixed partnerships), or go up as attackers (find-friends; three-bid at its ``bid``)?
    Read from the tables the game scores with; the computer players ask this too."""
    if rules.teams is Formation.BID:  # (no bid given: the highest bid)
        return three_bid_steps(points, rules.max_bid if bid is None else bid)[0] == ATTACKERS
    if rules.teams is Formation.CALLED:
        return find_friends_steps(points, 1)[0] == ATTACKERS
    return level_table(rules).lookup(points).take_over


def take_over_points(rules: Ruleset, bid: int | None = None) -> int:
    """The fewest attacker points with which the attackers win the hand (``takes_over``)."""
    if rules.teams is Formation.BID:
        return rules.max_bid if bid is None else bid
    if rules.teams is Formation.CALLED:
        return FIND_FRIENDS_TAKE_OVER
    for row in level_table(rules).rows:
        if row.take_over:
            return max(row.low, 0)
    raise AssertionError("a level table always has a take-over row")


def jack_penalty(jacks: int, widest_tractor: int) -> int:
    """RULES §5 ``jack_kitty_penalty``: the defenders' levels lost in all when the last
    play holds ``jacks`` Js, ``widest_tractor`` the width of a tractor holding a J (0:
    none): a single J 6, a pair 12, three Js 18, a J tractor 24, a J triple tractor 36."""
    if widest_tractor >= 3:
        return 36
    if widest_tractor == 2:
        return 24
    return {0: 0, 1: 6, 2: 12}.get(jacks, 18)


def kitty_multiplier(rules: Ruleset, largest_component: int, cards_in_play: int) -> int:
    if rules.kitty_multiplier is KittyMultiplier.COUNT:
        return cards_in_play
    if rules.kitty_multiplier is KittyMultiplier.LINEAR:
        return largest_component
    return min(1 << largest_component, 64)  # 2 ** n (n >= 1), capped


def kitty_points(rules: Ruleset, kitty: Sequence[Card]) -> int:
    total = 0
    for card in kitty:
        if rules.kitty_joker_points and card.is_joker:
            total += 100 if card.rank is Rank.BIG_JOKER else 80
        else:
            total += card.points
    return total


@dataclass(frozen=True)
class Climb:
    """One player's or team's move up: where it ends and why it stopped."""

    level: Rank
    won: bool  # the match is won by it
    moved: int  # levels actually gone up
    stopped: int  # levels a must-play rank stopped (``level_transfer`` may pass them on)


def climb(rules: Ruleset, level: Rank, steps: int, *, as_defenders: bool) -> Climb:
    """``advance`` with the levels it could not take because of a must-play rank."""
    new, won = advance(rules, level, steps, as_defenders=as_defenders)
    ranks = rules.level_ranks
    moved = ranks.index(new) - ranks.index(level)
    blocked = 0
    if not won and moved < steps and new in rules.must_play_ranks:
        blocked = steps - moved
    return Climb(new, won, moved, blocked)


def lower(rules: Ruleset, level: Rank, steps: int) -> tuple[Rank, int]:
    """Move ``steps`` levels down, never below the first level: (new level, the steps
    that did not fit)."""
    ranks = rules.level_ranks
    pos = ranks.index(level)
    down = min(steps, pos)
    return ranks[pos - down], steps - down


#: Why a player's level changed (``LevelChange.reasons``); see ``LevelChange``.
REASONS = ("defended", "took_over", "attacked", "must_play", "jack_penalty", "ace_penalty",
           "j_fall", "after_hand", "none")

#: What a result notes beyond its row (``Note.code``): ``j_fall``, changzhu's J到6 / 双J到底
#: dropped the defenders to ``Note.level``.
NOTES = ("j_fall",)


@dataclass(frozen=True)
class Note:
    """Something a hand's result tells beyond the level table (data; the bot words it)."""

    code: str  # one of ``NOTES``
    level: Rank | None = None


@dataclass(frozen=True)
class LevelChange:
    """Why one player's level changed in a hand (data; the bot words it).

    ``reason`` codes: ``defended`` (the defenders held), ``took_over`` (the attackers
    reached the threshold), ``attacked`` (beyond it), ``must_play`` (an advance stopped
    at a must-play rank: ``stopped`` levels not taken), ``jack_penalty`` /
    ``ace_penalty`` (the kitty penalties of RULES §5), ``j_fall`` (changzhu J到6),
    ``none`` (no change). A ``level_transfer`` after the hand is an event of its own
    (``levels_transferred`` / ``levels_kept``); ``engine.game.settled_result`` then
    gives a seat that moved the reason ``after_hand``."""

    seat: int
    old: Rank
    new: Rank
    reasons: tuple[str, ...]
    earned: int = 0  # levels the table gave (before must-play stops)
    stopped: int = 0


def advance(rules: Ruleset, level: Rank, steps: int, *, as_defenders: bool
            ) -> tuple[Rank, bool]:
    """Move a team ``steps`` levels up: (new level, whether that wins the match)."""
    ranks = rules.level_ranks
    must = rules.must_play_ranks
    pos = ranks.index(level)
    top = len(ranks) - 1
    for i in range(steps):
        current = ranks[pos]
        if current in must and not (as_defenders and i == 0):
            break  # 必打: a must-play rank is passed only by defending it
        if pos == top:
            if rules.finish is Finish.PAST_TOP or (rules.finish is Finish.PASS_ACE
                                                   and as_defenders and i == 0):
                return level, True
            break
        pos += 1
        if rules.finish is Finish.REACH_ACE and pos == top:
            return ranks[pos], True
    return ranks[pos], False


@dataclass(frozen=True)
class HandResult:
    """Everything that was decided at the end of a hand, as data (the bot words it)."""

    trick_points: int  # attackers' points from tricks (with penalties)
    kitty: tuple[Card, ...]
    kitty_points: int
    last_trick_side: str  # who won the last trick
    multiplier: int  # 0 when the kitty does not go to the attackers
    kitty_delta: int  # added to the attackers (negative under 保底)
    attacker_points: int
    row: Row
    side: str  # who goes up
    levels: int
    old_levels: tuple[Rank, Rank]  # (defenders, attackers) before
    new_levels: tuple[Rank, Rank]
    dealer: int
    next_dealer: int
    winner_team: int | None  # the team that won the match, if it ended
    notes: tuple[Note, ...] = field(default=())
    changes: tuple[LevelChange, ...] = ()  # every seat's level change and its reasons
    defenders: tuple[int, ...] = ()  # the seats that defended (with every friend found)
    bid: int | None = None  # three-bid: the threshold
    next_declarers: tuple[int, ...] = ()  # find-friends: who may declare next hand
