"""The referee follows irregular auctions: one test per row of laws.md 1.5 and more."""

from __future__ import annotations

import pytest
from referee_helpers import c, duties, feed, insufficient_rejected

from bridgefiles.laws import (
    Duty,
    Irregularity,
    LeadRestriction,
    Option,
    Position,
    Referee,
)
from bridgefiles.model import PASS, Seat, Suit

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


# -- calls out of rotation (Laws 30-32), row by row ---------------------------------------


def test_pass_at_rho_turn_offender_must_pass_once() -> None:
    ref = Referee(N)
    ruling = ref.call(E, PASS)  # North (E's RHO) was due
    assert ruling is not None and ruling.irregularity is Irregularity.OUT_OF_ROTATION
    assert ruling.position is Position.RHO and ruling.law == "30A"
    assert ruling.options == (Option.ACCEPT, Option.REJECT)
    ref.choose(Option.REJECT)
    assert ref.turn is N and duties(ref) == {(E, Duty.PASS_ONCE, "30A")}
    feed(ref, (N, "1H"))
    assert ref.legal_calls(E) == (PASS,)
    feed(ref, (E, "P"))
    assert ref.obligations == ()


@pytest.mark.parametrize("comparable", [False, True])
def test_pass_at_partner_turn(comparable: bool) -> None:
    ref = Referee(N)
    ruling = ref.call(S, PASS)
    assert ruling is not None and ruling.position is Position.PARTNER
    ref.choose(Option.REJECT)
    assert duties(ref) == {(S, Duty.SUBSTITUTE, "30B1")}
    feed(ref, (N, "1C"), (E, "P"))  # partner calls freely
    assert ref.call(S, c("1H"), comparable=comparable) is None
    if comparable:
        assert ref.obligations == () and ref.lead_restrictions == ()
    else:
        assert duties(ref) == {(N, Duty.PASS_ONCE, "30B1(b)(ii)")}
        assert ref.lead_restrictions == (LeadRestriction(S),)
        feed(ref, (W, "2D"))
        assert ref.legal_calls(N) == (PASS,)
        feed(ref, (N, "P"))
        assert ref.obligations == ()


def test_pass_at_lho_turn_before_offender_has_called() -> None:
    ref = Referee(N)  # West passes at North's turn: North is West's LHO and the dealer
    ruling = ref.call(W, PASS)
    assert ruling is not None and ruling.position is Position.LHO
    assert ruling.irregularity is Irregularity.OUT_OF_ROTATION
    ref.choose(Option.REJECT)
    assert duties(ref) == {(W, Duty.SUBSTITUTE, "30B1")}
    feed(ref, (N, "1S"), (E, "P"), (S, "2S"))
    feed(ref, (W, "3H"))  # not comparable: East must pass once
    assert duties(ref) == {(E, Duty.PASS_ONCE, "30B1(b)(ii)")}


def test_pass_at_lho_turn_after_offender_called_is_a_change_of_call() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"))
    ruling = ref.call(N, PASS)  # East (North's LHO) has not called yet
    assert ruling is not None and ruling.irregularity is Irregularity.CHANGE_OF_CALL
    assert ruling.law == "25B"
    ref.choose(Option.REJECT)  # 25B: cancelled, 1H stands
    assert ref.calls == ((N, c("1H")),) and ref.turn is E


def test_change_of_call_accepted() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"))
    assert ref.call(N, c("1S")) is not None
    ref.choose(Option.ACCEPT)
    assert ref.calls == ((N, c("1S")),) and ref.turn is E


def test_bid_at_rho_turn_rho_passes_offender_must_repeat() -> None:
    ref = Referee(N)
    ruling = ref.call(E, c("1S"))
    assert ruling is not None and ruling.position is Position.RHO and ruling.law == "31A"
    ref.choose(Option.REJECT)
    assert duties(ref) == {(E, Duty.REPEAT_IF_RHO_PASSES, "31A")}
    feed(ref, (N, "P"))
    assert ref.legal_calls(E) == (c("1S"),)
    with pytest.raises(ValueError):
        ref.call(E, c("2S"))
    feed(ref, (E, "1S"))
    assert ref.obligations == () and ref.lead_restrictions == ()


@pytest.mark.parametrize("comparable", [False, True])
def test_bid_at_rho_turn_rho_bids_offender_free(comparable: bool) -> None:
    ref = Referee(N)
    ref.call(E, c("1S"))
    ref.choose(Option.REJECT)
    feed(ref, (N, "1H"))
    assert duties(ref) == {(E, Duty.SUBSTITUTE, "31A2")}
    assert c("2C") in ref.legal_calls(E) and c("1S") in ref.legal_calls(E)
    assert ref.call(E, c("2C"), comparable=comparable) is None
    expected = set() if comparable else {(W, Duty.PASS_ONCE, "31A2(b)")}
    assert duties(ref) == expected


