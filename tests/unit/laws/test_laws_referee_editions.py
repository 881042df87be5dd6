"""The referee, Law by Law, at each seat's turn, accepted and not, in both editions.

The four defects of issue 12 have a test each (``test_defect_*``); the table below
names, for every call out of rotation, the Law each edition applies and the duties
it creates; the tests after it name the Law where the 2007 and 2017 texts differ.
"""

from __future__ import annotations

import pytest
from referee_helpers import c, duties, feed, insufficient_rejected

from bridgefiles.errors import BridgeFileError
from bridgefiles.laws import (
    Duty,
    Edition,
    Irregularity,
    LeadRestriction,
    Option,
    Position,
    Referee,
    Ruling,
)
from bridgefiles.model import PASS, Seat, Side, Strain, Suit

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
BOTH: list[Edition] = ["2017", "2007"]


def laws_of(ref: Referee) -> list[str]:
    return [r.law for r in ref.rulings]


# -- the four defects of issue 12 ---------------------------------------------------------


@pytest.mark.parametrize("laws", BOTH)
def test_defect_a_call_in_rotation_by_28a_ends_the_duty_it_meets(laws: Edition) -> None:
    """1H by North; South passes at East's turn, not accepted (South must pass at his next
    turn); East 1S; West passes at South's turn: in rotation (28A), South's pass is taken
    as made, so South is not barred at his next turn."""
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1H"))
    ruling = ref.call(S, PASS)
    assert ruling is not None and ruling.position is Position.RHO
    ref.choose(Option.REJECT)
    law = "30A" if laws == "2017" else "30B1"
    assert duties(ref) == {(S, Duty.PASS_ONCE, law)}
    feed(ref, (E, "1S"))
    assert ref.call(W, PASS) is None  # at South's turn
    assert ref.calls[-2:] == ((S, PASS), (W, PASS))
    assert ref.obligations == ()
    assert [(o.seat, o.duty) for o in ref.ended_duties] == [(S, Duty.PASS_ONCE)]
    feed(ref, (N, "2H"), (E, "P"))
    assert c("3H") in ref.legal_calls(S)  # no longer barred


