"""Play replay, claims and the validator's tag checks, on boards built from the models."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgefiles.checks.validate import validate_board
from bridgefiles.laws import replay_auction, replay_play
from bridgefiles.model import (
    ALL_CARDS,
    Auction,
    AuctionEnd,
    AuctionEntry,
    Board,
    Call,
    Card,
    Claim,
    Deal,
    EntryKind,
    Play,
    PlayedCard,
    PlayEnd,
    Seat,
    Slot,
    Strain,
    TagPair,
)
from bridgefiles.model.diagnostic import Severity

# R1 of laws.md 2.2 (fixtures/laws-revokes.pbn): 4S by South, West revokes at trick 3.
DEAL = "S:AQJ.AKJ75.J54.A6 73.Q942.A93.Q732 KT96.86.KT72.954 8542.T3.Q86.KJT8"
ROWS = [  # columns W N E S
    "D3 D2 D6 D4", "H4 H6 H3 HJ", "^R CQ H8 HT HK", "H9 D7 CJ HA", "S7 S9 S8 SA",
    "D9 DK DQ D5", "C7 C9 CT C6", "S3 S6 S4 SQ", "DA DT D8 DJ", "C3 C4 C8 CA",
    "HQ SK S5 H7", "C2 C5 CK H5", "H2 ST S2 SJ",
]  # fmt: skip
WINNERS = "ESSSSNESWSNES"


def play_of(rows: list[str], first: Seat = Seat.W, **extra: Any) -> Play:
    slots: list[PlayedCard] = []
    revoke = lead = False
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            if token == "^R":
                revoke = True
            elif token == "^L":
                lead = True
            else:
                slot = {"-": Slot.UNKNOWN, "+": Slot.NEXT}.get(token, Slot.CARD)
                card = Card.parse(token) if slot is Slot.CARD else None
                slots.append(
                    PlayedCard(
                        slot=slot,
                        card=card,
                        revoke=revoke,
                        lead_out_of_turn=lead,
                        line=r + 1,
                        column=c + 1,
                    )
                )
                revoke = lead = False
    return Play(first=first, slots=tuple(slots), **extra)


def replay(rows: list[str], deal: str | None = DEAL, **kw: Any) -> Any:
    return replay_play(play_of(rows), Deal.parse(deal) if deal else None, Strain.S, Seat.S, **kw)


def codes(diags: Any, severity: Severity | None = None) -> list[str]:
    return [d.code for d in diags if severity is None or d.severity is severity]


def test_clean_replay_counts_tricks_and_rules_on_the_revoke() -> None:
    result = replay(ROWS)
    assert "".join(w.value for w in result.winners) == WINNERS
    assert (result.won, result.law64, result.final) == (9, 1, 10)
    assert [(r.trick, r.player, r.established) for r in result.revokes] == [(3, Seat.W, True)]
    assert codes(result.diagnostics) == ["revoke"]
    assert result.diagnostics[0].line == 3 and result.diagnostics[0].law == "64A2"


def test_unmarked_revoke_is_an_error_and_marked_follow_is_an_error() -> None:
    rows = list(ROWS)
    rows[2] = rows[2].replace("^R ", "")
    assert codes(replay(rows).diagnostics, Severity.ERROR) == ["revoke"]
    rows = list(ROWS)
    rows[0] = "D3 ^R D2 D6 D4"
    diags = replay(rows).diagnostics
    assert next(d.message for d in diags if d.trick == 1).endswith("follows suit")


def test_card_not_held_and_played_twice() -> None:
    rows = list(ROWS)
    rows[12] = "H2 ST SJ S2"  # South and East swapped their last cards
    result = replay(rows)
    assert codes(result.diagnostics, Severity.ERROR) == ["card-not-held", "card-not-held"]
    assert result.final is None  # the deal is not the one played: no count
    rows = list(ROWS)
    rows[1] = "H4 H6 H3 D4"
    messages = [d.message for d in replay(rows).diagnostics if d.code == "card-not-held"]
    assert "D4 was already played by South at trick 1" in messages


def test_unknown_lead_stops_the_order_but_not_the_holding_checks() -> None:
    rows = list(ROWS)
    rows[4] = "S7 S9 S8 -"  # South's lead of trick 5 unknown
    rows[10] = "HQ SK S5 DA"  # DA was West's, already played: still found
    result = replay(rows)
    assert len(result.winners) == 4 and result.final is None
    assert codes(result.diagnostics, Severity.ERROR) == ["card-not-held"]


def test_unknown_hand_takes_cards_from_the_pool() -> None:
    deal = "S:AQJ.AKJ75.J54.A6 - KT96.86.KT72.954 8542.T3.Q86.KJT8"  # West unknown
    result = replay(ROWS, deal)
    assert "".join(w.value for w in result.winners) == WINNERS
    assert [r.player for r in result.revokes] == [Seat.W]  # trusted from '^R'
    rows = list(ROWS)
    rows[2] = rows[2].replace("^R ", "")
    assert replay(rows, deal).revokes == ()  # cannot be seen without West's hand
    rows[0] = "SK D2 D6 D4"  # SK is North's, not in the pool for West
    assert "card-not-held" in codes(replay(rows, deal).diagnostics)


def test_no_deal_still_counts_tricks() -> None:
    result = replay(ROWS, None)
    assert "".join(w.value for w in result.winners) == WINNERS
    assert result.revokes[0].marked  # '^R' trusted


def test_lead_out_of_turn() -> None:
    rows = list(ROWS)
    rows[0] = "D3 D2 ^L D6 D4"  # East led D6 instead of West: accepted
    result = replay(rows)
    assert codes(result.diagnostics, Severity.WARNING) == ["lead-out-of-turn", "revoke"]
    assert "".join(w.value for w in result.winners) == WINNERS
    rows[0] = "^L D3 D2 D6 D4"
    assert codes(replay(rows).diagnostics, Severity.ERROR) == ["lead-out-of-turn"]


def test_next_card_marker_and_cards_after_it() -> None:
    result = replay([*ROWS[:3], "+ - - HA"])  # South led HA, West is to play
    assert result.final is None and codes(result.diagnostics, Severity.ERROR) == []
    result = replay([*ROWS[:3], "+ D7 CJ HA"])  # North and East after West's '+'
    assert codes(result.diagnostics, Severity.ERROR) == ["play", "play"]


def test_claims() -> None:
    # LIN mc: 9 tricks played, declarer's total 10
    result = replay_play(
        play_of(ROWS[:9], claim=Claim(tricks=10)), Deal.parse(DEAL), Strain.S, Seat.S
    )
    assert (result.won, result.law64, result.final) == (10, 1, 11)
    bad = replay_play(play_of(ROWS[:9], claim=Claim(tricks=3)), Deal.parse(DEAL), Strain.S, Seat.S)
    assert codes(bad.diagnostics, Severity.ERROR) == ["claim"]
    # PBN '*': Result includes the transfer
    stopped = replay_play(
        play_of(ROWS[:9], end=PlayEnd.STOPPED),
        Deal.parse(DEAL),
        Strain.S,
        Seat.S,
        result_tricks=11,
    )
    assert (stopped.won, stopped.law64, stopped.final) == (10, 1, 11)


def test_end_position() -> None:
    deal = "N:.6.AK. A8..T. J9.J9.. QT.AT.."
    result = replay_play(
        play_of(["SQ D2 - -"], first=Seat.W),
        Deal.parse(deal),
        Strain.H,
        None,
        leader=Seat.W,
    )
    assert codes(result.diagnostics, Severity.ERROR) == ["card-not-held"]  # D2 is nobody's


# -- the validator on whole boards ---------------------------------------------------------


def board(**tags: str) -> Board:
    auction = tags.pop("auction", "1S Pass 2S Pass 4S Pass Pass Pass")
    first = Seat.parse(tags.pop("auction_first", "S"))
    entries = []
    for token in auction.split():
        if token == "-":
            entries.append(AuctionEntry(kind=EntryKind.NONE))
        elif token == "^S":
            entries.append(AuctionEntry(kind=EntryKind.SKIP))
        elif token != "AP":
            entries.append(AuctionEntry(call=Call.parse(token)))
    end = AuctionEnd.ALL_PASS if auction.endswith("AP") else AuctionEnd.OPEN
    rows = tags.pop("rows", None)
    base = {"Board": "3", "Dealer": "S", "Vulnerable": "EW", "Deal": DEAL, "Declarer": "S",
            "Contract": "4S", "Result": "10"}  # fmt: skip
    base.update(tags)
    return Board(
        tags=tuple(TagPair(name=k, value=v) for k, v in base.items() if v != "<none>"),
        auction=Auction(first=first, entries=tuple(entries), end=end),
        play=play_of(ROWS if rows is None else rows.split("/")),
        format="pbn",
    )


def report_codes(b: Board) -> list[str]:
    return sorted(d.code for d in validate_board(b).diagnostics if d.severity is Severity.ERROR)


def test_validator_checks_tags_against_the_replay() -> None:
    assert report_codes(board()) == []
    assert report_codes(board(Contract="4SX")) == ["contract-mismatch"]
    assert report_codes(board(Declarer="N")) == ["declarer-mismatch"]
    assert report_codes(board(Declarer="^S")) == ["declarer-mismatch"]
    assert report_codes(board(Result="8")) == ["result-mismatch"]
    as_played = validate_board(board(Result="9")).diagnostics  # without the transfer
    assert [(d.code, d.severity) for d in as_played if d.code == "result-mismatch"] == [
        ("result-mismatch", Severity.WARNING)
    ]
    # '^10': an agreed count that differs from the 9 tricks won, the transfer applied
    assert report_codes(board(Result="^10")) == []
    assert report_codes(board(Result="NS 10")) == []
    assert report_codes(board(Result="EW 3")) == []


def test_validator_fills_what_the_tags_lack() -> None:
    report = validate_board(board(Contract="<none>", Declarer="<none>"))
    assert report.contract is not None and report.contract.text == "4S"
    assert report.declarer is Seat.S
    assert report.tricks is not None and report.tricks.final == 10
    assert report.score is not None and report.score.ns == 420


def test_validator_on_auction_forms() -> None:
    assert report_codes(board(auction="1S Pass 2S Pass 4S AP")) == []
    assert report_codes(board(auction="- - 1S Pass 2S Pass 4S AP", auction_first="N")) == []
    shifted = board(auction="- 1S Pass 2S Pass 4S AP", auction_first="N")
    assert report_codes(shifted) == ["call-out-of-rotation", "declarer-mismatch"]
    passed = validate_board(board(auction="AP", Contract="Pass", Declarer="", Result="", rows=""))
    assert passed.score is not None and passed.score.ns == 0 and passed.tricks is None
    assert report_codes(board(auction="AP", Contract="Pass", Declarer="", rows="")) == [
        "result-mismatch"
    ]


def test_declarer_swap() -> None:
    # ^N: North played the hand, so East (North's LHO) led. The auction gives South.
    b = board(Declarer="^N", rows="")
    report = validate_board(b)
    assert report_codes(b) == [] and report.declarer is Seat.S


def test_auction_replay_marks() -> None:
    auction = Auction(
        first=Seat.W,
        entries=(
            AuctionEntry(kind=EntryKind.NONE),
            AuctionEntry(kind=EntryKind.SKIP),
            AuctionEntry(call=Call.parse("1D")),
            AuctionEntry(call=Call.parse("1C"), insufficient=True),
            AuctionEntry(call=Call.parse("2C"), insufficient=True),  # sufficient: wrong mark
        ),
        end=AuctionEnd.ALL_PASS,
    )
    result = replay_auction(auction, Seat.N)
    assert [d.code for d in result.diagnostics] == [
        "call-out-of-rotation", "insufficient-bid", "insufficient-bid"
    ]  # fmt: skip
    assert [d.severity for d in result.diagnostics] == [
        Severity.WARNING, Severity.WARNING, Severity.ERROR
    ]  # fmt: skip
    assert result.contract is not None and result.contract.text == "2C"
    assert result.declarer is Seat.W  # West's 2C: the first club bid of E-W


# -- never raises -----------------------------------------------------------------------

TOKENS = st.sampled_from(["-", "+", *(c.code for c in ALL_CARDS[:20])])


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.lists(TOKENS, min_size=1, max_size=4).map(" ".join), max_size=14),
    deal=st.sampled_from([DEAL, "N:AK.. - - -", "W:- - - -", "<none>"]),
    contract=st.sampled_from(["4S", "H", "Pass", "7NTXX", "<none>"]),
    declarer=st.sampled_from(["S", "^E", "", "<none>"]),
    result=st.sampled_from(["10", "^0", "NS 13", "", "<none>"]),
    auction=st.sampled_from(["", "AP", "X XX 1C 1C AP", "^S ^S - 7NT X XX Pass Pass Pass P"]),
)
def test_validate_never_raises(
    rows: list[str], deal: str, contract: str, declarer: str, result: str, auction: str
) -> None:
    b = board(
        rows="/".join(rows),
        Deal=deal,
        Contract=contract,
        Declarer=declarer,
        Result=result,
        auction=auction,
    )
    report = validate_board(b)
    assert not any("internal error" in d.message for d in report.diagnostics)
    report.to_json()


def test_partial_result_without_a_claim() -> None:
    four = "/".join(ROWS[:4])  # E S S S: declarer has 3 tricks so far
    partial = validate_board(board(rows=four, Result="3"))
    assert partial.tricks is not None and partial.tricks.final is None and partial.score is None
    # West played on: established; and the partial result says why there is no score
    assert [(d.code, d.severity) for d in partial.diagnostics] == [
        ("revoke", Severity.WARNING),
        ("result-mismatch", Severity.INFO),
    ]
    assert "a partial result" in partial.diagnostics[1].message
    taken = validate_board(board(rows=four, Result="10"))
    assert taken.tricks is not None and taken.tricks.final == 10
    assert [(d.code, d.severity) for d in taken.diagnostics if d.code == "result-mismatch"] == [
        ("result-mismatch", Severity.INFO)
    ]
    assert report_codes(board(rows=four, Result="2")) == ["result-mismatch"]


def test_pass_contract_with_a_bid_in_an_unfinished_auction() -> None:
    b = board(auction="1S Pass", Contract="Pass", Declarer="", Result="", rows="")
    assert report_codes(b) == ["contract-mismatch"]


def test_real_cards_in_tricks_after_the_next_card_marker() -> None:
    result = replay([*ROWS[:3], "+ - - HA", "S7 - - -"], None)
    assert codes(result.diagnostics, Severity.ERROR) == ["play"]


def test_formats_without_marks_get_warnings() -> None:
    rows = list(ROWS)
    rows[2] = rows[2].replace("^R ", "")
    lin = board(rows="/".join(rows)).model_copy(update={"format": "lin"})
    report = validate_board(lin)
    assert [(d.code, d.severity) for d in report.diagnostics] == [("revoke", Severity.WARNING)]
    insufficient = board(auction="1S 1H Pass Pass Pass", Contract="1H", Declarer="W", rows="")
    assert report_codes(insufficient) == ["insufficient-bid"]  # PBN has '^I' for it
    as_lin = validate_board(insufficient.model_copy(update={"format": "lin"}))
    assert [d.severity for d in as_lin.diagnostics] == [Severity.WARNING]


def test_board_json_has_the_design_keys() -> None:
    data = validate_board(board()).to_json()
    assert list(data) == [
        "index", "board", "room", "line", "dealer", "vulnerable", "contract", "declarer",
        "tricks", "score", "diagnostics",
    ]  # fmt: skip
    assert data["dealer"] == "S" and data["vulnerable"] == "EW" and data["board"] == "3"
    assert data["tricks"] == {"won": 9, "law64": 1, "final": 10}
    assert data["diagnostics"][0]["trick"] == 3 and data["diagnostics"][0]["seat"] == "W"