@pytest.mark.parametrize("offender", [S, W], ids=["partner-turn", "lho-turn-not-called"])
def test_bid_at_partner_or_lho_turn(offender: Seat) -> None:
    ref = Referee(N)
    ruling = ref.call(offender, c("1D"))
    assert ruling is not None and ruling.law == "31B"
    ref.choose(Option.REJECT)
    assert duties(ref) == {(offender, Duty.SUBSTITUTE, "31B")}
    for seat in (N, E, S, W):
        if seat is offender:
            break
        feed(ref, (seat, "P"))
    feed(ref, (offender, "1D"))  # the same bid, not ruled comparable by the Director
    assert duties(ref) == {(offender.partner, Duty.PASS_ONCE, "31B2")}  # as in 31A2(b)
    assert ref.lead_restrictions == (LeadRestriction(offender),)


def test_bid_at_lho_turn_later_is_a_change_of_call() -> None:
    ref = Referee(N)
    feed(ref, (N, "1C"))
    ruling = ref.call(N, c("1D"))
    assert ruling is not None and ruling.irregularity is Irregularity.CHANGE_OF_CALL


def test_double_at_rho_turn_rho_passes_must_repeat() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "P"))
    ruling = ref.call(W, c("X"))  # South was due; West is South's LHO
    assert ruling is not None and ruling.position is Position.RHO and ruling.law == "32A"
    ref.choose(Option.REJECT)
    feed(ref, (S, "P"))
    assert ref.legal_calls(W) == (c("X"),)
    feed(ref, (W, "X"))
    assert ref.obligations == ()


def test_double_at_rho_turn_rho_bids_offender_free() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "P"))
    ref.call(W, c("X"))
    ref.choose(Option.REJECT)
    feed(ref, (S, "2H"))
    assert duties(ref) == {(W, Duty.SUBSTITUTE, "32A2")}
    feed(ref, (W, "P"))
    assert duties(ref) == {(E, Duty.PASS_ONCE, "32A2(b)")}


def test_double_at_partner_turn() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"))
    ruling = ref.call(W, c("X"))  # East was due: West's partner
    assert ruling is not None and ruling.position is Position.PARTNER and ruling.law == "32B"
    ref.choose(Option.REJECT)
    assert duties(ref) == {(W, Duty.SUBSTITUTE, "32B")}
    feed(ref, (E, "P"), (S, "2H"))
    assert ref.call(W, c("X"), comparable=True) is None
    assert ref.obligations == ()


def test_double_at_lho_turn_later_is_a_change_of_call() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "2C"))
    ruling = ref.call(E, c("X"))
    assert ruling is not None and ruling.irregularity is Irregularity.CHANGE_OF_CALL


def test_redouble_out_of_rotation_at_rho_turn() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "X"))
    ruling = ref.call(W, c("XX"))  # inadmissible anyway: West's side did not bid
    assert ruling is not None and ruling.irregularity is Irregularity.INADMISSIBLE
    assert ruling.options == (Option.REJECT,)


def test_call_out_of_rotation_accepted_by_lho_calling() -> None:
    ref = Referee(N)
    ref.call(E, c("1S"))
    assert ref.call(S, c("2H")) is None  # South, East's LHO, calls over it: accepted (29A)
    assert ref.calls == ((E, c("1S")), (S, c("2H"))) and ref.turn is W
    assert ref.pending is None and ref.obligations == ()


def test_call_by_player_due_cancels_call_out_of_rotation() -> None:
    ref = Referee(N)
    ref.call(S, c("1S"))
    assert ref.call(N, c("1C")) is None  # 28B
    assert ref.calls == ((N, c("1C")),) and ref.obligations == ()


def test_call_at_rho_turn_when_rho_must_pass_is_in_rotation() -> None:
    ref = Referee(N)
    ref.call(E, PASS)
    ref.choose(Option.REJECT)  # East must pass at his next turn
    feed(ref, (N, "1H"))
    assert ref.call(S, c("2H")) is None  # 28A: East's pass is taken as made
    assert ref.calls[-2:] == ((E, PASS), (S, c("2H")))


# -- insufficient bids (Law 27) ---------------------------------------------------------


def test_insufficient_bid_accepted() -> None:
    ref = Referee(N)
    feed(ref, (N, "1S"))
    ruling = ref.call(E, c("1H"))
    assert ruling is not None and ruling.irregularity is Irregularity.INSUFFICIENT
    assert ruling.options == (Option.ACCEPT, Option.REJECT)
    feed(ref, (S, "P"))  # LHO calls: accepted
    feed(ref, (W, "P"), (N, "P"))
    assert ref.ended and ref.declarer is E


