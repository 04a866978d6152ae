"""What the hand panel offers in the phases of the games whose sides form in the hand
(RULES §5 find-friends, §6 three-bid): the bids, the trumps the dealer may name, the
called cards and copies, and where stopped levels may go after a hand.

Every choice offered is one the engine accepts: each candidate is tried with
``engine.game.apply`` on the current state (a value: trying changes nothing), so no rule
is re-derived here. The calls the dealer is making live in the custom ids of their own
(ephemeral) panel, as :class:`CallDraft`, until they press Call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.actions import (
    Action,
    AnswerTransfer,
    Bid,
    CallFriends,
    NameTrump,
    PassBid,
    Transfer,
)
from engine.cards import ALL_CARDS, Card, Suit, parse_card
from engine.errors import EngineError
from engine.game import (
    Bidding,
    CallingFriends,
    MatchState,
    NamingTrump,
    Transferring,
    apply,
)
from engine.order import Colour, SuitSystem


def accepts(state: MatchState, action: Action) -> bool:
    """Whether the engine takes ``action`` now."""
    try:
        apply(state, action)
    except EngineError:
        return False
    return True


# -- three-bid ---------------------------------------------------------------------------

def allowed_bids(state: MatchState, seat: int) -> list[int]:
    """The bids ``seat`` may make now, the least brave (highest) first; empty when it is
    not its turn to bid."""
    phase = state.phase
    if not isinstance(phase, Bidding) or phase.turn != seat:
        return []
    return list(phase.bids_allowed(state.rules.max_bid))


def may_pass(state: MatchState, seat: int) -> bool:
    return isinstance(state.phase, Bidding) and accepts(state, PassBid(seat))


def trump_words(state: MatchState, seat: int) -> list[str]:
    """The trumps the dealer may name now, as ``NameTrump`` takes them ("none": no trump)."""
    if not isinstance(state.phase, NamingTrump):
        return []
    suits = [c.value for c in Colour] if state.rules.suits is SuitSystem.RED_BLACK \
        else [s.value for s in Suit]
    return [w for w in [*suits, "none"] if accepts(state, NameTrump(seat, w))]


# -- find-friends: the calls being made ---------------------------------------------------

JOKERS = "J"  # the suit menu's group of the two jokers
#: The suit menu's groups: the four suits, then the jokers.
CALL_GROUPS = (*(s.value for s in Suit), JOKERS)


def group_cards(group: str) -> list[Card]:
    """The cards one may call in a suit menu group, lowest first."""
    if group == JOKERS:
        return [c for c in ALL_CARDS if c.suit is None]
    return [c for c in ALL_CARDS if c.suit is not None and c.suit.value == group]


@dataclass(frozen=True)
class CallDraft:
    """The calls the dealer is making: for each friend the card (None: not picked yet)
    and the copy; which call the menus edit; the suit menu's group shown."""

    cards: tuple[Card | None, ...]
    copies: tuple[int, ...]
    editing: int = 0
    group: str = Suit.HEARTS.value

    @classmethod
    def empty(cls, friends: int) -> CallDraft:
        return cls((None,) * friends, (1,) * friends)

    @property
    def complete(self) -> bool:
        return all(c is not None for c in self.cards)

    def text(self) -> str:
        """The draft as a custom id carries it: ``AH1.-1:0:S`` (card and copy per call,
        ``-`` not picked; the call edited; the group shown)."""
        calls = ".".join(f"{c if c is not None else '-'}{k}"
                         for c, k in zip(self.cards, self.copies, strict=True))
        return f"{calls}:{self.editing}:{self.group}"

    def pick(self, card: Card) -> CallDraft:
        cards = list(self.cards)
        cards[self.editing] = card
        return replace(self, cards=tuple(cards))

    def copy(self, copy: int) -> CallDraft:
        copies = list(self.copies)
        copies[self.editing] = copy
        return replace(self, copies=tuple(copies))

    def action(self, seat: int) -> CallFriends:
        assert self.complete
        return CallFriends(seat, tuple(c for c in self.cards if c is not None), self.copies)


