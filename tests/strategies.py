"""Hypothesis strategies: boards as models (legal and irregular), events as text, and
mutated real files, so the readers and writers meet what users upload."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import strategies as st
from shared import CONFORMANCE, CORPUS, REAL_PBN

from bridgefiles.model import (
    ALL_BIDS,
    ALL_CARDS,
    DOUBLE,
    PASS,
    REDOUBLE,
    ROTATION,
    Annotations,
    Auction,
    AuctionEnd,
    AuctionEntry,
    Board,
    Call,
    Card,
    Column,
    Comment,
    Deal,
    EntryKind,
    Hand,
    Note,
    Play,
    PlayedCard,
    PlayEnd,
    Seat,
    Table,
    TagPair,
    Vulnerability,
    rotation_from,
    trick_winner,
)
from bridgefiles.testing import fuzzing, synthetic

seats = st.sampled_from(ROTATION)
# Latin-1 text (what PBN carries by the standard) without the characters that
# delimit the structures the text sits in; tabs and line ends left out too.
latin1_text = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_categories=["Cc"]),
    max_size=30,
)
comment_text = latin1_text.map(lambda s: s.replace("}", "").replace("{", "").strip()).filter(bool)
# A value starting with '#' is PBN's inheritance mark; writing one verbatim is a known
# PBN writer issue covered by tests/unit/formats/test_pbn_properties.py, so it is left out here.
tag_value = latin1_text.map(lambda s: s.replace("\\", "").replace('"', "").lstrip("#"))
tag_name = st.from_regex(r"[A-Z][a-z]{2,9}", fullmatch=True).filter(
    lambda n: (
        n
        not in {
            "Auction",
            "Play",
            "Note",
            "Deal",
            "Dealer",
            "Vulnerable",
            "Contract",
            "Declarer",
            "Result",
            "Board",
            "Event",
            "Site",
            "Date",
            "West",
            "North",
            "East",
            "South",
            "Scoring",
            "Score",
            "Room",
            "Stage",
            "Section",
            "Round",
            "Table",
            "Time",
            "Annotator",
            "Mode",
            "Termination",
            "Application",
            "Generator",
            "Competition",
            "Hidden",
            "Frequency",
            "Description",
            "Analysis",
        }
        and not n.endswith("Table")
    )
)


@st.composite
def deals(draw: st.DrawFn, complete: bool = True) -> Deal:
    """Four hands of 13 from a shuffled pack (or, sometimes, one hand unknown)."""
    pack = list(draw(st.permutations(ALL_CARDS)))
    hands: dict[Seat, Hand | None] = {
        seat: Hand.of(pack[13 * i : 13 * i + 13]) for i, seat in enumerate(ROTATION)
    }
    if not complete and draw(st.booleans()):
        hands[draw(seats)] = None
    return Deal(hands=hands, first=draw(seats))


@st.composite
def auctions(
    draw: st.DrawFn, dealer: Seat, irregular: bool = True
) -> tuple[Auction, Call | None, Seat | None, int]:
    """A legal auction (sometimes with an accepted insufficient bid or a skipped turn),
    with suffixes, NAGs, notes and commentary. Returns the auction, the final bid,
    declarer and the risk (0, 1 for X, 2 for XX)."""
    entries: list[AuctionEntry] = []
    notes: list[Note] = []
    last: Call | None = None
    last_seat: Seat | None = None
    risk = 0
    passes = 0
    first_bidder: dict[tuple[str, object], Seat] = {}
    position = 0
    while True:
        seat = dealer.offset(position)
        choices: list[Call] = [PASS]
        start = last.index + 1 if last is not None else 0
        if start < 35:
            choices += [ALL_BIDS[i] for i in range(start, min(35, start + 4))]
        if last is not None and last_seat is not None:
            if risk == 0 and last_seat.side is not seat.side:
                choices.append(DOUBLE)
            if risk == 1 and last_seat.side is seat.side:
                choices.append(REDOUBLE)
        weights_pass = draw(st.integers(0, 9)) < (6 if position > 3 else 4)
        call = PASS if weights_pass else draw(st.sampled_from(choices))
        insufficient = False
        kind = EntryKind.CALL
        if irregular and last is not None and last.index > 0 and draw(st.integers(0, 40)) == 0:
            call = ALL_BIDS[draw(st.integers(0, last.index - 1))]
            insufficient = True  # PBN ^I: an insufficient bid, accepted (Law 27A)
        annotations = Annotations()
        if draw(st.integers(0, 6)) == 0:
            index = len(notes) + 1
            notes.append(Note(index=index, text=draw(comment_text)))
            annotations = Annotations(note=index)
        elif draw(st.integers(0, 10)) == 0:
            annotations = Annotations(suffix=draw(st.sampled_from(["!", "?", "!!", "??", "!?"])))
        elif draw(st.integers(0, 10)) == 0:
            annotations = Annotations(nags=(draw(st.integers(1, 255)),))
        if draw(st.integers(0, 15)) == 0:
            annotations = annotations.model_copy(
                update={"comments": (Comment(text=draw(comment_text)),)}
            )
        if irregular and draw(st.integers(0, 60)) == 0 and position > 0:
            entries.append(AuctionEntry(kind=EntryKind.SKIP))  # PBN ^S
            position += 1
            seat = dealer.offset(position)
        entries.append(
            AuctionEntry(kind=kind, call=call, insufficient=insufficient, annotations=annotations)
        )
        position += 1
        if call.is_bid:
            last, last_seat, risk, passes = call, seat, 0, 0
            key = (seat.side.value, call.strain)
            first_bidder.setdefault(key, seat)
        else:
            risk, passes = synthetic.after_call(call, risk, passes)
        if synthetic.auction_over(last, passes):
            break
        if position > 60:
            break
    declarer = None
    if last is not None and last_seat is not None:
        declarer = first_bidder[(last_seat.side.value, last.strain)]
    auction = Auction(first=dealer, entries=tuple(entries), notes=tuple(notes), end=AuctionEnd.OPEN)
    return auction, last, declarer, risk


@st.composite
def plays(
    draw: st.DrawFn, deal: Deal, declarer: Seat, contract: Call, irregular: bool = True
) -> tuple[Play, int]:
    """Play from the deal, following suit; sometimes a revoke (PBN ^R), sometimes a claim
    (the play stops with ``*``). Returns the play and declarer's tricks."""
    hands = {s: list(h.cards) if h is not None else [] for s, h in deal.hands.items()}
    leader = declarer.lho
    won = 0
    slots: dict[int, PlayedCard] = {}
    stop_at = draw(st.one_of(st.none(), st.integers(0, 12)))
    tricks = 0
    for trick in range(13):
        if stop_at is not None and trick == stop_at:
            break
        cards: list[Card] = []
        for seat in rotation_from(leader):
            hand = hands[seat]
            follow = [c for c in hand if cards and c.suit is cards[0].suit]
            revoke = False
            pool = follow or hand
            if irregular and follow and len(follow) < len(hand) and draw(st.integers(0, 80)) == 0:
                pool = [c for c in hand if c not in follow]
                revoke = True
            card = pool[draw(st.integers(0, len(pool) - 1))]
            hand.remove(card)
            cards.append(card)
            first = declarer.lho
            slots[4 * trick + (seat.order - first.order) % 4] = PlayedCard(card=card, revoke=revoke)
        leader = trick_winner(leader, cards, contract.strain)
        tricks += 1
        if leader.side is declarer.side:
            won += 1
    ordered = tuple(slots[i] for i in sorted(slots))
    stopped = stop_at is not None
    total = won + (draw(st.integers(0, 13 - tricks)) if stopped else 0)
    play = Play(first=declarer.lho, slots=ordered, end=PlayEnd.STOPPED if stopped else PlayEnd.OPEN)
    return play, total


