"""The LIN reader's shortcuts give what the general paths give.

The reader hands the Laws what it knows of a board as it builds it: the codes of an
auction of plain calls (``model.auction.built_plain_calls``) and the card indices of a
play of whole tricks of plain cards (``model.play.built_plain``); it places each trick
in its seat columns with Law 44's table. Each is checked here against the general path
(the codes and indices worked out afresh from the entries and slots, the tricks placed
card by card with ``model.outcome.trick_winner``) on every real LIN file, the LIN
fixtures and hand-made edge cases (a short last trick, claims, movies, unknown calls,
cards without a contract, a trump contract).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import bridgefiles as bf
from bridgefiles.model import Board, Seat
from bridgefiles.model.auction import entry_codes
from bridgefiles.model.cards import Card, Strain
from bridgefiles.model.outcome import trick_winner
from bridgefiles.model.play import Slot, card_indices

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
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
    paths = sorted((ROOT / "fixtures").glob("lin-*.lin"))
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
