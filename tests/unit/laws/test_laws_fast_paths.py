"""The Laws' fast paths rule exactly as their general paths do.

Validation takes shortcuts for the common board: a whole, sound deal is read as card
masks straight from its text; a play its reader built from plain cards is not looked at
slot by slot for marks. Each is checked here against the general path, on the real
corpus (PBN and LIN), the conformance files and hand-made edge cases. The auction has
no shortcut: its one replay is checked against the one reckoning of contract and
declarer (``model.outcome``) on hand-made auctions and every auction vector.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path
from typing import Any

import pytest
from auctions import auction
from shared import CONFORMANCE, CORPUS, REAL_LIN, REAL_PBN, vector_params

import bridgefiles as bf
from bridgefiles.laws import claims as claims_module
from bridgefiles.laws import replay_auction
from bridgefiles.laws.claims import settle
from bridgefiles.laws.play import replay_play
from bridgefiles.laws.revokes import Revoke
from bridgefiles.model import (
    PASS,
    Auction,
    AuctionEnd,
    Board,
    EntryKind,
    Seat,
    Suit,
)
from bridgefiles.model.auction import entry_codes
from bridgefiles.model.deal import Deal, whole_deal_masks
from bridgefiles.model.outcome import auction_outcome
from bridgefiles.model.play import card_indices


def _files() -> list[Any]:
    if not CORPUS.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{CORPUS} is absent"))]
    paths = [
        *sorted((REAL_PBN).glob("*.pbn")),
        *sorted((REAL_LIN).glob("*.lin")),
        *sorted((CONFORMANCE).glob("*.pbn")),
    ]
    return [pytest.param(p, id=p.name) for p in paths]


def _boards(path: Path) -> list[Board]:
    return list(bf.read(path))


def _check_auction(auction: Auction, dealer: Seat | None, marked: bool = True) -> None:
    """The replay agrees with the one reckoning of the auction (``auction_outcome``) and,
    for an auction that reckoning finds regular and ended, says nothing and lays out
    every call: each real entry, then the passes ``AP`` stands for."""
    result = replay_auction(auction, dealer, marked=marked)
    outcome = auction_outcome(auction, dealer)
    assert (result.contract, result.declarer) == (outcome.contract, outcome.declarer)
    if (
        outcome.complete
        and not outcome.irregular
        and (outcome.ended_at is None or auction.end is not AuctionEnd.ALL_PASS)
    ):
        assert result.diagnostics == () and result.complete and result.first_illegal is None
        assert result.passed_out == outcome.passed_out
        real = [
            (auction.seat_of(i), e.call)
            for i, e in enumerate(auction.entries)
            if e.kind is EntryKind.CALL
        ]
        assert list(result.calls[: len(real)]) == real
        assert all(call == PASS for _, call in result.calls[len(real) :])


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
def test_the_replay_agrees_with_the_reckoning(
    first: str, calls: str, end: AuctionEnd, dealer: str | None
) -> None:
    seat = Seat.parse(dealer) if dealer else None
    for marked in (True, False):
        _check_auction(auction(first, calls, end), seat, marked)


def _auction_vectors() -> list[Any]:
    return vector_params("auction")


@pytest.mark.parametrize("vector", _auction_vectors())
def test_the_replay_agrees_with_the_reckoning_on_the_vectors(vector: dict[str, Any]) -> None:
    dealer = vector["dealer"]
    calls = " ".join("Pass" if c == "P" else c for c in vector["calls"])
    _check_auction(auction(dealer, calls), Seat.parse(dealer), marked=False)


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
                update={"entries": tuple(list(board.auction.entries))}  # a new tuple
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
        fresh = play.model_copy(update={"slots": tuple(list(play.slots))})
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


def test_claim_without_revokes_is_split_as_every_split_would() -> None:
    """Without a revoke no split of a claim moves a trick, so only the one that gives the
    total outright is tried (``claims.outright_split``); every split, tried one by one,
    must come to the same settlement (and with a revoke, every split is tried)."""
    revoked = (
        (),
        (Revoke(trick=1, player=Seat.W, suit=Suit.S),),
        (Revoke(trick=2, player=Seat.S, suit=Suit.H), Revoke(trick=3, player=Seat.E, suit=Suit.C)),
    )

    def settlements() -> list[Any]:
        out = []
        for played in range(14):
            for won in range(played + 1):
                winners = (Seat.S,) * won + (Seat.W,) * (played - won)
                for total, disputed, claim, revokes in product(
                    range(-1, 15), (False, True), (None, 0, 9), revoked
                ):
                    out.append(
                        settle(
                            winners=winners,
                            revokes=revokes,
                            declarer=Seat.N,
                            complete=played == 13,
                            stopped=True,
                            claim=claim if claim is None else claim + total % 5,
                            result=total,
                            result_disputed=disputed,
                            recorded=played,
                        )
                    )
        return out

    def every_split(won: int, played: int, total: int) -> range:
        return range(13 - played, -1, -1)

    fast = settlements()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(claims_module, "outright_split", every_split)
        slow = settlements()
    assert len(fast) > 10000
    assert fast == slow
