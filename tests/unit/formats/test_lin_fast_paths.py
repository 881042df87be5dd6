"""The LIN reader's shortcuts give what the general paths give.

The reader hands the Laws what it knows of a board as it builds it: the codes of an
auction of plain calls (``model.auction.built_plain_calls``) and the card indices of a
play of whole tricks of plain cards (``model.play.built_plain``); it places each trick
in its seat columns with Law 44's table; it reads the usual ``md`` (a whole deal as BBO
writes it) in a few C-level steps. Each is checked here against the general path (the
codes and indices worked out afresh from the entries and slots, the tricks placed card by
card with ``model.outcome.trick_winner``, the deal read rank by rank and completed by the
model) on every real LIN file, the LIN fixtures and hand-made edge cases (a short last
trick, claims, movies, unknown calls, cards without a contract, a trump contract, deals
in every form), and on deals made by hypothesis.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared import CORPUS, FIXTURES

import bridgefiles as bf
from bridgefiles.formats.lin import values
from bridgefiles.model import Board, Seat
from bridgefiles.model.auction import entry_codes
from bridgefiles.model.cards import ALL_CARDS, Card, Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.outcome import trick_winner
from bridgefiles.model.play import Slot, card_indices

DEAL = "md|3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,|"
PLAY = (
    "pc|H9|pc|H3|pc|HK|pc|HA|pg||pc|C2|pc|CA|pc|C9|pc|C6|pg||"
    "pc|DK|pc|D4|pc|D9|pc|D3|pg||pc|S6|pc|S5|pc|ST|pc|SK|pg||"
)

EDGE_CASES = {
    "whole tricks": f"pn|a,b,c,d|st||{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pg||{PLAY}mc|6|pg||",
    "short last trick": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pg||{PLAY}pc|CT|pc|H4|",
    "one card": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pc|CT|",
    "trump contract": f"{DEAL}sv|n|mb|p|mb|1D|mb|2S|mb|p|mb|p|mb|p|{PLAY}",
    "notrump": f"{DEAL}sv|e|mb|1N|mb|p|mb|p|mb|p|{PLAY}",
    "doubled": f"{DEAL}sv|b|mb|1H|mb|d|mb|r|mb|p|mb|p|mb|p|{PLAY}",
    "alerts": f"{DEAL}sv|o|mb|1C!|an|strong|mb|p|mb|2C!|mb|p|mb|p|mb|p|{PLAY}",
    "no contract": f"{DEAL}sv|o|{PLAY}",
    "auction not ended": f"{DEAL}sv|o|mb|1C|mb|p|{PLAY}",
    "passed out": f"{DEAL}sv|o|mb|p|mb|p|mb|p|mb|p|",
    "unknown call": f"{DEAL}sv|o|mb|1C|mb|?|mb|p|mb|p|mb|p|{PLAY}",
    "movie calls": f"{DEAL}sv|o|mb|1Cp|mb|p|mb|p|{PLAY}",
    "taken back": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|{PLAY}up|2|pc|C6|pc|CT|",
    "suit alone": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pc|H|pc|H3|pc|HK|pc|HA|",
    "card not held": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pc|SA|pc|H3|pc|HK|pc|HA|",
    "a card twice": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pc|H9|pc|H9|pc|HK|pc|HA|",
    "cards across lines": f"{DEAL}sv|o|mb|1C|\nmb|p|mb|p|mb|p|\npc|H9|pc|H3|\npc|HK|pc|HA|",
    "mixed case": f"{DEAL}sv|o|MB|1c|mb|P|Mb|p|mB|p|PC|h9|pc|h3|Pc|hK|pC|Ha|",
    "blanks": f"{DEAL}sv|o| mb|1C| mb|p|mb|p|mb|p| pc|H9| pc|H3|pc|HK|pc|HA|",
    "claim": f"{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|pc|H9|pc|H3|mc|7|",
    "two boards": f"qx|o1|{DEAL}sv|o|mb|1C|mb|p|mb|p|mb|p|{PLAY}qx|c1|{DEAL}mb|1N|mb|p|mb|p|"
    f"mb|p|{PLAY}",
}


def _paths() -> list[Any]:
    paths = sorted((FIXTURES).glob("lin-*.lin"))
    found: list[Any] = [pytest.param(p, id=p.name) for p in paths]
    if not CORPUS.is_dir():
        return [*found, pytest.param(None, marks=pytest.mark.skip(reason=f"{CORPUS} is absent"))]
    return found + [pytest.param(p, id=p.name) for p in sorted(CORPUS.rglob("*.lin"))]


_CARD_RE = re.compile(r"[pP][cC]\|([SHDCshdc][2-9TJQKAtjqka])\|")


def _played(board: Board) -> list[Card] | None:
    """The cards of a board in playing order, straight from its text (a name is its
    last two letters, as lin.md 1 reads it); None when its play is not plain cards
    alone (movies, cards taken back)."""
    pairs = re.findall(r"([^|]*)\|([^|]*)\|", board.source or "")
    names = [name.strip(" \t\r\n")[-2:].lower() for name, _ in pairs]
    if "up" in names:
        return None
    cards = [value for name, (_, value) in zip(names, pairs, strict=True) if name == "pc"]
    if any(_CARD_RE.fullmatch(f"pc|{v}|") is None for v in cards):
        return None
    return [Card.parse(v.upper()) for v in cards]


def _placed_card_by_card(
    first: Seat, cards: list[Card], strain: Strain | None
) -> list[Card | None]:
    """The seat columns of the general path: each card to its seat, each trick's
    winner (``trick_winner``, Law 44) leading the next; a short trick padded."""
    slots: list[Card | None] = []
    leader = first
    for start in range(0, len(cards), 4):
        trick = cards[start : start + 4]
        row: list[Card | None] = [None, None, None, None]
        for j, card in enumerate(trick):
            row[first.distance(leader.offset(j))] = card
        slots += row
        if len(trick) == 4:
            leader = trick_winner(leader, trick, strain)
    return slots


def _check(board: Board) -> None:
    auction = board.auction
    if auction is not None:
        # a copy whose entries are another tuple: nothing vouched for, worked out afresh
        fresh = auction.model_copy(update={"entries": tuple(list(auction.entries))})
        assert fresh.entries is not auction.entries
        assert entry_codes(auction) == entry_codes(fresh), board.label
    play = board.play
    if play is None:
        return
    fresh_play = play.model_copy(update={"slots": tuple(list(play.slots))})
    assert fresh_play.slots is not play.slots
    assert card_indices(play) == card_indices(fresh_play), board.label
    played = _played(board)
    if played is None or len(played) > 52:
        return
    strain = board.outcome.contract.strain if board.outcome and board.outcome.contract else None
    expected = _placed_card_by_card(play.first, played, strain)
    got = [s.card if s.slot is Slot.CARD else None for s in play.slots]
    assert got == expected, board.label


@pytest.mark.parametrize("path", _paths())
def test_shortcuts_on_the_corpus(path: Path) -> None:
    for board in bf.read(path):
        _check(board)


@pytest.mark.parametrize("text", list(EDGE_CASES.values()), ids=list(EDGE_CASES))
def test_shortcuts_on_edge_cases(text: str) -> None:
    boards = bf.loads(text, "lin").boards
    assert boards
    for board in boards:
        _check(board)


def test_whole_tricks_are_vouched_for_and_a_short_trick_is_not() -> None:
    whole = bf.loads(EDGE_CASES["whole tricks"], "lin").boards[0]
    assert whole.play is not None and len(whole.play.slots) == 16
    indices = card_indices(whole.play)
    assert indices is not None and len(indices) == 16
    short = bf.loads(EDGE_CASES["short last trick"], "lin").boards[0]
    assert short.play is not None and len(short.play.slots) == 20
    assert [s.slot for s in short.play.slots[16:]].count(Slot.UNKNOWN) == 2
    assert card_indices(short.play) is None


# -- the usual md, read in one go ------------------------------------------------------


def _general_deal(value: str) -> tuple[Seat, dict[Seat, object], str] | None:
    """What the general path makes of an ``md`` that gives a whole, sound deal with a
    dealer: the dealer, the hands (completed when three are given) and the PBN Deal
    value; None for any other ``md``."""
    try:
        dealer, _digit, hands = values.deal(value)
    except ValueError:
        return None
    given = [h for h in hands.values() if h is not None]
    if dealer is None or len(given) < 3 or any(len(h) != 13 for h in given):
        return None
    deal = Deal(hands=hands, first=dealer).completed()
    held = [c for h in deal.hands.values() if h is not None for c in h.cards]
    if len(held) != 52 or len(set(held)) != 52:
        return None
    return dealer, dict(deal.hands), deal.pbn(dealer)


def _check_deal(value: str) -> None:
    fast = values.whole_deal(value)
    if fast is None:
        return
    general = _general_deal(value)
    assert general is not None, value
    dealer, hands, pbn = general
    assert fast.dealer is dealer
    assert list(fast.hands.items()) == list(hands.items())  # the same hands, in LIN order
    assert fast.pbn == pbn


def _md_text(cards: list[int], dealer: str, drop: int, form: str) -> str:
    hands = [sorted(cards[13 * i : 13 * i + 13], reverse=True) for i in range(4)]
    fields = []
    for i, hand in enumerate(hands):
        if i == drop:
            fields.append("")
            continue
        text = ""
        for suit in "SHDC":
            ranks = [ALL_CARDS[c].rank.char for c in hand if ALL_CARDS[c].suit.value == suit]
            if form == "low first" and suit == "H":
                ranks.reverse()
            text += suit + "".join(ranks)
        fields.append(text.lower() if form == "lower" else text)
    text = dealer + ",".join(fields)
    if form == "card twice":
        text = text.replace(text[2:4], text[2:4] * 2, 1)
    return text


@settings(max_examples=300, deadline=None)
@given(
    st.permutations(range(52)),
    st.sampled_from(["1", "2", "3", "4", "0", "", "5"]),
    st.sampled_from([0, 1, 2, 3, -1]),
    st.sampled_from(["", "", "lower", "low first", "card twice"]),
)
def test_the_usual_md_is_read_as_the_general_path_reads_it(
    cards: list[int], dealer: str, drop: int, form: str
) -> None:
    value = _md_text(list(cards), dealer, drop, form)
    _check_deal(value)
    if dealer in "1234" and dealer and form == "":  # BBO's own form takes the short cut
        assert values.whole_deal(value) is not None


DEALS = [
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,SAQ876H9654DKJTCA",
    "3SJ95HQJ32D74C9743,,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2",
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2",  # three fields
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,,",
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT,",  # 12 cards
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2C2,",
    "3SJ95HQJ32D74C9743,SJ4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",  # SJ twice
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,,",
    "0SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",
    " 3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",
    "3S J95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",
    "3SJ95HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQ102,",
    "3HQJ32SJ95D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",
    "3SJ59HQJ32D74C9743,ST4HKT8DAQ92CJ865,SK32HA7D8653CKQT2,",
    "",
    "3",
    "3,,,",
]


@pytest.mark.parametrize("value", DEALS)
def test_md_edge_cases_read_as_the_general_path_reads_them(value: str) -> None:
    _check_deal(value)


def test_the_usual_md_takes_the_short_cut() -> None:
    assert all(values.whole_deal(v) is not None for v in DEALS[:3])
    assert all(values.whole_deal(v) is None for v in DEALS[3:])


@pytest.mark.parametrize("path", _paths())
def test_boards_are_the_same_without_the_md_short_cut(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [b.model_dump() for b in bf.read(path)]
    monkeypatch.setattr(values, "whole_deal", lambda value: None)
    assert [b.model_dump() for b in bf.read(path)] == fast
