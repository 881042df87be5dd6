"""The analysis values and their tag forms, without the solver."""

from __future__ import annotations

import doctest

import pytest
from pydantic import ValidationError

from bridgefiles.analysis import models
from bridgefiles.analysis.models import (
    DDTable,
    Par,
    ParContract,
    parse_hex,
    parse_optimum_score,
)
from bridgefiles.model.cards import Strain
from bridgefiles.model.seats import Seat, Side


def test_doctests() -> None:
    result = doctest.testmod(models)
    assert result.attempted > 0 and result.failed == 0


def test_hex_order_is_n_s_e_w_by_nt_s_h_d_c() -> None:
    # pbn.md's example: N NT 4, S 3, H 3, D 6, C 7; S the same; E NT 8, S 10, H 9, D 6, C 6
    table = DDTable.from_hex("43367433678a9668a966")
    assert table.tricks_for(Seat.N, Strain.NT) == 4
    assert table.tricks_for(Seat.N, Strain.C) == 7
    assert table.tricks_for(Seat.E, Strain.S) == 10
    assert table.tricks_for(Seat.W, Strain.H) == 9
    assert table.hex == "43367433678a9668a966"
    assert table.rows()[5] == (Seat.S, Strain.NT, 4)
    assert table.makeable(Seat.E, Strain.S) == 4
    assert table.makeable(Seat.N, Strain.NT) is None


def test_hex_unknowns_and_errors() -> None:
    assert parse_hex("-" * 19 + "D")[-1] == 13
    assert parse_hex("*" * 20) == [None] * 20
    for bad in ("123", "e" * 20, "g" * 20):
        with pytest.raises(ValueError):
            parse_hex(bad)
    with pytest.raises(ValueError):
        DDTable.from_hex("-" * 20)
    with pytest.raises(ValidationError):
        DDTable(tricks=(14,) * 20)
    with pytest.raises(ValidationError):
        DDTable(tricks=(1,) * 19)


@pytest.mark.parametrize(
    "text",
    ["NS 4SX-3", "EW 3N+1", "S 1N=", "N 3H=", "NS 7DX-5", "EW 5C=; EW 5D=",
     "NS 2H+1; NS 2S+1", "EW 4HX-1"],
)
def test_par_contract_forms_round_trip(text: str) -> None:
    assert "; ".join(c.text for c in ParContract.parse(text)) == text


def test_par_contract_values() -> None:
    sacrifice = ParContract.parse("NS 4SX-3")[0]
    assert (sacrifice.side, sacrifice.level, sacrifice.strain) == (Side.NS, 4, Strain.S)
    assert sacrifice.doubled and sacrifice.result == -3 and sacrifice.tricks == 7
    assert sacrifice.score(vulnerable=False) == -500
    assert sacrifice.score(vulnerable=True) == -800
    seat = ParContract.parse("S 1N=")[0]
    assert seat.declarer == "S" and seat.side is Side.NS and seat.strain is Strain.NT
    assert ParContract.parse("Pass") == () == ParContract.parse("NS Pass")
    assert ParContract.parse("EW 5C=, EW 5D=") == ParContract.parse("EW 5C=; EW 5D=")
    for bad in ("", "NS 8S=", "XY 4S=", "NS 4SXX-1", "4S"):
        with pytest.raises(ValueError):
            ParContract.parse(bad)


@pytest.mark.parametrize(
    ("text", "ns"),
    [("NS 420", 420), ("NS +90", 90), ("EW 430", -430), ("EW -100", 100),
     ("NS 420 EW -420", 420), ("EW -420 NS 420", 420), ("ns -50", -50)],
)
def test_optimum_score_forms(text: str, ns: int) -> None:
    assert parse_optimum_score(text) == ns


@pytest.mark.parametrize("text", ["420", "NS 420 EW 420", "NS 1 NS 1", "EW 4S; -620", ""])
def test_optimum_score_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_optimum_score(text)


def test_par_is_written_from_the_declaring_side_view() -> None:
    # BridgeComposer's convention (CommonGame, SPR files): the side of the par contract.
    assert Par(score=-430, contracts=ParContract.parse("EW 3N+1")).optimum_score == "EW 430"
    assert Par(score=-100, contracts=ParContract.parse("NS 4SX-1")).optimum_score == "NS -100"
    assert Par(score=100, contracts=ParContract.parse("EW 4HX-1")).optimum_score == "EW -100"
    passed = Par(score=0)
    assert (passed.optimum_score, passed.par_contract) == ("NS 0", "Pass")
