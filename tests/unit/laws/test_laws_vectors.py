"""The auction, insufficient_bid, claim and revoke vectors of law-vectors.json."""

from __future__ import annotations

import re
from typing import Any

import pytest
from shared import vector_params

from bridgefiles.laws import (
    Revoke,
    apply_law64,
    claim_is_possible,
    lowest_sufficient_same_strain,
    replay_auction,
    settle,
    tricks_after_claim,
)
from bridgefiles.model import Auction, AuctionEntry, Call, Seat, Suit
from bridgefiles.model.diagnostic import Severity


def _vectors(kind: str) -> list[Any]:
    return vector_params(kind, lambda i, v: _vector_id(kind, i, v))


def _vector_id(kind: str, i: int, v: dict[str, Any]) -> str:
    if kind == "auction":
        return f"{v['dealer']}:" + "-".join(v["calls"])
    if kind == "insufficient_bid":
        return f"{v['insufficient_bid']}-over-{v['last_bid']}"
    if kind == "revoke":
        return f"{i}-" + "+".join(f"{r['player']}@{r['trick']}" for r in v["revokes"])
    return f"{kind}-{i}"


def auction_of(dealer: str, calls: list[str]) -> Auction:
    return Auction(
        first=Seat.parse(dealer),
        entries=tuple(AuctionEntry(call=Call.parse(c)) for c in calls),
    )


@pytest.mark.parametrize("vector", _vectors("auction"))
def test_auction_vector(vector: dict[str, Any]) -> None:
    expected = vector["expected"]
    dealer = Seat.parse(vector["dealer"])
    result = replay_auction(auction_of(vector["dealer"], vector["calls"]), dealer, marked=False)
    assert result.legal is expected["legal"]
    if expected["legal"]:
        assert not [d for d in result.diagnostics if d.severity is Severity.ERROR]
    else:
        assert result.first_illegal == expected["first_illegal_index"]
        assert any(d.severity is Severity.ERROR for d in result.diagnostics)
    if "complete" in expected:
        assert result.complete is expected["complete"]
        assert result.contract is None
        assert [d.code for d in result.diagnostics] == ["auction-incomplete"]
    if expected.get("passed_out"):
        assert result.passed_out and result.contract is not None
        assert result.contract.text == "Pass" and result.declarer is None
    if expected.get("contract"):
        assert result.contract is not None
        assert result.contract.text == expected["contract"].replace("N", "NT")
        assert result.declarer is Seat.parse(expected["declarer"])
    if "scoring_contract_if_found_after_opening_lead" in expected:
        assert result.contract is not None
        want = expected["scoring_contract_if_found_after_opening_lead"].replace("N", "NT")
        assert result.contract.text == want
        assert result.declarer is Seat.parse(expected["scoring_declarer"])


@pytest.mark.parametrize("vector", _vectors("insufficient_bid"))
def test_insufficient_bid_vector(vector: dict[str, Any]) -> None:
    last, bid = Call.parse(vector["last_bid"]), Call.parse(vector["insufficient_bid"])
    want = vector["expected_lowest_sufficient_same_denomination"]
    got = lowest_sufficient_same_strain(last, bid)
    assert got == (Call.parse(want) if want else None)


@pytest.mark.parametrize("vector", _vectors("claim"))
def test_claim_vector(vector: dict[str, Any]) -> None:
    won, played = vector["declarer_tricks_in_play"], vector["tricks_played"]
    want = vector["expected_declarer_tricks"]
    text = vector["claim"]
    if text.startswith("LIN"):
        total = int(text.split("mc|")[1].split("|")[0])
        assert claim_is_possible(won, played, total)
        winners = tuple([Seat.S] * won + [Seat.W] * (played - won))
        got = settle(
            winners=winners,
            revokes=(),
            declarer=Seat.S,
            complete=False,
            stopped=True,
            claim=total,
        )
        assert got.final == want
    else:
        claimed = 13 - played if "all" in text else int(text.split("claims ")[1].split()[0])
        assert tricks_after_claim(won, played, claimed) == want
    with pytest.raises(ValueError):
        tricks_after_claim(won, played, 14 - played)


@pytest.mark.parametrize("vector", _vectors("revoke"))
def test_revoke_vector(vector: dict[str, Any]) -> None:
    winners = [Seat.parse(ch) for ch in vector["trick_winners"]]
    revokes = [
        Revoke(
            trick=r["trick"],
            player=Seat.parse(r["player"]),
            suit=Suit.parse(r["suit"]),
            dummy=r.get("kind") == "dummy",
            attention_after_round=r.get("attention") == "after_round",
        )
        for r in vector["revokes"]
    ]
    ns = sum(1 for w in winners if w in (Seat.N, Seat.S))
    assert ns == vector["ns_tricks_before_rectification"]
    law = apply_law64(revokes, winners)
    assert law.to_ns == vector["expected_tricks_transferred_to_ns"]
    assert ns + law.to_ns == vector["expected_ns_tricks_after"]
    rules = [r.rule for r in law.rulings]
    for applied in vector["rules_applied"]:
        named = re.findall(r"64[AB]\d|(?<=/)B\d", applied)
        if named:
            options = {n if n.startswith("64") else "64" + n for n in named}
            assert options & set(rules), (applied, rules)
