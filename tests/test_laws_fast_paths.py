"""The Laws' fast paths rule exactly as their general paths do.

Validation takes shortcuts for the common board: an auction that ``Board.outcome``
finds regular and ended is laid out without the call-by-call replay; a whole, sound
deal is read as card masks straight from its text; a play its reader built from plain
cards is not looked at slot by slot for marks. Each shortcut is checked here against
the general path, on the real corpus (PBN and LIN), the conformance files, hand-made
edge cases and every auction vector of law-vectors.json.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import bridgefiles as bf
from bridgefiles.laws import replay_auction
from bridgefiles.laws.play import replay_play
from bridgefiles.model import Auction, AuctionEnd, AuctionEntry, Board, Call, EntryKind, Seat
from bridgefiles.model.auction import entry_codes
from bridgefiles.model.deal import Deal, whole_deal_masks
from bridgefiles.model.outcome import auction_outcome
from bridgefiles.model.play import card_indices

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
VECTORS = SHARED / "docs" / "law-vectors.json"
CORPUS = SHARED / "corpus"


def _files() -> list[Any]:
    if not CORPUS.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{CORPUS} is absent"))]
    paths = [
        *sorted((CORPUS / "real" / "pbn").glob("*.pbn")),
        *sorted((CORPUS / "real" / "lin").glob("*.lin")),
        *sorted((CORPUS / "conformance").glob("*.pbn")),
    ]
    return [pytest.param(p, id=p.name) for p in paths]


def _boards(path: Path) -> list[Board]:
    return list(bf.read(path))


def _full_replay(auction: Auction, dealer: Seat | None, marked: bool = True) -> Any:
    """The call-by-call replay: an outcome said irregular never takes the shortcut (the
    replay uses only its contract and declarer, the same either way)."""
    outcome = auction_outcome(auction, dealer)._replace(irregular=True)
    return replay_auction(auction, dealer, marked=marked, outcome=outcome)


def _check_auction(auction: Auction, dealer: Seat | None, marked: bool = True) -> None:
    fast = replay_auction(auction, dealer, marked=marked)
    assert fast == _full_replay(auction, dealer, marked)


def _auction(first: str, calls: str, end: AuctionEnd = AuctionEnd.OPEN) -> Auction:
    entries = []
    for text in calls.split():
        if text == "-":
            entries.append(AuctionEntry(kind=EntryKind.NONE))
        elif text == "?":
            entries.append(AuctionEntry(kind=EntryKind.CALL, call=None))
        elif text == "^S":
            entries.append(AuctionEntry(kind=EntryKind.SKIP))
        elif text.startswith("^I"):
            entries.append(AuctionEntry(call=Call.parse(text[2:]), insufficient=True))
        else:  # validated: a call that is not the interned one
            entries.append(AuctionEntry.model_validate({"call": text}))
    return Auction(first=Seat.parse(first), entries=tuple(entries), end=end)


@pytest.mark.parametrize(
    ("first", "calls", "end"),
    [
        ("N", "1H Pass 2H Pass 4H X XX Pass Pass Pass", AuctionEnd.OPEN),
        ("E", "Pass Pass Pass Pass", AuctionEnd.OPEN),
        ("S", "", AuctionEnd.ALL_PASS),
        ("W", "1C", AuctionEnd.ALL_PASS),
        ("W", "1C Pass", AuctionEnd.ALL_PASS),
        ("N", "Pass Pass", AuctionEnd.ALL_PASS),
        ("N", "1S Pass Pass Pass", AuctionEnd.ALL_PASS),  # AP after the end: a finding
        ("N", "1S Pass Pass Pass", AuctionEnd.STOPPED),
        ("N", "- - 1S Pass Pass Pass", AuctionEnd.OPEN),  # '-' before the dealer's call
        ("N", "1S X Pass", AuctionEnd.ALL_PASS),
        ("N", "1S Pass 1H Pass Pass Pass", AuctionEnd.OPEN),  # insufficient
        ("N", "1S Pass Pass X Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S Pass ^I1H Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S Pass ^I2H Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S ^S 2H Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S Pass ? Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S - Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S X XX Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S X Pass Pass XX Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S Pass Pass XX Pass Pass Pass", AuctionEnd.OPEN),
        ("N", "1S Pass Pass Pass 2H", AuctionEnd.OPEN),
    ],
)
@pytest.mark.parametrize("dealer", [None, "N", "E"])
def test_regular_auction_shortcut(
    first: str, calls: str, end: AuctionEnd, dealer: str | None
) -> None:
    seat = Seat.parse(dealer) if dealer else None
    for marked in (True, False):
        _check_auction(_auction(first, calls, end), seat, marked)


def _auction_vectors() -> list[Any]:
    if not VECTORS.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{VECTORS} is absent"))]
    data = json.loads(VECTORS.read_text(encoding="utf-8"))
    return [pytest.param(v, id=str(i)) for i, v in enumerate(data) if v.get("kind") == "auction"]


@pytest.mark.parametrize("vector", _auction_vectors())
def test_regular_auction_shortcut_on_the_vectors(vector: dict[str, Any]) -> None:
    dealer = vector["dealer"]
    calls = " ".join("Pass" if c == "P" else c for c in vector["calls"])
    _check_auction(_auction(dealer, calls), Seat.parse(dealer), marked=False)


DEAL = "N:K32.A7.8653.KQT2 AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865"


@pytest.mark.parametrize(
    "text",
    [
        DEAL,
        "e:" + DEAL[2:].lower(),
        "W:" + DEAL[2:].replace("T", "10"),
        "  " + DEAL + " ",
        DEAL.replace(" ", "   "),
        DEAL.replace("K32.", "K3.", 1),  # 12 cards
        DEAL.replace("K32.", "K33.", 1),  # a card twice in a hand
        DEAL.replace("K32.", "KQ2.", 1),  # a card in two hands
        DEAL.replace("T4.KT8.AQ92.J865", "-"),
        DEAL + " K32.A7.8653.KQT2",
        DEAL.replace("K32.", "K3X.", 1),
        DEAL.replace("K32.", "K32", 1),
        "X:" + DEAL[2:],
        "N " + DEAL[2:],
        "N:",
        "?",
    ],
)
def test_whole_deal_masks_say_what_the_deal_says(text: str) -> None:
    _check_masks(text)


def _check_masks(text: str) -> None:
    masks = whole_deal_masks(text)
    try:
        deal: Deal | None = Deal.parse(text)
    except ValueError:
        deal = None
    if deal is None or deal.problems() or not deal.is_complete:
        assert masks is None
        return
    assert masks is not None
    for seat, mask in zip((Seat.N, Seat.E, Seat.S, Seat.W), masks, strict=True):
        hand = deal.hands[seat]
        assert hand is not None
        assert mask == sum(1 << c.index for c in hand.cards)


@pytest.mark.parametrize("path", _files())
def test_fast_paths_on_the_corpus(path: Path) -> None:
    for board in _boards(path):
        if board.auction is not None:
            for marked in (True, False):
                _check_auction(board.auction, board.dealer, marked)
            # the codes its reader gave, against the codes worked out from the entries
            fresh_auction = board.auction.model_copy(
                update={"entries": tuple(board.auction.entries)}
            )
            assert entry_codes(fresh_auction) == entry_codes(board.auction)
            assert auction_outcome(fresh_auction, board.dealer) == board.outcome
        text = board.tag("Deal")
        if text:
            _check_masks(text)
        play = board.play
        if play is None or not play.slots:
            continue
        # a copy with the same slots in a new tuple: nothing vouched for, looked at afresh
        fresh = play.model_copy(update={"slots": tuple(play.slots)})
        assert card_indices(fresh) == card_indices(play)
        deal = board.deal
        masks = whole_deal_masks(text) if text else None
        contract = board.contract or (board.outcome.contract if board.outcome else None)
        if masks is None or contract is None or contract.passed_out:
            continue
        for declarer in (Seat.N, Seat.W):
            by_deal = replay_play(fresh, deal, contract.strain, declarer)
            by_masks = replay_play(play, None, contract.strain, declarer, masks=masks)
            assert by_masks == by_deal, board.label
