"""The Laws' play replay against a reference written for reading, not for speed.

``laws.play.replay_play`` follows every card with bit masks and tables, since it runs
for every card validated. The reference below says the same Laws the plainest way, with
sets and a sort key: each player plays a card he holds that was not played before
(Law 44), follows suit if he can (Law 61; a card of another suit then is a revoke), and
the highest trump, else the highest card of the suit led, wins the trick and leads the
next (Law 44). The two must agree on who won each trick, on each revoke, and on the first
card that could not have been played, for generated plays that break the rules now and
then, for real plays of the corpus, and for legal plays changed a little.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import CONFORMANCE, CORPUS, REAL_LIN, REAL_PBN

import bridgefiles as bf
from bridgefiles.laws.play import replay_play
from bridgefiles.model import ALL_CARDS, Play, PlayedCard, PlayEnd, Seat, Strain
from bridgefiles.model.deal import Deal, whole_deal_masks
from bridgefiles.model.play import NO_CARD, card_indices, slot_codes
from bridgefiles.model.seats import ROTATION, SEAT_ORDER
from bridgefiles.testing.synthetic import generate, to_pbn

# (trick, seat order) of each revoke; (trick, seat order) of the first card not playable
Reference = tuple[list[int], list[tuple[int, int]], tuple[int, int] | None]


def _reference(
    codes: list[int], hands: list[set[int]], first: int, leader: int, trump: int
) -> Reference:
    """Winners (seat orders), revokes and the first unplayable card of a record whose
    slot ``k`` of each trick is the seat ``first + k``; ``trump`` 0-3 or 4 (no trump).

    Where a card is missing the trick is not won, and from a missing lead on the order
    of play is lost: the cards after it are checked only for being held, trick by trick
    in seat order (N, E, S, W), as the PBN verifier does."""
    left = [set(h) for h in hands]
    gone: set[int] = set()
    winners: list[int] = []
    revokes: list[tuple[int, int]] = []
    lead: int | None = leader  # None: the order of play is lost
    for t in range(min(13, (len(codes) + 3) // 4)):
        row = codes[4 * t : 4 * t + 4]
        trick: list[tuple[int, int]] = []  # (seat, card) in playing order
        whole = lead is not None  # every card so far of a known order
        for k in range(4):
            seat = ((lead or 0) + k) % 4
            column = (seat - first) % 4
            if column >= len(row) or row[column] >= NO_CARD:
                whole = False
                if k == 0:
                    lead = None
                continue
            card = row[column]
            led = trick[0][1] // 13 if trick else card // 13
            if whole and card // 13 != led and any(c // 13 == led for c in left[seat]):
                revokes.append((t + 1, seat))
            if card in gone or card not in left[seat]:
                return winners, revokes, (t + 1, seat)
            left[seat].remove(card)
            gone.add(card)
            trick.append((seat, card))
        if not whole:
            lead = None
            continue
        led = trick[0][1] // 13

        def rank(played: tuple[int, int], led: int = led) -> tuple[int, int]:
            suit = played[1] // 13
            return (2 if suit == trump else 1 if suit == led else 0, played[1] % 13)

        lead = max(trick, key=rank)[0]
        winners.append(lead)
    return winners, revokes, None


def _check(play: Play, deal: Deal, strain: Strain, declarer: Seat) -> None:
    """The replay of ``play`` (by the Deal model and by its card masks) says what the
    reference says."""
    hands: list[set[int]] = []
    for seat in ROTATION:
        hand = deal.hands[seat]
        assert hand is not None
        hands.append({c.index for c in hand.cards})
    codes, marked = slot_codes(play)
    assert not marked
    want = _reference(codes, hands, SEAT_ORDER[play.first], SEAT_ORDER[declarer.lho], strain.order)
    masks = whole_deal_masks(str(deal))
    assert masks is not None
    for given_deal, given_masks in ((deal, None), (None, masks)):
        got = replay_play(play, given_deal, strain, declarer, masks=given_masks)
        winners, revokes, bad = want
        assert [SEAT_ORDER[s] for s in got.winners] == winners
        assert [(r.trick, SEAT_ORDER[r.player]) for r in got.revokes] == revokes
        unplayable = [
            (d.trick, SEAT_ORDER[d.seat])
            for d in got.diagnostics
            if d.code == "card-not-held" and d.trick is not None and d.seat is not None
        ]
        assert unplayable[:1] == ([bad] if bad else [])


def _slots(cards: list[int]) -> tuple[PlayedCard, ...]:
    return tuple(
        PlayedCard(card=ALL_CARDS[c], line=1 + i // 4, column=1 + i % 4)
        for i, c in enumerate(cards)
    )


def _hand_text(indices: list[int]) -> str:
    suits = [
        [ALL_CARDS[i].rank.char for i in sorted(indices, reverse=True) if i // 13 == s]
        for s in (3, 2, 1, 0)
    ]
    return ".".join("".join(s) for s in suits)


@st.composite
def _plays(draw: st.DrawFn) -> tuple[Play, Deal, Strain, Seat]:
    """A deal and a play from it, mostly by the rules, sometimes not: a card of another
    suit while one of the suit led is held (a revoke), a card of another hand or one
    played before, a record that stops at any card."""
    order = draw(st.permutations(range(52)))
    hands = [sorted(order[13 * k : 13 * k + 13]) for k in range(4)]
    deal = Deal.parse("N:" + " ".join(map(_hand_text, hands)))
    strain = draw(st.sampled_from(list(Strain)))
    declarer = draw(st.sampled_from(list(Seat)))
    first = draw(st.sampled_from(list(Seat)))
    left = [list(h) for h in hands]
    leader = SEAT_ORDER[declarer.lho]
    columns: list[int] = []  # record order: column k of a trick is seat first + k
    for _ in range(draw(st.integers(0, 13))):
        played: dict[int, int] = {}  # seat order -> card index, this trick
        led = -1
        for k in range(4):
            seat = (leader + k) & 3
            hand = left[seat]
            follow = [c for c in hand if c // 13 == led]
            roll = draw(st.integers(0, 99))
            if roll < 3 and columns:  # a card played before, or of another hand
                card = draw(st.sampled_from([*columns, *left[(seat + 1) & 3]] or hand))
            elif roll < 8 or not follow:
                card = draw(st.sampled_from(hand))  # maybe a revoke
            else:
                card = draw(st.sampled_from(follow))
            if card in hand:
                hand.remove(card)
            if k == 0:
                led = card // 13
            played[seat] = card
        leader = draw(st.sampled_from(sorted(played)))  # (the reference finds the winner)
        columns.extend(played[(SEAT_ORDER[first] + k) & 3] for k in range(4))
    cut = draw(st.integers(0, len(columns)))
    play = Play(first=first, slots=_slots(columns[:cut]), end=PlayEnd.OPEN)
    return play, deal, strain, declarer


@settings(max_examples=500, deadline=None)
@given(_plays())
def test_generated_plays_are_ruled_as_the_reference_rules(
    case: tuple[Play, Deal, Strain, Seat],
) -> None:
    _check(*case)


def _files() -> list[Any]:
    if not CORPUS.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{CORPUS} is absent"))]
    paths = [
        *sorted(REAL_PBN.glob("*.pbn")),
        *sorted(REAL_LIN.glob("*.lin")),
        *sorted(CONFORMANCE.glob("*.pbn")),
    ]
    return [pytest.param(p, id=p.name) for p in paths]


@pytest.mark.parametrize("path", _files())
def test_real_plays_are_ruled_as_the_reference_rules(path: Path) -> None:
    """Every real play of a whole, sound deal with no marked or unknown card."""
    checked = 0
    for board in bf.read(path):
        play, deal, contract = board.play, board.deal, board.contract
        if play is None or deal is None or contract is None or contract.strain is None:
            continue
        codes, marked = slot_codes(play)
        text = board.tag("Deal")
        if marked or max(codes, default=0) >= NO_CARD or not text or whole_deal_masks(text) is None:
            continue
        for declarer in {board.declarer or Seat.N, Seat.E}:
            _check(play, deal, contract.strain, declarer)
        checked += 1
    if not checked:
        pytest.skip("no unmarked play of a whole, sound deal in this file")


def _mutations(cards: list[int]) -> list[list[int]]:
    """Plays a few changes away from a legal one: a seat's card repeated in place of
    another of the same suit (played twice, the other never), two cards of different
    seats exchanged (not held), two cards of one seat exchanged (maybe a revoke), and
    the record stopped at each trick."""
    out = [cards[:n] for n in range(0, len(cards), 4)]
    for column in range(4):
        mine = cards[column::4]
        for t1, a in enumerate(mine):
            for t2 in range(t1 + 1, len(mine)):
                b = mine[t2]
                changed = list(cards)
                if a // 13 == b // 13:
                    changed[4 * t2 + column] = a  # played twice
                    out.append(changed)
                changed = list(cards)
                changed[4 * t1 + column], changed[4 * t2 + column] = b, a
                out.append(changed)
    for i in range(0, len(cards) - 1, 3):
        changed = list(cards)
        changed[i], changed[i + 1] = changed[i + 1], changed[i]  # seats that hold the other
        out.append(changed)
    return out


def test_legal_plays_changed_a_little_are_ruled_as_the_reference_rules() -> None:
    boards = [b for text in to_pbn(generate(12, seed=5)) for b in bf.loads(text, "pbn").boards]
    cases = 0
    for board in boards:
        play, deal, contract, declarer = board.play, board.deal, board.contract, board.declarer
        if play is None or deal is None or contract is None or declarer is None:
            continue
        if contract.strain is None:  # (passed out)
            continue
        cards = card_indices(play)
        assert cards is not None
        for changed in _mutations(cards):
            changed_play = play.model_copy(update={"slots": _slots(changed)})
            _check(changed_play, deal, contract.strain, declarer)
            cases += 1
    assert cases > 1000