DRAFT_PATTERN = r"(?P<calls>[0-9A-Z.\-]{2,40}):(?P<editing>[0-9]):(?P<group>[SHDCJ])"


def draft_of(calls: str, editing: str, group: str) -> CallDraft:
    """The draft a custom id carries (what :meth:`CallDraft.text` wrote); ``ValueError``
    for anything else."""
    cards: list[Card | None] = []
    copies: list[int] = []
    for part in calls.split("."):
        if not part or len(part) < 2:
            raise ValueError(part)
        code, copy = part[:-1], part[-1]
        try:
            cards.append(None if code == "-" else parse_card(code))
        except EngineError:
            raise ValueError(part) from None
        copies.append(int(copy))
    index = int(editing)
    if not 0 <= index < len(cards) or group not in CALL_GROUPS:
        raise ValueError(editing)
    return CallDraft(tuple(cards), tuple(copies), index, group)


def copy_choices(state: MatchState) -> list[int]:
    """The copies a call may name: the first to the last copy of the decks (RULES §5)."""
    return list(range(1, state.rules.decks + 1))


def may_call(state: MatchState, seat: int, draft: CallDraft) -> bool:
    return isinstance(state.phase, CallingFriends) and draft.complete and \
        accepts(state, draft.action(seat))


# -- after a hand: the level transfer -------------------------------------------------------

@dataclass(frozen=True)
class TransferChoice:
    """Where the levels may go: ``target`` None keeps them nowhere; ``teammate``: a gift
    (up), else taken off an opponent (down)."""

    target: int | None
    teammate: bool


def transfer_choices(state: MatchState, seat: int) -> list[TransferChoice]:
    """Where ``seat`` may send its stopped levels now (empty: not its choice)."""
    phase = state.phase
    if not isinstance(phase, Transferring) or phase.asked is not None or \
            phase.offers[0][0] != seat:
        return []
    defenders = set(phase.result.defenders)
    out = [TransferChoice(t, (t in defenders) == (seat in defenders))
           for t in range(state.players) if accepts(state, Transfer(seat, t))]
    if accepts(state, Transfer(seat, None)):
        out.append(TransferChoice(None, False))
    return out


def asked_to_accept(state: MatchState, seat: int) -> tuple[int, int] | None:
    """(giver, levels) when ``seat`` is asked to accept a gift of levels now."""
    phase = state.phase
    if not isinstance(phase, Transferring) or phase.asked != seat or \
            not accepts(state, AnswerTransfer(seat, True)):
        return None
    return phase.offers[0]


# -- the same choices by keyboard (``/shengji choose``) --------------------------------------

PASS, NOWHERE, ACCEPT, REFUSE = "pass", "none", "accept", "refuse"


def keyboard_choices(state: MatchState, seat: int) -> list[tuple[str, Action]]:
    """The seat's choices now as ``/shengji choose`` takes them: (what to type, the
    action). Bids as their points, ``pass``; trumps as ``NameTrump`` words; transfer
    targets as seat numbers from 1, ``none``; ``accept`` / ``refuse`` a gift."""
    out: list[tuple[str, Action]] = [(str(p), Bid(seat, p)) for p in allowed_bids(state, seat)]
    if may_pass(state, seat):
        out.append((PASS, PassBid(seat)))
    out += [(w, NameTrump(seat, w)) for w in trump_words(state, seat)]
    for choice in transfer_choices(state, seat):
        word = NOWHERE if choice.target is None else str(choice.target + 1)
        out.append((word, Transfer(seat, choice.target)))
    if asked_to_accept(state, seat) is not None:
        out += [(ACCEPT, AnswerTransfer(seat, True)), (REFUSE, AnswerTransfer(seat, False))]
    return out