@st.composite
def tables(draw: st.DrawFn) -> Table:
    """A small ScoreTable-like section: numbers and quoted strings."""
    columns = (
        Column(name="Rank", width=2, align="R"),
        Column(name="PairId_NS"),
        Column(name="Score"),
    )
    rows = draw(
        st.lists(
            st.tuples(
                st.integers(1, 99).map(str),
                st.integers(1, 40).map(lambda n: f'"{n}"'),
                st.integers(-7600, 7600).map(str),
            ),
            min_size=1,
            max_size=4,
        )
    )
    return Table(name="ScoreTable", columns=columns, rows=tuple(rows))


@st.composite
def boards(draw: st.DrawFn, irregular: bool = True, with_tables: bool = True) -> Board:
    """A played board as a model: tags, deal, auction, play, notes, commentary, tables."""
    number = draw(st.integers(1, 36))
    dealer = ROTATION[(number - 1) % 4]
    deal = draw(deals())
    auction, last, declarer, risk = draw(auctions(dealer, irregular))
    tags = [
        TagPair(name="Event", value=draw(tag_value)),
        TagPair(name="Site", value=draw(tag_value)),
        TagPair(name="Date", value="2026.11.30"),
        TagPair(name="Board", value=str(number)),
        *(
            TagPair(name=s.full_name, value=draw(tag_value))
            for s in (Seat.W, Seat.N, Seat.E, Seat.S)
        ),
        TagPair(name="Dealer", value=dealer.value),
        TagPair(name="Vulnerable", value=draw(st.sampled_from(list(Vulnerability))).value),
        TagPair(name="Deal", value=deal.pbn(dealer)),
        TagPair(name="Scoring", value="MP"),
    ]
    play = None
    if last is not None and declarer is not None:
        contract = last.text + ("X" * risk)
        play, tricks = draw(plays(deal, declarer, last, irregular))
        tags += [
            TagPair(name="Declarer", value=declarer.value),
            TagPair(name="Contract", value=contract),
            TagPair(name="Result", value=str(tricks)),
        ]
    else:
        tags += [
            TagPair(name="Declarer", value=""),
            TagPair(name="Contract", value="Pass"),
            TagPair(name="Result", value=""),
        ]
    for _ in range(draw(st.integers(0, 2))):
        tags.append(TagPair(name=draw(tag_name), value=draw(tag_value)))
    comments: tuple[Comment, ...] = ()
    if draw(st.integers(0, 3)) == 0:
        comments = (Comment(text=draw(comment_text)),)
    found_tables = (draw(tables()),) if with_tables and draw(st.integers(0, 4)) == 0 else ()
    unique: dict[str, TagPair] = {}
    for t in tags:  # an extra tag may draw a name twice: keep the first
        unique.setdefault(t.name, t)
    tags = list(unique.values())
    return Board(
        tags=tuple(tags), auction=auction, play=play, comments=comments, tables=found_tables
    )


