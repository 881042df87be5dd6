"""Every scoring vector of docs/law-vectors.json, one parametrised case each."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from shared import vector_params

from bridgefiles.model.calls import Contract, Risk
from bridgefiles.model.seats import Seat, Vulnerability
from bridgefiles.scoring import board_dealer, board_vulnerability, contract_score, imps
from bridgefiles.scoring.butler import butler, butler_datum, cross_imps
from bridgefiles.scoring.duplicate import undertrick_penalty
from bridgefiles.scoring.matchpoints import (
    Adjusted,
    AdjustedPercentages,
    Units,
    matchpoints,
    neuberg,
    score_board,
    top,
)
from bridgefiles.scoring.vp import victory_points


def _vectors(kind: str) -> list[Any]:
    found = vector_params(kind)
    assert found, f"no {kind} vectors"
    return found


def _contract_of(v: dict[str, Any]) -> str:
    if v.get("level") in (None, 0) or str(v["contract"]).upper() in ("P", "PASS", "AP"):
        return "Pass"
    strain = "NT" if v["strain"] == "N" else v["strain"]
    return f"{v['level']}{strain}{v['doubled']}"


@pytest.mark.parametrize("v", _vectors("score"))
def test_score(v: dict[str, Any]) -> None:
    text = _contract_of(v)
    tricks = v.get("declarer_tricks", 0)
    assert (
        contract_score(text, vulnerable=bool(v.get("vulnerable")), tricks=tricks) == v["expected"]
    )
    # The Contract model is accepted as well as its text.
    assert contract_score(Contract.parse(text), bool(v.get("vulnerable")), tricks) == v["expected"]


@pytest.mark.parametrize("v", _vectors("undertrick_table"))
def test_undertrick_table(v: dict[str, Any]) -> None:
    risks = {"undoubled": Risk.NONE, "doubled": Risk.DOUBLED, "redoubled": Risk.REDOUBLED}
    for key, penalties in v["penalty"].items():
        risk_name, vul_name = key.split("_")
        for down, expected in zip(v["undertricks"], penalties, strict=True):
            got = undertrick_penalty(down, vul_name == "vul", risks[risk_name])
            assert got == expected, (key, down)
            # And through the contract score: 7NT with 7 - down tricks.
            contract = f"7NT{risks[risk_name].value}"
            assert contract_score(contract, vul_name == "vul", 13 - down) == -expected


@pytest.mark.parametrize("v", _vectors("imps"))
def test_imps(v: dict[str, Any]) -> None:
    if "ns_score_room1" in v:
        assert v["ns_score_room1"] - v["ns_score_room2"] == v["diff"]
    assert imps(v["diff"]) == v["expected"]
    assert imps(-v["diff"]) == -v["expected"]


@pytest.mark.parametrize("v", _vectors("matchpoints"))
def test_matchpoints(v: dict[str, Any]) -> None:
    units: Units = "1" if v["scheme"].startswith("1") else "2"
    ns = matchpoints(v["ns_scores"], units)
    assert ns == v["expected_ns"]
    board_top = top(len(v["ns_scores"]), units)
    assert board_top == v["top"]
    if "expected_ew" in v:
        assert [board_top - p for p in ns] == v["expected_ew"]
    board = score_board(v["ns_scores"], units=units)
    assert list(board.ns) == v["expected_ns"]
    if "expected_ns_percent" in v:
        assert list(board.ns_percent) == pytest.approx(v["expected_ns_percent"])


@pytest.mark.parametrize("v", _vectors("neuberg"))
def test_neuberg(v: dict[str, Any]) -> None:
    assert top(v["actual_results"]) == v["top_actual"]
    assert top(v["expected_results"]) == v["top_full"]
    got = neuberg(v["mp_from_actual"], v["actual_results"], v["expected_results"])
    assert got == pytest.approx(v["expected"])
    # In 1-per-beat units the same rescaling gives half the points.
    half = neuberg(v["mp_from_actual"] / 2, v["actual_results"], v["expected_results"], "1")
    assert half == pytest.approx(v["expected"] / 2)


def test_neuberg_board_sum_is_average() -> None:
    """Rescaled results still average 50% of the full top (laws.md 6.2)."""
    board = score_board([420, 420, 450, 170, -50, 100, 620, -100, 140, 110], expected=11)
    assert board.top == 20
    assert sum(board.ns) == pytest.approx(10 * 10)
    assert max(board.ns) == pytest.approx(19.9)


@pytest.mark.parametrize("v", _vectors("artificial_adjusted"))
def test_artificial_adjusted(v: dict[str, Any]) -> None:
    settings = AdjustedPercentages()
    board_top = v["top"]
    names = {"average_plus": "A+", "average": "A=", "average_minus": "A-"}
    for key, mark in names.items():
        assert board_top * settings.percent(mark) / 100 == v["expected"][key]
        assert settings.imps(mark) == v["imps_expected"][key]
    # An Ave+/Ave- pair on a board of 11 results: not compared, the rest Neubergised.
    results: list[float | Adjusted] = [
        *range(0, 1000, 100),
        Adjusted(ns=settings.plus, ew=settings.minus),
    ]
    board = score_board(results, expected=11)
    assert board.top == board_top
    assert board.ns[-1] == v["expected"]["average_plus"]
    assert board.ew[-1] == v["expected"]["average_minus"]
    assert board.ns[9] == pytest.approx(19.9)  # the best real result, Neubergised 10 -> 11


@pytest.mark.parametrize("v", _vectors("cross_imps"))
def test_cross_imps(v: dict[str, Any]) -> None:
    assert cross_imps(v["ns_scores"]) == pytest.approx(v["expected_average_ns"])
    n = len(v["ns_scores"])
    raw = cross_imps(v["ns_scores"], divide="none")
    assert raw == pytest.approx([x * (n - 1) for x in v["expected_average_ns"]])
    assert cross_imps(v["ns_scores"], divide="scores") == pytest.approx([x / n for x in raw])


@pytest.mark.parametrize("v", _vectors("butler"))
def test_butler(v: dict[str, Any]) -> None:
    settings = {"discard": v["discard_each_end"], "round_datum": v["round_datum_to"]}
    assert butler_datum(v["ns_scores"], **settings) == v["expected_datum"]
    if "expected_imps_ns" in v:
        assert butler(v["ns_scores"], **settings) == v["expected_imps_ns"]


@pytest.mark.parametrize("v", _vectors("vp"))
def test_vp(v: dict[str, Any]) -> None:
    winner, loser = victory_points(v["imp_margin"], v["boards"])
    assert winner == pytest.approx(v["expected_winner"], abs=1e-9)
    assert loser == pytest.approx(v["expected_loser"], abs=1e-9)


def test_vp_scale_is_concave() -> None:
    """No extra IMP is worth more than the one before it (the published-table rule)."""
    for boards in (4, 8, 12, 16, 24, 32):
        values = [victory_points(i, boards)[0] for i in range(0, 100)]
        steps = [round(b - a, 2) for a, b in itertools.pairwise(values)]
        assert all(later <= earlier for earlier, later in itertools.pairwise(steps))


@pytest.mark.parametrize("v", _vectors("board"))
def test_board(v: dict[str, Any]) -> None:
    assert board_dealer(v["board"]) is Seat.parse(v["dealer"])
    assert board_vulnerability(v["board"]) is Vulnerability.parse(v["vulnerability"])


# -- settings where organisers differ (laws.md section 8) --------------------------------


@pytest.mark.parametrize(
    ("diff", "lower", "nearest", "upper"),
    [(15, 0, 1, 1), (11, 0, 0, 1), (-15, 0, -1, -1), (45, 1, 2, 2), (4000, 24, 24, 24)],
)
def test_imps_between_table_rows(diff: int, lower: int, nearest: int, upper: int) -> None:
    assert imps(diff) == lower
    assert imps(diff, rounding="nearest") == nearest
    assert imps(diff, rounding="upper") == upper


def test_unknown_imp_scale() -> None:
    with pytest.raises(ValueError, match="IMP_1948"):
        imps(100, scale="IMP_1948")


@pytest.mark.parametrize(
    ("results", "discard"),
    [(2, 0), (3, 0), (4, 1), (10, 1), (11, 2), (25, 2), (26, 3), (40, 3), (41, 4)],
)
def test_butler_auto_discard(results: int, discard: int) -> None:
    from bridgefiles.scoring.butler import discard_count

    assert discard_count(results, "auto") == discard


def test_butler_datum_settings() -> None:
    scores = [-650, -170, -1440, 100, -170, -200]
    assert butler_datum(scores, discard=1, round_datum=0) == -297.5
    assert butler_datum(scores, discard=1, average="median") == -190  # -185 rounded away
    assert butler_datum(scores, discard=1, average="median", half="up") == -180
    assert butler_datum(scores, discard=1, average="median", half="even") == -180
    assert butler_datum([-290, -300], discard=0, half="away") == -300
    assert butler_datum([-290, -300], discard=0, half="up") == -290
    assert butler_datum([100], discard=1) == 100  # never discards every result
