"""Every case of laws.md's "Paragraph letters to cite" (Laws 30-32), in both editions: the
paragraph each ruling cites, the duties it leaves, the lead restrictions and the see-also
list, step by step; and the words of the 2007 rulings, which know no comparable calls.

A scene is a script for a referee with North the dealer: ``"E:1S"`` East calls 1S,
``"E:P*"`` an artificial pass, ``"E:2C="`` a call the Director rules comparable (Law
23A), ``"reject"`` the call out of rotation (or change of call) is not accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from referee_helpers import c, duties

from bridgefiles.laws import Duty, Edition, LeadRestriction, Option, Referee
from bridgefiles.model import Seat, Suit

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
P1, PT, REP, REPEAT = Duty.PASS_ONCE, Duty.PASS_THROUGHOUT, Duty.REPEAT_IF_RHO_PASSES, Duty.REPEAT
SUB, DEN, FREE, NOX = Duty.SUBSTITUTE, Duty.DENOMINATION, Duty.CALL_FREELY, Duty.NO_DOUBLE_ONCE
UI17, UI07 = ("16C",), ("16D",)
BAR17, BAR07 = ("16C", "26B", "72C"), ("16D", "23", "26")


def play(laws: Edition, script: str) -> Referee:
    ref = Referee(N, laws=laws)
    for step in script.split():
        if step == "reject":
            ref.choose(Option.REJECT)
            continue
        seat, text = step.split(":")
        comparable = True if text.endswith("=") else None
        artificial = text.endswith("*")
        ref.call(
            Seat.parse(seat), c(text.rstrip("=*")), comparable=comparable, artificial=artificial
        )
    return ref


@dataclass(frozen=True)
class Case:
    """A scene and what the referee must say after it."""

    script: str
    laws: tuple[str, ...]  # every ruling's paragraph, in order
    see_also: tuple[str, ...]  # the last ruling's
    duties: frozenset[tuple[Seat, Duty, str]] = frozenset()
    leads: tuple[LeadRestriction, ...] = ()


def case(
    script: str,
    laws: str,
    see_also: tuple[str, ...],
    duty: set[tuple[Seat, Duty, str]] | None = None,
    leads: tuple[LeadRestriction, ...] = (),
) -> Case:
    return Case(script, tuple(laws.split()), see_also, frozenset(duty or ()), leads)


# case of the table -> edition -> scene (several steps of one case each get a line)
CASES: dict[str, dict[Edition, Case]] = {
    # -- pass at RHO's turn: 2017 30A; 2007 30A before any bid, 30B1 after
    "pass-rho": {
        "2017": case("E:P reject", "30A", ("29B", *UI17), {(E, P1, "30A")}),
        "2007": case("E:P reject", "30A", ("29B", "16D", "23"), {(E, P1, "30A")}),
    },
    "pass-rho-after-bid": {
        "2017": case("N:1H S:P reject", "30A", ("29B", *UI17), {(S, P1, "30A")}),
        "2007": case("N:1H S:P reject", "30B1", ("29B", *UI07), {(S, P1, "30B1")}),
    },
    "pass-rho-then-passes": {
        "2017": case("N:1H S:P reject E:1S S:P", "30A", ("29B", *UI17)),
        "2007": case("N:1H S:P reject E:1S S:P", "30B1", ("29B", *UI07)),
    },
    # -- pass at partner's turn (or LHO's before the offender called): 2017 30B1; 2007 30A
    # before any bid, 30B2(a)/(b) after one
    "pass-partner": {
        "2017": case("S:P reject", "30B1", ("29B", *BAR17), {(S, SUB, "30B1")}),
        "2007": case("S:P reject", "30A", ("29B", "16D", "23"), {(S, P1, "30A")}),
    },
    "pass-lho-not-called": {
        "2017": case("W:P reject", "30B1", ("29B", *BAR17), {(W, SUB, "30B1")}),
        "2007": case("W:P reject", "30A", ("29B", "16D", "23"), {(W, P1, "30A")}),
    },
    "pass-partner-after-bid": {
        "2017": case("N:1H W:P reject", "30B1", ("29B", *BAR17), {(W, SUB, "30B1")}),
        "2007": case(
            "N:1H W:P reject",
            "30B2",
            ("29B", "16D", "23"),
            {(W, PT, "30B2(a)"), (E, NOX, "30B2(b)")},
        ),
    },
    "pass-partner-other-call": {
        "2017": case(
            "S:P reject N:1H E:P S:2C",
            "30B1 30B1(b)(ii)",
            BAR17,
            {(N, P1, "30B1(b)(ii)")},
            (LeadRestriction(S),),
        ),
        "2007": case(
            "N:1H W:P reject E:2C S:P",
            "30B2",
            ("29B", "16D", "23"),
            {(W, PT, "30B2(a)")},  # East's bar on doubling ended with his call
        ),
    },
    "pass-partner-comparable": {
        "2017": case("S:P reject N:1H E:P S:2C=", "30B1 30B1(b)(i)", ("23C",)),
    },
    # -- pass at LHO's turn after the offender called: a change of call (2007 30B3)
    "pass-lho-later": {
        "2017": case("N:1H E:1S E:P reject", "25B", UI17),
        "2007": case("N:1H E:1S E:P reject", "25B", ("30B3", *UI07)),
    },
    # -- an artificial pass (or a pass of partner's artificial call): 30C and Law 31
    "artificial-pass-rho": {
        "2017": case("E:P* reject", "30C", ("29B", "31A", *BAR17), {(E, REP, "31A")}),
        "2007": case("E:P* reject", "30C", ("29B", "31A", *BAR07), {(E, REP, "31A")}),
    },
    "artificial-pass-rho-rho-passes": {
        "2017": case("E:P* reject N:P", "30C 31A1", (), {(E, REPEAT, "31A1")}),
        "2007": case("E:P* reject N:P", "30C 31A1", (), {(E, REPEAT, "31A1")}),
    },
    "artificial-pass-partner": {
        "2017": case("S:P* reject", "30C", ("29B", "31B", *BAR17), {(S, SUB, "31B")}),
        "2007": case(
            "S:P* reject", "30C", ("29B", "31B", *BAR07), {(S, FREE, "31B"), (N, PT, "31B")}
        ),
    },
    "pass-of-partner-artificial-call": {
        "2017": case("N:1C* S:P reject", "30C", ("29B", "31A", *BAR17), {(S, REP, "31A")}),
        "2007": case("N:1C* S:P reject", "30C", ("29B", "31A", *BAR07), {(S, REP, "31A")}),
    },
    # -- a bid at RHO's turn: 31A1, 31A2 (2017 (a) comparable / (b) not; 2007 (a) the
    # denomination repeated / (b) not)
    "bid-rho": {
        "2017": case("E:1S reject", "31A", ("29B", *BAR17), {(E, REP, "31A")}),
        "2007": case("E:1S reject", "31A", ("29B", *BAR07), {(E, REP, "31A")}),
    },
    "bid-rho-rho-passes": {
        "2017": case("E:1S reject N:P", "31A 31A1", (), {(E, REPEAT, "31A1")}),
        "2007": case("E:1S reject N:P", "31A 31A1", (), {(E, REPEAT, "31A1")}),
    },
    "bid-rho-repeated": {
        "2017": case("E:1S reject N:P E:1S", "31A 31A1", ()),
        "2007": case("E:1S reject N:P E:1S", "31A 31A1", ()),
    },
    "bid-rho-rho-acts": {
        "2017": case("E:1S reject N:1H", "31A 31A2", BAR17, {(E, SUB, "31A2")}),
        "2007": case("E:1S reject N:1H", "31A 31A2", BAR07, {(E, DEN, "31A2")}),
    },
    "bid-rho-same-denomination": {
        "2017": case(
            "E:1S reject N:1H E:2S",
            "31A 31A2 31A2(b)",
            BAR17,
            {(W, P1, "31A2(b)")},
            (LeadRestriction(E),),
        ),
        "2007": case(
            "E:1S reject N:1H E:2S", "31A 31A2 31A2(a)", ("16D", "23"), {(W, P1, "31A2(a)")}
        ),
    },
    "bid-rho-other-denomination": {
        "2017": case(
            "E:1S reject N:1H E:2C",
            "31A 31A2 31A2(b)",
            BAR17,
            {(W, P1, "31A2(b)")},
            (LeadRestriction(E),),
        ),
        "2007": case(
            "E:1S reject N:1H E:2C",
            "31A 31A2 31A2(b)",
            BAR07,
            {(W, PT, "31A2(b)")},
            (LeadRestriction(E, "26A", Suit.S),),
        ),
    },
    "bid-rho-comparable": {
        "2017": case("E:1S reject N:1H E:2S=", "31A 31A2 31A2(a)", ("23C",)),
    },
    # -- a bid at partner's turn (or LHO's before the offender called): 31B (2017 B1 partner
    # free, B2 ruled as in 31A2(a)/(b); 2007 partner passes whenever it is his turn)
    "bid-partner": {
        "2017": case("S:1D reject", "31B", ("29B", *BAR17), {(S, SUB, "31B")}),
        "2007": case("S:1D reject", "31B", ("29B", *BAR07), {(S, FREE, "31B"), (N, PT, "31B")}),
    },
    "bid-lho-not-called": {
        "2017": case("W:1D reject", "31B", ("29B", *BAR17), {(W, SUB, "31B")}),
        "2007": case("W:1D reject", "31B", ("29B", *BAR07), {(W, FREE, "31B"), (E, PT, "31B")}),
    },
    "bid-partner-other-call": {
        "2017": case(
            "S:1D reject N:1H E:P S:2C",
            "31B 31B2",
            ("31A2(b)", *BAR17),
            {(N, P1, "31B2")},
            (LeadRestriction(S),),
        ),
        "2007": case(
            "S:1D reject N:P E:P S:2C",
            "31B 31B",
            BAR07,
            {(N, PT, "31B")},
            (LeadRestriction(S, "26A", Suit.D),),
        ),
    },
    "bid-partner-same-call": {
        "2017": case("S:1D reject N:P E:P S:1D=", "31B 31B2", ("31A2(a)", "23C")),
        "2007": case("S:1D reject N:P E:P S:1D", "31B 31B", ("16D", "23"), {(N, PT, "31B")}),
    },
    # -- a bid at LHO's turn, later: 31C, a change of call (Law 25)
    "bid-lho-later": {
        "2017": case("N:1C N:1D reject", "25B", ("31C", *UI17)),
        "2007": case("N:1C N:1D reject", "25B", ("31C", *UI07)),
    },
    # -- a double or redouble at RHO's turn: 2017 32A (A1, A2(a)/(b)); 2007 32B (B1, B2)
    "double-rho": {
        "2017": case("N:1H E:P W:X reject", "32A", ("29B", *BAR17), {(W, REP, "32A")}),
        "2007": case("N:1H E:P W:X reject", "32B", ("29B", *BAR07), {(W, REP, "32B")}),
    },
    "double-rho-rho-passes": {
        "2017": case("N:1H E:P W:X reject S:P", "32A 32A1", (), {(W, REPEAT, "32A1")}),
        "2007": case("N:1H E:P W:X reject S:P", "32B 32B1", (), {(W, REPEAT, "32B1")}),
    },
    "double-rho-rho-acts": {
        "2017": case("N:1H E:P W:X reject S:2H", "32A 32A2", BAR17, {(W, SUB, "32A2")}),
        "2007": case(
            "N:1H E:P W:X reject S:2H", "32B 32B2", BAR07, {(W, FREE, "32B2"), (E, PT, "32B2")}
        ),
    },
    "double-rho-other-call": {
        "2017": case(
            "N:1H E:P W:X reject S:2H W:P",
            "32A 32A2 32A2(b)",
            BAR17,
            {(E, P1, "32A2(b)")},
            (LeadRestriction(W),),
        ),
        "2007": case(
            "N:1H E:P W:X reject S:2H W:P",
            "32B 32B2 32B2",
            BAR07,
            {(E, PT, "32B2")},
            (LeadRestriction(W, "26B"),),
        ),
    },
    "double-rho-comparable": {
        "2017": case("N:1H E:P W:X reject S:2H W:X=", "32A 32A2 32A2(a)", ("23C",)),
    },
    # -- a double or redouble at partner's turn: 2017 32B (B1 partner free, B2 as 32A2);
    # 2007 32A (partner passes whenever it is his turn)
    "double-partner": {
        "2017": case("N:1H W:X reject", "32B", ("29B", *BAR17), {(W, SUB, "32B")}),
        "2007": case("N:1H W:X reject", "32A", ("29B", *BAR07), {(W, FREE, "32A"), (E, PT, "32A")}),
    },
    "double-partner-other-call": {
        "2017": case(
            "N:1H W:X reject E:P S:2H W:2S",
            "32B 32B2",
            ("32A2(b)", *BAR17),
            {(E, P1, "32B2")},
            (LeadRestriction(W),),
        ),
        "2007": case(
            "N:1H W:X reject E:P S:2H W:2S",
            "32A 32A",
            BAR07,
            {(E, PT, "32A")},
            (LeadRestriction(W, "26B"),),
        ),
    },
    "double-partner-comparable": {
        "2017": case("N:1H W:X reject E:P S:2H W:X=", "32B 32B2", ("32A2(a)", "23C")),
    },
    # -- a double or redouble at LHO's turn, later: a change of call (2017 32C)
    "double-lho-later": {
        "2017": case("N:1H E:2C E:X reject", "25B", ("32C", *UI17)),
        "2007": case("N:1H E:2C E:X reject", "25B", UI07),
    },
}
SCENES = [(name, laws) for name, editions in CASES.items() for laws in editions]


@pytest.mark.parametrize(("name", "laws"), SCENES, ids=[f"{n}-{e}" for n, e in SCENES])
def test_paragraph_cited(name: str, laws: Edition) -> None:
    expected = CASES[name][laws]
    ref = play(laws, expected.script)
    assert ref.pending is None
    assert tuple(r.law for r in ref.rulings) == expected.laws
    assert ref.rulings[-1].see_also == expected.see_also
    assert duties(ref) == expected.duties
    assert ref.lead_restrictions == expected.leads


def test_every_case_of_the_table_in_both_editions() -> None:
    """Each row of laws.md's table has a scene in each edition (the comparable-call rows
    are 2017 only: 2007 has no comparable calls)."""
    both = [n for n, e in CASES.items() if set(e) == {"2017", "2007"}]
    rows = {n.split("-")[0] + "-" + n.split("-")[1] for n in both}
    assert rows >= {
        "pass-rho", "pass-partner", "pass-lho", "artificial-pass", "bid-rho", "bid-partner",
        "bid-lho", "double-rho", "double-partner", "double-lho",
    }  # fmt: skip
    assert all(set(e) == {"2017"} for n, e in CASES.items() if n.endswith("comparable"))


@pytest.mark.parametrize(("name", "laws"), SCENES, ids=[f"{n}-{e}" for n, e in SCENES])
def test_the_words_are_the_editions(name: str, laws: Edition) -> None:
    """2007 rulings speak of repeated denominations and bars "whenever it is his turn",
    never of comparable calls or the 2017 Laws 16C, 26B, 72C; 2017 rulings on Laws 30-32
    bar partner once only, and a 31B2/32B2 ruling says which paragraph it is ruled as."""
    ref = play(laws, CASES[name][laws].script)
    every = [*ref.obligations, *ref.ended_duties]
    words = " ".join([*(r.text for r in ref.rulings), *(o.duty.value for o in every)])
    if laws == "2007":
        assert "comparable" not in words and "16C2" not in words
        assert not {"16C", "26B", "72C"} & {x for r in ref.rulings for x in r.see_also}
        if any(o.duty is PT for o in every):
            assert "whenever it is his turn" in words
    else:
        assert "whenever" not in words
        for r in ref.rulings:
            if r.law in ("31B2", "32B2"):
                assert f"ruled as in {r.law[:2]}A2(" in r.text, r.text


def test_artificial_pass_names_its_law_31_paragraph() -> None:
    for laws in ("2017", "2007"):
        for offender, paragraph in ((E, "31A"), (S, "31B")):
            ref = Referee(N, laws=laws)
            pending = ref.call(offender, c("P"), artificial=True)
            assert pending is not None and pending.law == "30C"
            assert pending.see_also == (paragraph,) and f"Law {paragraph}" in pending.text
            ref.choose(Option.REJECT)
            decided = ref.rulings[-1]
            assert decided.law == "30C" and decided.see_also[:2] == ("29B", paragraph)
            assert f"Law {paragraph}" in decided.text


def test_duties_say_what_the_laws_say() -> None:
    assert (
        P1.value == "must pass at the next turn" and P1.ends == "at the player's next turn to call"
    )
    assert PT.value == "must pass whenever it is his turn to call"
    assert PT.ends == "when the auction ends"
    assert NOX.value == "may not double or redouble at the next turn"
    assert "comparable" in SUB.value and "comparable" not in DEN.value + FREE.value
    assert "repeating the denomination" in DEN.value


@pytest.mark.parametrize(
    ("laws", "script", "barred"),
    [
        ("2007", "N:1H W:X reject", E),  # 32A: partner passes whenever it is his turn
        ("2007", "S:1D reject", N),  # 31B
        ("2007", "E:1S reject N:1H E:2C", W),  # 31A2(b)
        ("2007", "N:1H W:P reject", W),  # 30B2(a): the offender himself
    ],
)
def test_a_2007_bar_lasts_the_whole_auction(laws: Edition, script: str, barred: Seat) -> None:
    ref = play(laws, script)
    for _ in range(3):  # three rounds: passes only, while the others keep bidding
        while ref.turn is not barred:
            seat = ref.turn
            legal = ref.legal_calls(seat)
            bids = [x for x in legal if x.is_bid]
            assert ref.call(seat, bids[0] if bids else legal[0]) is None
        assert ref.legal_calls(barred) == (c("P"),)
        assert ref.call(barred, c("P")) is None


def test_30b2b_partner_may_not_double_only_at_that_turn() -> None:
    ref = play("2007", "N:1H W:P reject")
    assert c("X") not in ref.legal_calls(E) and c("2C") in ref.legal_calls(E)
    assert ref.call(E, c("P")) is None
    assert duties(ref) == {(W, PT, "30B2(a)")}


@pytest.mark.parametrize(
    ("laws", "law", "suits"),
    [
        ("2017", "26B", {Suit.D, Suit.H, Suit.S}),  # forbid one suit East did not specify
        ("2007", "26A", {Suit.S}),  # the withdrawn 1S named spades: require or forbid them
    ],
)
def test_the_lead_restriction_when_the_offender_defends(
    laws: Edition, law: str, suits: set[Suit]
) -> None:
    """East's 1S at North's turn, not accepted; North opens 1H, East bids 2C (another
    denomination, not comparable); North-South play 4H: West's first lead is restricted."""
    ref = play(laws, "E:1S reject N:1H E:2C S:2H W:P N:4H E:P S:P W:P")
    assert ref.ended and ref.declarer is N
    found = ref.opening_lead_restriction()
    assert found is not None
    restriction, choice = found
    assert (restriction.leader, restriction.law, choice) == (W, law, suits)
