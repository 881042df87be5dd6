"""A gathered LIN board to a :class:`~bridgefiles.model.board.Board`: the tags a PBN
reader would give (Event, Board, players, Dealer, Deal, Contract...), the auction,
and the play placed in seat columns, with what the auction comes to worked out by
:mod:`bridgefiles.model.outcome` (one reckoning for every format)."""

from __future__ import annotations

from bridgefiles.formats.lin import values
from bridgefiles.formats.lin.auction_play import place_cards
from bridgefiles.formats.lin.movies import resolve, settle
from bridgefiles.formats.lin.state import BoardState, Reading
from bridgefiles.formats.lin.tokens import FORMAT
from bridgefiles.formats.lin.vugraph import check_rs
from bridgefiles.model.annotations import Annotations
from bridgefiles.model.auction import Auction, AuctionEntry, EntryKind, interned, plain_entry
from bridgefiles.model.board import Board
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import error, info, warning
from bridgefiles.model.extras import Extras
from bridgefiles.model.fast import make
from bridgefiles.model.outcome import AuctionOutcome, auction_outcome
from bridgefiles.model.play import Play, PlayEnd
from bridgefiles.model.positions import pack
from bridgefiles.model.seats import Seat
from bridgefiles.model.tags import Tags, shared_value

_PLAYER_TAGS = tuple(
    (seat.full_name, values.LIN_ORDER.index(seat)) for seat in (Seat.W, Seat.N, Seat.E, Seat.S)
)
"""The player tags in PBN's order, with each seat's place in a LIN list of names."""