@pytest.mark.parametrize("laws", BOTH)
def test_defect_a_call_considered_in_rotation_gets_a_28a_ruling(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1H"))
    ref.call(S, PASS)
    ref.choose(Option.REJECT)
    feed(ref, (E, "1S"))
    ref.call(W, PASS)
    last = ref.rulings[-1]
    assert last.law == "28A" and last.offender is W and last.due is S
    assert last.unauthorized_to is None and not last.pending


@pytest.mark.parametrize("laws", BOTH)
def test_defect_acceptance_is_ruled_under_29a(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    ruling = ref.call(E, c("1S"))
    assert ruling is not None and ruling.law == "31A" and ruling.pending
    feed(ref, (S, "2H"))  # East's LHO calls over it: accepted
    assert laws_of(ref) == ["29A"]
    accepted = ref.rulings[0]
    assert accepted.options == () and accepted.unauthorized_to is None and accepted.duties == ()


@pytest.mark.parametrize("laws", BOTH)
def test_defect_a_call_by_the_player_due_gives_a_28b_ruling_and_no_stale_one(
    laws: Edition,
) -> None:
    ref = Referee(N, laws=laws)
    ref.call(S, c("1S"))  # at North's turn
    assert ref.call(N, c("1C")) is None  # North, whose turn it was, calls first
    assert ref.pending is None and laws_of(ref) == ["28B"]
    ruling = ref.rulings[0]
    assert ruling.offender is S and ruling.unauthorized_to is Side.NS
    assert ruling.see_also == (("16C",) if laws == "2017" else ("16D",))
    assert ref.calls == ((N, c("1C")),) and ref.lead_restrictions == ()


# -- every call out of rotation, at each seat's turn, accepted and not ---------------------

# (kind, position, after a bid?) -> the offender, the auction before, the call
SCENES: dict[str, tuple[Seat, tuple[tuple[Seat, str], ...], str]] = {
    "pass-RHO": (E, (), "P"),
    "pass-partner": (S, (), "P"),
    "pass-LHO-not-called": (W, (), "P"),
    "pass-RHO-after-bid": (S, ((N, "1H"),), "P"),
    "pass-partner-after-bid": (W, ((N, "1H"),), "P"),
    "bid-RHO": (E, (), "1S"),
    "bid-partner": (S, (), "1D"),
    "bid-LHO-not-called": (W, (), "1D"),
    "double-RHO": (W, ((N, "1H"), (E, "P")), "X"),
    "double-partner": (W, ((N, "1H"),), "X"),
}

P1, PT, SUB, REP = Duty.PASS_ONCE, Duty.PASS_THROUGHOUT, Duty.SUBSTITUTE, Duty.REPEAT_IF_RHO_PASSES
FREE = Duty.CALL_FREELY
# scene -> edition -> (the Law, {(whose duty: "offender"/"partner", Duty, Law)})
EXPECTED: dict[str, dict[str, tuple[str, set[tuple[str, Duty, str]]]]] = {
    "pass-RHO": {"2017": ("30A", {("o", P1, "30A")}), "2007": ("30A", {("o", P1, "30A")})},
    "pass-partner": {
        "2017": ("30B1", {("o", SUB, "30B1")}),
        "2007": ("30A", {("o", P1, "30A")}),  # 2007 30A: before any bid, whoever was due
    },
    "pass-LHO-not-called": {
        "2017": ("30B1", {("o", SUB, "30B1")}),
        "2007": ("30A", {("o", P1, "30A")}),
    },
    "pass-RHO-after-bid": {
        "2017": ("30A", {("o", P1, "30A")}),
        "2007": ("30B1", {("o", P1, "30B1")}),
    },
    "pass-partner-after-bid": {
        "2017": ("30B1", {("o", SUB, "30B1")}),
        "2007": ("30B2", {("o", PT, "30B2(a)"), ("p", Duty.NO_DOUBLE_ONCE, "30B2(b)")}),
    },
    "bid-RHO": {"2017": ("31A", {("o", REP, "31A")}), "2007": ("31A", {("o", REP, "31A")})},
    "bid-partner": {
        "2017": ("31B", {("o", SUB, "31B")}),
        "2007": ("31B", {("o", FREE, "31B"), ("p", PT, "31B")}),
    },
    "bid-LHO-not-called": {
        "2017": ("31B", {("o", SUB, "31B")}),
        "2007": ("31B", {("o", FREE, "31B"), ("p", PT, "31B")}),
    },
    # Law 32 swaps its letters between the editions
    "double-RHO": {"2017": ("32A", {("o", REP, "32A")}), "2007": ("32B", {("o", REP, "32B")})},
    "double-partner": {
        "2017": ("32B", {("o", SUB, "32B")}),
        "2007": ("32A", {("o", FREE, "32A"), ("p", PT, "32A")}),
    },
}
POSITIONS = {"RHO": Position.RHO, "partner": Position.PARTNER, "LHO": Position.LHO}


def _scene(name: str, laws: Edition) -> tuple[Referee, Seat, Ruling]:
    offender, before, call = SCENES[name]
    ref = Referee(N, laws=laws)
    feed(ref, *before)
    ruling = ref.call(offender, c(call))
    assert ruling is not None and ruling.irregularity is Irregularity.OUT_OF_ROTATION
    assert ruling.position is POSITIONS[name.split("-")[1]]
    return ref, offender, ruling


@pytest.mark.parametrize("laws", BOTH)
@pytest.mark.parametrize("name", sorted(SCENES))
def test_call_out_of_rotation_not_accepted(name: str, laws: Edition) -> None:
    ref, offender, ruling = _scene(name, laws)
    law, expected = EXPECTED[name][laws]
    assert ruling.law == law and ruling.options == (Option.ACCEPT, Option.REJECT)
    ref.choose(Option.REJECT)
    decided = ref.rulings[-1]
    assert decided.law == law and not decided.pending and ref.pending is None
    assert decided.see_also[0] == "29B"
    assert decided.unauthorized_to is offender.side  # 16C (2017) / 16D (2007)
    assert ("16C" if laws == "2017" else "16D") in decided.see_also
    who = {"o": offender, "p": offender.partner}
    assert duties(ref) == {(who[w], d, lw) for w, d, lw in expected}
    assert {(o.seat, o.duty, o.law) for o in decided.duties} == duties(ref)
    assert ref.turn is ruling.due  # the auction reverts to the player due


@pytest.mark.parametrize("laws", BOTH)
@pytest.mark.parametrize("name", sorted(SCENES))
def test_call_out_of_rotation_accepted(name: str, laws: Edition) -> None:
    ref, offender, ruling = _scene(name, laws)
    ref.choose(Option.ACCEPT)
    assert laws_of(ref)[-1] == "29A" and ref.obligations == ()
    assert ref.calls[-1] == (offender, ruling.call) and ref.turn is offender.lho


@pytest.mark.parametrize("laws", BOTH)
@pytest.mark.parametrize("call", ["P", "1S", "X"])
def test_call_at_lho_turn_after_calling_is_a_change_of_call(laws: Edition, call: str) -> None:
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1H"), (E, "2D" if call == "1S" else "1S"))
    ruling = ref.call(E, c(call))  # East again, at South's turn
    assert ruling is not None and ruling.irregularity is Irregularity.CHANGE_OF_CALL
    assert ruling.law == "25B" and ruling.position is Position.LHO


# -- where the editions differ, by Law -----------------------------------------------------


def _bid_at_rho_then_rho_bids(laws: Edition) -> Referee:
    ref = Referee(N, laws=laws)
    ref.call(E, c("1S"))  # at North's turn
    ref.choose(Option.REJECT)
    feed(ref, (N, "1H"))  # RHO acts: 31A2
    duty = Duty.SUBSTITUTE if laws == "2017" else Duty.DENOMINATION  # 2007: no comparable calls
    assert duties(ref) == {(E, duty, "31A2")}
    return ref


@pytest.mark.parametrize(
    ("laws", "call", "law", "duty"),
    [
        ("2017", "2S", "31A2(b)", Duty.PASS_ONCE),  # not comparable: partner once
        ("2017", "2C", "31A2(b)", Duty.PASS_ONCE),
        ("2007", "2S", "31A2(a)", Duty.PASS_ONCE),  # the denomination repeated: once
        ("2007", "2C", "31A2(b)", Duty.PASS_THROUGHOUT),  # another: throughout
    ],
)
def test_law_31a2_differs(laws: Edition, call: str, law: str, duty: Duty) -> None:
    ref = _bid_at_rho_then_rho_bids(laws)
    feed(ref, (E, call))
    assert ref.rulings[-1].law == law
    assert {(o.seat, o.duty) for o in ref.obligations} == {(W, duty)}
    restricted = law.endswith("(b)")
    assert bool(ref.lead_restrictions) is restricted


def test_law_31a2_comparable_call_2017() -> None:
    ref = _bid_at_rho_then_rho_bids("2017")
    assert ref.call(E, c("2S"), comparable=True) is None
    last = ref.rulings[-1]
    assert last.law == "31A2(a)" and last.unauthorized_to is None and last.see_also == ("23C",)
    assert ref.obligations == () and ref.lead_restrictions == ()


@pytest.mark.parametrize("laws", BOTH)
def test_law_31a1_repeat_when_rho_passes(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    ref.call(E, c("1S"))
    ref.choose(Option.REJECT)
    feed(ref, (N, "P"))
    assert ref.rulings[-1].law == "31A1" and ref.rulings[-1].unauthorized_to is None
    assert ref.legal_calls(E) == (c("1S"),)
    feed(ref, (E, "1S"))
    assert ref.obligations == () and ref.lead_restrictions == ()


@pytest.mark.parametrize(
    ("laws", "law", "partner_duty"),
    [("2017", "32A2", None), ("2007", "32B2", Duty.PASS_THROUGHOUT)],
)
def test_law_32_rho_acted_differs(laws: Edition, law: str, partner_duty: Duty | None) -> None:
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1H"), (E, "P"))
    ref.call(W, c("X"))  # at South's turn
    ref.choose(Option.REJECT)
    feed(ref, (S, "2H"))  # RHO acts
    assert ref.rulings[-1].law == law
    east = {o.duty for o in ref.obligations_of(E)}
    assert east == ({partner_duty} if partner_duty else set())


@pytest.mark.parametrize("laws", BOTH)
def test_law_31b_partner_barred_in_2007_free_in_2017(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    ref.call(S, c("1D"))  # at North's (partner's) turn
    ref.choose(Option.REJECT)
    if laws == "2017":
        feed(ref, (N, "1H"), (E, "P"))  # 31B1: partner calls freely
        feed(ref, (S, "2C"))  # not comparable: partner passes once
        assert duties(ref) == {(N, Duty.PASS_ONCE, "31B2")}
    else:
        assert ref.legal_calls(N) == (PASS,)
        feed(ref, (N, "P"), (E, "P"), (S, "2C"))
        assert duties(ref) == {(N, Duty.PASS_THROUGHOUT, "31B")}
        assert ref.lead_restrictions == (LeadRestriction(S, "26A", Suit.D),)


def test_law_30b2_2007_partner_may_not_double() -> None:
    ref = Referee(N, laws="2007")
    feed(ref, (N, "1H"))
    ref.call(W, PASS)  # at East's (partner's) turn, after a bid
    ref.choose(Option.REJECT)
    assert c("X") not in ref.legal_calls(E) and c("2C") in ref.legal_calls(E)
    with pytest.raises(ValueError, match="30B2"):
        ref.call(E, c("X"))
    feed(ref, (E, "2C"), (S, "P"))
    assert ref.legal_calls(W) == (PASS,)


@pytest.mark.parametrize(
    ("laws", "see_also"),
    [("2017", ("16C", "26B", "72C")), ("2007", ("16D", "23", "26"))],
)
def test_law_27b2_same_duty_other_references(laws: Edition, see_also: tuple[str, ...]) -> None:
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1S"))
    ref.call(E, c("1H"))
    ref.choose(Option.REJECT)
    feed(ref, (E, "3H"))
    last = ref.rulings[-1]
    assert last.law == "27B2" and last.see_also == see_also and last.unauthorized_to is Side.EW
    assert duties(ref) == {(W, Duty.PASS_THROUGHOUT, "27B2")}


@pytest.mark.parametrize("laws", BOTH)
def test_law_27_acceptance_and_b1(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1S"))
    assert ref.call(E, c("1H")) is not None
    feed(ref, (S, "P"))
    assert laws_of(ref) == ["27A1"]
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1S"))
    ref.call(E, c("1H"))
    ref.choose(Option.REJECT)
    feed(ref, (E, "2H"))
    assert laws_of(ref) == ["27B", "27B1(a)"] and ref.rulings[-1].see_also == ("27D",)


# -- artificial calls (29C, 30C) ------------------------------------------------------------


@pytest.mark.parametrize("laws", BOTH)
def test_law_30c_artificial_pass_is_ruled_as_a_bid(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    ruling = ref.call(E, PASS, artificial=True)  # a strong pass, at North's turn
    assert ruling is not None and ruling.law == "30C" and ruling.artificial
    ref.choose(Option.REJECT)
    assert ref.rulings[-1].law == "30C" and "31A" in ref.rulings[-1].see_also
    assert duties(ref) == {(E, Duty.REPEAT_IF_RHO_PASSES, "31A")}
    feed(ref, (N, "P"))
    assert ref.rulings[-1].law == "31A1" and ref.legal_calls(E) == (PASS,)


@pytest.mark.parametrize("laws", BOTH)
def test_law_30c_pass_of_partner_artificial_call(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    assert ref.call(N, c("1C"), artificial=True, shows=()) is None  # a strong club
    ruling = ref.call(S, PASS)  # South passes partner's artificial 1C at East's turn
    assert ruling is not None and ruling.law == "30C"


def test_law_29c_2007_denomination_shown_not_named() -> None:
    ref = Referee(N, laws="2007")
    feed(ref, (N, "1NT"))
    ref.call(W, c("2D"), artificial=True, shows=[Strain.H])  # at East's turn... partner
    ref.choose(Option.REJECT)
    feed(ref, (E, "P"), (S, "P"))
    assert duties(ref) >= {(E, Duty.PASS_THROUGHOUT, "31B")}
    feed(ref, (W, "2H"))  # hearts, the suit shown: the same final meaning, no lead penalty
    restriction = ref.lead_restrictions
    assert restriction == (LeadRestriction(W, "26A", Suit.H),)
    feed(ref, (N, "P"), (E, "P"), (S, "P"))
    assert ref.ended and ref.opening_lead_restriction() is None  # West specified hearts


def test_law_29c_2017_artificial_call_specifies_what_it_shows() -> None:
    ref = Referee(N)
    ref.call(S, c("2C"), artificial=True, shows=[Strain.S])  # at North's turn
    ref.choose(Option.REJECT)
    feed(ref, (N, "1H"), (E, "P"))
    assert ref.call(S, c("2C"), artificial=True, shows=[Strain.S]) is None  # not comparable
    feed(ref, (W, "P"), (N, "P"), (E, "3C"), (S, "P"), (W, "P"), (N, "P"))
    assert ref.declarer is E
    found = ref.opening_lead_restriction()
    assert found is not None
    restriction, suits = found
    assert restriction.leader is N and suits == {Suit.C, Suit.D, Suit.H}  # not spades


# -- Laws 25, 36, 37, 39 -------------------------------------------------------------------


@pytest.mark.parametrize("laws", BOTH)
def test_law_25a_unintended_call_replaced(laws: Edition) -> None:
    ref = Referee(N, laws=laws)
    feed(ref, (N, "1H"))
    ruling = ref.call(N, c("1S"), unintended=True)  # a slip: 1S meant
    assert ruling is not None and ruling.law == "25A" and not ruling.pending
    assert ref.calls == ((N, c("1S")),) and ref.turn is E


@pytest.mark.parametrize(("option", "stands"), [(Option.ACCEPT, "1S"), (Option.REJECT, "1H")])
def test_law_25b_intended_change(option: Option, stands: str) -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"))
    ref.call(N, c("1S"))
    ref.choose(option)
    assert ref.calls == ((N, c(stands)),) and laws_of(ref) == ["25B"]
    assert ref.rulings[0].unauthorized_to is Side.NS


def test_law_36_in_rotation_out_of_rotation_and_lho_first() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "P"))
    ref.call(S, c("X"))
    ref.choose(Option.REJECT)
    assert laws_of(ref) == ["36B"] and duties(ref) == {(N, Duty.PASS_THROUGHOUT, "36B")}
    ref = Referee(N)
    feed(ref, (N, "1H"))
    ruling = ref.call(S, c("XX"))  # at East's turn, and inadmissible
    assert ruling is not None and ruling.law == "36C" and ruling.options == (Option.REJECT,)
    ref.choose(Option.REJECT)
    assert duties(ref) == {(N, Duty.PASS_THROUGHOUT, "36C")} and ref.turn is E
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "P"))
    ref.call(S, c("X"))
    feed(ref, (W, "1S"))
    assert laws_of(ref) == ["36A"] and ref.turn is S


def test_law_37_barred_player_calls() -> None:
    ref = insufficient_rejected("1S", "1H")
    feed(ref, (E, "P"), (S, "2S"))
    ruling = ref.call(W, c("3H"))
    assert ruling is not None and ruling.law == "37A"
    feed(ref, (N, "P"))  # LHO calls before rectification: 37B, the call stands
    assert laws_of(ref)[-1] == "37B" and ref.calls[-2] == (W, c("3H"))


def test_law_39_call_after_the_auction() -> None:
    ref = Referee(N)
    feed(ref, (N, "1S"), (E, "P"), (S, "P"), (W, "P"))
    ruling = ref.call(E, c("2H"))
    assert ruling is not None and ruling.law == "39" and ruling.unauthorized_to is Side.EW


def test_duties_say_when_they_end() -> None:
    ref = Referee(N)
    ref.call(E, PASS)
    ref.choose(Option.REJECT)
    (duty,) = ref.obligations
    assert duty.ends == "at the player's next turn to call"
    assert Duty.PASS_THROUGHOUT.ends == "when the auction ends"


def test_the_edition_must_be_one_of_the_two() -> None:
    with pytest.raises(BridgeFileError):
        Referee(N, laws="1997")  # type: ignore[arg-type]