def test_insufficient_bid_corrected_to_lowest_same_strain() -> None:
    ref = insufficient_rejected("1S", "1H")
    assert duties(ref) == {(E, Duty.REPLACE, "27B")}
    assert ref.comparable_by_rule(E) == c("2H")
    feed(ref, (E, "2H"))
    assert ref.obligations == () and ref.lead_restrictions == ()


def test_insufficient_bid_replaced_by_comparable_call() -> None:
    ref = insufficient_rejected("1NT", "1S")
    assert ref.call(E, c("2C"), comparable=True) is None  # e.g. a Landy 2C: 27B1(b)
    assert ref.obligations == ()


@pytest.mark.parametrize("replacement", ["3H", "P"])
def test_insufficient_bid_replaced_otherwise_bars_partner(replacement: str) -> None:
    ref = insufficient_rejected("1S", "1H")
    feed(ref, (E, replacement))
    assert duties(ref) == {(W, Duty.PASS_THROUGHOUT, "27B2")}
    feed(ref, (S, "3S"))
    assert ref.legal_calls(W) == (PASS,)
    feed(ref, (W, "P"), (N, "4S"), (E, "P"), (S, "P"))
    assert ref.legal_calls(W) == (PASS,)
    assert ref.lead_restrictions == (LeadRestriction(E),)


def test_insufficient_bid_replaced_by_double() -> None:
    ref = insufficient_rejected("1S", "1H")
    ruling = ref.call(E, c("X"))
    assert ruling is not None and ruling.law == "27B3"
    assert duties(ref) == {(E, Duty.REPLACE, "27B"), (W, Duty.PASS_THROUGHOUT, "27B3")}
    feed(ref, (E, "2H"))
    assert duties(ref) == {(W, Duty.PASS_THROUGHOUT, "27B3")}


def test_insufficient_bid_replaced_by_another_insufficient_bid() -> None:
    ref = insufficient_rejected("2S", "1H")
    ruling = ref.call(E, c("2H"))
    assert ruling is not None and ruling.law == "27B4"
    ref.choose(Option.REJECT)
    assert (W, Duty.PASS_THROUGHOUT, "27B4") in duties(ref)
    feed(ref, (E, "3H"))  # the lowest sufficient heart bid
    assert duties(ref) == {(W, Duty.PASS_THROUGHOUT, "27B4")}


# -- inadmissible calls, barred players, calls after the auction ----------------------


def test_inadmissible_double_cancelled_partner_barred() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "P"))
    ruling = ref.call(S, c("X"))  # doubling partner's bid
    assert ruling is not None and ruling.irregularity is Irregularity.INADMISSIBLE
    with pytest.raises(ValueError):
        ref.choose(Option.ACCEPT)
    ref.choose(Option.REJECT)
    assert duties(ref) == {(N, Duty.PASS_THROUGHOUT, "36B")}


def test_inadmissible_double_lho_called_first() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"), (E, "P"))
    ref.call(S, c("X"))
    assert ref.call(W, c("1S")) is None  # 36A: both cancelled, no rectification
    assert ref.turn is S and ref.obligations == ()
    assert ref.calls == ((N, c("1H")), (E, PASS))


def test_call_by_barred_player() -> None:
    ref = insufficient_rejected("1S", "1H")
    feed(ref, (E, "P"), (S, "2S"))
    ruling = ref.call(W, c("3H"))  # West must pass throughout
    assert ruling is not None and ruling.irregularity is Irregularity.BARRED
    ref.choose(Option.REJECT)
    assert (E, Duty.PASS_THROUGHOUT, "37A") in duties(ref)
    assert ref.calls[-1] == (W, PASS)


def test_call_after_the_auction_by_defender() -> None:
    ref = Referee(N)
    feed(ref, (N, "1S"), (E, "P"), (S, "P"), (W, "P"))
    assert ref.ended and ref.legal_calls(N) == ()
    ruling = ref.call(E, c("2H"))
    assert ruling is not None and ruling.irregularity is Irregularity.AFTER_AUCTION
    found = ref.opening_lead_restriction()
    assert found is not None
    restriction, suits = found
    assert restriction.leader is W and suits == set(Suit)  # East named no suit legally


def test_legal_calls_follow_law_19() -> None:
    ref = Referee(N)
    feed(ref, (N, "1H"))
    east = ref.legal_calls(E)
    assert c("X") in east and c("XX") not in east and c("1H") not in east and c("1S") in east
    assert ref.legal_calls(S) == ()
    feed(ref, (E, "X"))
    assert c("XX") in ref.legal_calls(S) and c("X") not in ref.legal_calls(S)