@st.composite
def events(draw: st.DrawFn) -> tuple[str, str]:
    """A synthetic event as PBN or LIN text: (format, text)."""
    seed = draw(st.integers(0, 1 << 30))
    count = draw(st.integers(1, 4))
    fmt = draw(st.sampled_from(["pbn", "lin"]))
    generated = list(synthetic.generate(count, seed=seed, tables=draw(st.sampled_from([1, 2]))))
    text = "".join(synthetic.to_pbn(generated) if fmt == "pbn" else synthetic.to_lin(generated))
    return fmt, text


def pbn_params() -> list[Any]:
    """Every real PBN file and every conformance file, one pytest param each (skipped,
    saying why, when the corpus is absent)."""
    if not CORPUS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{CORPUS} is absent"))]
    paths = [
        *sorted((REAL_PBN).glob("*.pbn")),
        *sorted((CONFORMANCE).glob("*.pbn")),
    ]
    return [pytest.param(p, id=p.name) for p in paths]


def corpus_files() -> list[tuple[str, bytes]]:
    """The shared corpus (real and conformance files); empty when it is absent."""
    if not CORPUS.is_dir():
        return []
    return [
        (p.name, p.read_bytes())
        for p in sorted(CORPUS.rglob("*"))
        if p.is_file() and p.suffix.lower() in (".pbn", ".lin")
    ]


@st.composite
def mutated(draw: st.DrawFn, seeds: list[tuple[str, bytes]]) -> bytes:
    """A seed file (a window of it) changed by the fuzz mutators, driven by hypothesis."""
    rng = random.Random(draw(st.integers(0, 1 << 62)))
    _name, data = draw(st.sampled_from(seeds))
    piece = fuzzing.window(rng, data, 2048)
    return fuzzing.mutate(rng, piece, [d for _, d in seeds[:40]])
