"""The one reckoning of an auction's outcome and of trick winners (bridgefiles.model.outcome).

Checked on hand-made auctions, on every auction vector of law-vectors.json (the outcome
agrees with the Laws' replay and with the vector), and on the real PBN corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from auctions import auction
from shared import REAL, REAL_PBN, vector_params

import bridgefiles as bf
from bridgefiles.laws import replay_auction
from bridgefiles.model import (
    AuctionEnd,
    Board,
    Card,
    Contract,
    Seat,
    Strain,
    TagPair,
    auction_outcome,
    trick_winner,
)


def test_a_plain_auction() -> None:
    out = auction_outcome(auction("N", "1H Pass 2H Pass 4H X Pass Pass Pass"), Seat.N)
    assert out.contract is not None and out.contract.text == "4HX"
    assert out.declarer is Seat.N
    assert out.complete and not out.passed_out and not out.irregular
    assert out.ended_at == 9


def test_declarer_is_the_first_of_the_side_to_name_the_strain() -> None:
    out = auction_outcome(auction("E", "1S Pass 2H Pass 3H Pass 4H Pass Pass Pass"), Seat.E)
    assert out.contract is not None and out.contract.text == "4H"
    assert out.declarer is Seat.W


def test_law_36_cancels_an_inadmissible_double() -> None:
    # South doubles partner North's 1H (Law 19A1).
    out = auction_outcome(auction("N", "1H Pass X Pass Pass Pass"), Seat.N)
    assert out.contract is not None and out.contract.text == "1H"
    assert out.irregular
    out = auction_outcome(auction("N", "1H X XX XX Pass Pass Pass"), Seat.N)
    assert out.contract is not None and out.contract.text == "1HXX"  # the second XX cancelled
    assert out.irregular


def test_passed_out_unfinished_and_all_pass() -> None:
    out = auction_outcome(auction("S", "Pass Pass Pass Pass"), Seat.S)
    assert out.passed_out and out.complete and out.contract is not None
    assert out.contract.text == "Pass" and out.declarer is None
    out = auction_outcome(auction("S", "1C Pass"), Seat.S)
    assert not out.complete and out.contract is None and out.declarer is None
    out = auction_outcome(auction("S", "1C", AuctionEnd.ALL_PASS), Seat.S)
    assert out.complete and out.contract is not None and out.contract.text == "1C"
    assert out.declarer is Seat.S and out.ended_at is None
    out = auction_outcome(auction("S", "", AuctionEnd.ALL_PASS), Seat.S)
    assert out.passed_out


def test_irregularities_are_flagged_not_repaired() -> None:
    out = auction_outcome(auction("N", "- 1D Pass Pass Pass"), Seat.N)  # East opens for North
    assert out.irregular and out.contract is not None and out.declarer is Seat.E
    out = auction_outcome(auction("N", "- 1D Pass Pass Pass"), None)
    assert not out.irregular
    out = auction_outcome(auction("N", "1S 1H Pass Pass Pass"), Seat.N)  # insufficient
    assert out.irregular and out.contract is not None and out.contract.text == "1H"
    out = auction_outcome(auction("N", "1S Pass Pass Pass 2C"), Seat.N)  # after the end
    assert out.irregular and out.contract is not None and out.contract.text == "1S"
    out = auction_outcome(auction("N", "1S ? Pass Pass Pass"), Seat.N)  # an unknown call
    assert out.irregular and out.contract is None and not out.complete


def test_board_outcome_for_a_board_built_from_scratch() -> None:
    board = Board(
        tags=(TagPair(name="Dealer", value="W"),),
        auction=auction("W", "1NT Pass 3NT Pass Pass Pass"),
    )
    assert board.outcome is not None and board.outcome.contract is not None
    assert board.outcome.contract.text == "3NT" and board.outcome.declarer is Seat.W
    assert Board().outcome is None
    changed = board.replace(auction=auction("W", "Pass Pass Pass Pass"))
    assert changed.outcome is not None and changed.outcome.passed_out


def test_trick_winner() -> None:
    cards = [Card.parse(c) for c in ("H2", "HA", "C3", "HK")]
    assert trick_winner(Seat.W, cards, Strain.H) is Seat.N
    assert trick_winner(Seat.W, cards, Strain.C) is Seat.E
    assert trick_winner(Seat.W, cards, Strain.NT) is Seat.N
    assert trick_winner(Seat.S, cards, None) is Seat.W


def _auction_vectors() -> list[Any]:
    return vector_params("auction", lambda i, v: f"{i}-{v['dealer']}:" + "-".join(v["calls"]))


@pytest.mark.parametrize("vector", _auction_vectors())
def test_outcome_agrees_with_the_laws_and_the_vectors(vector: dict[str, Any]) -> None:
    dealer = Seat.parse(vector["dealer"])
    a = auction(vector["dealer"], " ".join(vector["calls"]))
    out = auction_outcome(a, dealer)
    laws = replay_auction(a, dealer, marked=False)
    assert (out.contract, out.declarer, out.complete, out.passed_out) == (
        laws.contract,
        laws.declarer,
        laws.complete,
        laws.passed_out,
    )
    assert out.irregular or laws.legal  # an accepted irregularity is legal, still irregular
    expected = vector["expected"]
    if expected.get("contract"):
        assert out.contract == Contract.parse(expected["contract"])
    if expected.get("declarer"):
        assert out.declarer is Seat.parse(expected["declarer"])


def _pbn_files() -> list[Any]:
    if not REAL.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{REAL} is absent"))]
    return [pytest.param(p, id=p.name) for p in sorted((REAL_PBN).glob("*.pbn"))]


@pytest.mark.parametrize("path", _pbn_files())
def test_outcome_agrees_with_the_laws_on_the_corpus(path: Path) -> None:
    """Every real game's auction comes to the same contract and declarer in the model's
    outcome and in the Laws' replay (which rules on it from the same reckoning)."""
    for board in bf.load(path).boards:
        out = board.outcome
        if board.auction is None:
            assert out is None
            continue
        assert out is not None
        laws = replay_auction(board.auction, board.dealer)
        assert (out.contract, out.declarer, out.complete) == (
            laws.contract,
            laws.declarer,
            laws.complete,
        ), board.label
        assert out.irregular or laws.legal, board.label