def finish(r: Reading, acc: BoardState, source: str, headers_only: bool = False) -> Board:
    """The board; with ``headers_only``, its tags alone (no auction or play built)."""
    # LIN's commands made PBN's tags (no place of their own): plain, so kept as values
    tag_names: list[str] = []
    tag_values: list[str] = []
    diags = acc.diagnostics
    h = acc.header

    def tag(name: str, value: str | None) -> None:
        if value is not None:
            tag_names.append(name)
            tag_values.append(shared_value(name, value))

    vg = h.vg or []

    def vg_field(i: int) -> str | None:
        return vg[i].strip() if len(vg) > i and vg[i].strip() else None

    tag("Event", vg_field(0))
    tag("Stage", vg_field(1))
    tag("Board", acc.number)
    names = acc.names
    if names is None and h.pn is not None and len(h.pn) == 8:
        names = h.pn[4:] if acc.room == "Closed" else h.pn[:4]
    if names is None and h.pw and h.bn and acc.number in h.bn:
        size = len(h.pw) // len(h.bn)
        if size in (4, 8):
            i = h.bn.index(acc.number) * size + (4 if size == 8 and acc.room == "Closed" else 0)
            names = h.pw[i : i + 4]
    if names is not None and any(n.strip() for n in names):
        for name, place in _PLAYER_TAGS:
            tag(name, names[place] if place < len(names) else "")
    dealer = acc.dealer
    tag("Dealer", dealer.value if dealer else None)
    vul = acc.vulnerability
    if vul is not None:
        tag("Vulnerable", vul.value)
    elif acc.hands is not None:
        r.report(
            diags,
            info(
                "missing-tag",
                "no sv: vulnerability unknown",
                line=acc.md_line,
                column=acc.md_column,
            ),
        )
    deal: Deal | None = None
    if acc.deal_text is not None:  # a whole, sound deal (values.whole_deal): completed
        deal = make(Deal, hands=acc.hands, first=dealer)
        tag("Deal", acc.deal_text)
    elif acc.hands is not None:
        deal = make(Deal, hands=acc.hands, first=dealer or Seat.N)
        given = [h for h in acc.hands.values() if h is not None]
        distinct = len({c.index for h in given for c in h.cards})
        if distinct == 13 * len(given) == 39:
            deal = deal.completed()  # the fourth hand is implied (lin.md 6.1)
            distinct, given = 52, list(deal.hands.values())  # type: ignore[arg-type]
        if distinct != 13 * len(given) or (distinct == 52) is not (len(given) == 4):
            for problem in deal.problems():
                r.report(diags, error("deal", problem, line=acc.md_line, column=acc.md_column))
        if any(h is not None for h in deal.hands.values()):
            tag("Deal", deal.pbn(dealer or Seat.N))
    scoring = vg_field(2)
    if scoring is not None:
        tag("Scoring", values.SCORING.get(scoring.upper(), scoring))

    auction: Auction | None = None
    outcome: AuctionOutcome | None = None
    if headers_only:  # the tags the headers give, in the order of the whole board's
        tag("Room", acc.room)
        tag("HomeTeam", vg_field(5))
        tag("VisitTeam", vg_field(7))
        return make(
            Board,
            tags=Tags(tuple(tag_names), tag_values),
            format=FORMAT,
            index=acc.index,
            line=acc.line,
            source=source,
            diagnostics=tuple(diags),
        )
    if acc.entries:
        first = dealer
        if first is None:
            first = Seat.S
            r.report(
                diags,
                warning(
                    "missing-tag",
                    "calls without a dealer: South taken as dealer",
                    line=acc.entries[0].line,
                    column=acc.entries[0].column,
                ),
            )
        places: list[int] = []
        for e in acc.entries:
            places += (e.line, e.column)
        auction = make(
            Auction,
            first=first,
            entries=tuple(
                plain_entry(e.call)
                if not e.alert and e.explanation is None
                else interned(
                    make(
                        AuctionEntry,
                        kind=EntryKind.CALL,
                        call=e.call,
                        annotations=make(Annotations, alert=e.alert, explanation=e.explanation),
                    )
                )
                for e in acc.entries
            ),
            line=acc.entries[0].line,
            column=acc.entries[0].column,
            positions=pack(places),
        )
        if not acc.unknown_calls:
            found = auction_outcome(auction, first)
            if found.complete and found.contract is not None:
                outcome = found
    result: int | None = None
    play: Play | None = None
    if outcome is not None:
        if outcome.declarer is not None:
            tag("Declarer", outcome.declarer.value)
        tag("Contract", outcome.contract.text if outcome.contract else None)
    if acc.cards:
        play, result = build_play(r, acc, deal, outcome)
    if acc.claim is not None:
        result = acc.claim.tricks
    if result is not None and (outcome is None or outcome.declarer is not None):
        tag("Result", str(result))
    check_rs(r, acc, outcome, result)
    tag("Room", acc.room)
    tag("HomeTeam", vg_field(5))
    tag("VisitTeam", vg_field(7))
    settle(acc)  # the cards taken back, among the extras
    extras = [*h.extras, *acc.extras] if h.extras else acc.extras
    return make(
        Board,
        tags=Tags(tuple(tag_names), tag_values),
        auction=auction,
        play=play,
        escapes=tuple(acc.escapes),
        extras=Extras.of_rows(extras) if extras else (),
        format=FORMAT,
        index=acc.index,
        line=acc.line,
        source=source,
        diagnostics=tuple(diags),
    )


def build_play(
    r: Reading, acc: BoardState, deal: Deal | None, outcome: AuctionOutcome | None
) -> tuple[Play, int | None]:
    diags = acc.diagnostics
    first_card = acc.cards[0]
    declarer = outcome.declarer if outcome else None
    strain = outcome.contract.strain if outcome and outcome.contract else None
    if declarer is not None:
        leader = declarer.lho
    else:
        leader = Seat.W
        holder = None
        card = first_card.card
        if deal is not None and card is not None:
            holder = next((s for s, h in deal.hands.items() if h and card in h), None)
        leader = holder or leader
        r.report(
            diags,
            warning(
                "play",
                f"cards played without a contract: {leader.full_name} taken as the "
                "opening leader, tricks won as at notrump",
                line=first_card.line,
                column=first_card.column,
            ),
        )
    cards = resolve(r, acc, deal, leader, strain)
    placed = place_cards(leader, cards, strain, declarer)
    claim = acc.claim
    result: int | None = None
    if claim is None and placed.complete_tricks == 13 and declarer is not None:
        result = placed.declarer_tricks
    if len(cards) > 52:
        r.report(
            diags,
            error("play", f"{len(cards)} cards played, more than 52", line=first_card.line),
        )
    play = make(
        Play,
        first=leader,
        slots=placed.slots,
        end=PlayEnd.STOPPED if claim is not None else PlayEnd.OPEN,
        claim=claim,
        line=first_card.line,
        column=first_card.column,
        positions=placed.positions,
    )
    return play, result
