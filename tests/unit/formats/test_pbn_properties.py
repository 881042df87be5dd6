"""Property tests: generated boards survive export and reading back; any bytes at all
give boards and diagnostics, or a BridgeFileError, and nothing else."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pbn_content import normalise
from shared import CONFORMANCE, FIXTURES, files

import bridgefiles as bf
from bridgefiles.formats.pbn.sections import AUCTION_ONLY_NAGS, PLAY_ONLY_NAGS
from bridgefiles.formats.pbn.writer import export
from bridgefiles.model.annotations import SUFFIX_NAGS, Annotations, Comment, CommentKind, Note
from bridgefiles.model.auction import Auction, AuctionEnd, AuctionEntry, EntryKind
from bridgefiles.model.board import Board, Column, Table, TagPair
from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE
from bridgefiles.model.cards import ALL_CARDS
from bridgefiles.model.deal import Deal, Hand
from bridgefiles.model.play import Play, PlayedCard, PlayEnd, Slot
from bridgefiles.model.seats import ROTATION, Seat, Vulnerability, rotation_from
from bridgefiles.testing import fuzzing

seats = st.sampled_from(ROTATION)
words = st.text(alphabet="abcdefghij KLMNOP0123456789.,-'", min_size=0, max_size=20)
free_text = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126) | st.sampled_from("éøüÅ"),
    max_size=30,
)
brace_text = st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="}"), max_size=25
)


@st.composite
def comments(draw: st.DrawFn, follows: list[str | None]) -> tuple[Comment, ...]:
    out = []
    for _ in range(draw(st.integers(0, 2))):
        kind = draw(st.sampled_from([CommentKind.BRACE, CommentKind.LINE]))
        text = draw(brace_text if kind is CommentKind.BRACE else words)
        out.append(Comment(text=text, kind=kind, follows=draw(st.sampled_from(follows))))
    return tuple(out)


@st.composite
def annotation_sets(draw: st.DrawFn, play: bool, notes: int) -> Annotations:
    wrong = AUCTION_ONLY_NAGS if play else PLAY_ONLY_NAGS
    low = 7 if play else 1
    suffix = draw(st.none() | st.sampled_from(sorted(SUFFIX_NAGS)))
    allowed = [n for n in range(256) if n not in wrong and not (suffix and low <= n < low + 6)]
    nags = sorted(draw(st.sets(st.sampled_from(allowed), max_size=2)))
    note = draw(st.none() | st.integers(1, notes)) if notes else None
    follows: list[str | None] = [None, *(f"${n}" for n in nags)]
    if suffix:
        follows.append("suffix")
    if note:
        follows.append("note")
    return Annotations(suffix=suffix, note=note, nags=tuple(nags), comments=draw(comments(follows)))


calls = st.sampled_from([PASS, DOUBLE, REDOUBLE, *ALL_BIDS])


@st.composite
def auctions(draw: st.DrawFn, dealer: Seat) -> Auction:
    n_notes = draw(st.integers(0, 3))
    entries = []
    for _ in range(draw(st.integers(0, 10))):
        kind = draw(st.sampled_from([EntryKind.CALL] * 5 + [EntryKind.SKIP]))
        if kind is EntryKind.SKIP:
            entries.append(
                AuctionEntry(kind=kind, annotations=draw(annotation_sets(False, n_notes)))
            )
            continue
        call = draw(calls)
        entries.append(
            AuctionEntry(
                call=call,
                insufficient=call.is_bid and draw(st.booleans()),
                annotations=draw(annotation_sets(False, n_notes)),
            )
        )
    end = draw(st.sampled_from(list(AuctionEnd)))
    end_ann = draw(annotation_sets(False, n_notes)) if end is not AuctionEnd.OPEN else Annotations()
    notes = tuple(
        Note(index=i, text=draw(free_text), comments=draw(comments([None])))
        for i in range(1, n_notes + 1)
    )
    return Auction(
        first=dealer,
        entries=tuple(entries),
        end=end,
        end_annotations=end_ann,
        notes=notes,
        comments=draw(comments([None])),
    )


@st.composite
def plays(draw: st.DrawFn) -> Play:
    n_notes = draw(st.integers(0, 2))
    cards = draw(st.permutations(ALL_CARDS))[: draw(st.integers(0, 20))]
    slots = []
    for card in cards:
        if draw(st.integers(0, 9)) == 0:
            slots.append(PlayedCard(slot=Slot.UNKNOWN, annotations=draw(annotation_sets(True, 0))))
            continue
        mark = draw(st.sampled_from(["", "", "", "R", "L"]))
        slots.append(
            PlayedCard(
                card=card,
                revoke=mark == "R",
                lead_out_of_turn=mark == "L",
                annotations=draw(annotation_sets(True, n_notes)),
            )
        )
    end = draw(st.sampled_from(list(PlayEnd)))
    notes = tuple(Note(index=i, text=draw(free_text)) for i in range(1, n_notes + 1))
    return Play(
        first=draw(seats), slots=tuple(slots), end=end, notes=notes, comments=draw(comments([None]))
    )


@st.composite
def tables(draw: st.DrawFn) -> Table:
    names = draw(
        st.lists(
            st.sampled_from(["Rank", "PairId_NS", "Score_NS", "Contract", "Names_NS", "MP_NS"]),
            min_size=1,
            max_size=4,
            unique=True,
        )
    )
    columns = tuple(
        Column(
            name=n,
            width=draw(st.none() | st.integers(1, 8)),
            align=draw(st.none() | st.sampled_from(["L", "R"])),
        )
        for n in names
    )
    columns = tuple(c if c.width else c.model_copy(update={"align": None}) for c in columns)
    element = st.from_regex(r"[A-Za-z0-9^?.+-]{1,6}", fullmatch=True) | st.builds(
        lambda s: f'"{s}"', st.text(alphabet="abc ;XYZ", max_size=8)
    )
    rows = tuple(tuple(draw(element) for _ in columns) for _ in range(draw(st.integers(0, 4))))
    return Table(name="ScoreTable", columns=columns, rows=rows, comments=draw(comments([None])))


@st.composite
def boards(draw: st.DrawFn) -> Board:
    dealer = draw(seats)
    cards = draw(st.permutations(ALL_CARDS))
    hands = {s: Hand.of(cards[13 * i : 13 * i + 13]) for i, s in enumerate(ROTATION)}
    deal = Deal(hands=hands, first=draw(seats))
    vul = draw(st.sampled_from(["None", "NS", "EW", "All", "Love", "Both", "-"]))
    tags = [
        TagPair(name="Event", value=draw(free_text), comments=draw(comments([None]))),
        TagPair(name="Board", value=str(draw(st.integers(1, 99)))),
        TagPair(name="Dealer", value=dealer.value),
        TagPair(name="Vulnerable", value=vul),
        TagPair(name="Deal", value=deal.pbn(), comments=draw(comments([None]))),
        TagPair(name="Room", value=draw(st.sampled_from(["Open", "Closed"]))),
        TagPair(name="Annotator", value=draw(words)),
    ]
    if draw(st.booleans()):
        declarer = draw(seats)
        tags += [
            TagPair(name="Declarer", value=declarer.value),
            TagPair(name="Contract", value=draw(st.sampled_from(["3NT", "4HX", "1CXX"]))),
            TagPair(name="Result", value=str(draw(st.integers(0, 13)))),
        ]
    auction = draw(st.none() | auctions(dealer))
    play = draw(st.none() | plays())
    table_list = tuple(draw(st.lists(tables(), max_size=1)))
    return Board(
        tags=tuple(tags),
        auction=auction,
        play=play,
        tables=table_list,
        comments=draw(comments([None])),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(), min_size=1, max_size=3))
@example(  # a value of its own starting with '#' and holding a quote: written "###\\""
    [
        Board(
            tags=(
                TagPair(name="Event", value='#"'),
                TagPair(name="Board", value="1"),
                TagPair(name="Dealer", value="N"),
                TagPair(name="Vulnerable", value="None"),
                TagPair(
                    name="Deal",
                    value="N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432",
                ),
            )
        )
    ]
)
def test_generated_boards_round_trip_through_export(generated: list[Board]) -> None:
    text = "".join(export(generated))
    back = bf.loads(text, format="pbn")
    assert len(back.boards) == len(generated)
    for original, read in zip(generated, back.boards, strict=True):
        present = {t.name for t in original.tags}
        assert normalise(read, keep=present) == normalise(original)
        # a second export is a fixed point
    assert "".join(export(back.boards)) == text


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_any_bytes_give_boards_or_our_error(data: bytes) -> None:
    try:
        result = bf.loads(data, format="pbn")
    except bf.BridgeFileError as exc:
        assert not fuzzing.is_internal(exc), exc  # a bug of ours is no refusal
        return
    for board in result.boards:
        assert board.format == "pbn"


pbn_alphabet = st.sampled_from(
    list('[]{};%"\\ \t\r\n\nEventDealAuctionPlayNote#:.=$!?^*+-SHDCAKQJT98NSEWPassXAP12345670')
)


@settings(max_examples=300, deadline=None)
@given(st.lists(pbn_alphabet, max_size=300).map("".join), st.booleans())
def test_pbn_like_text_gives_boards_or_our_error(text: str, strict: bool) -> None:
    try:
        result = bf.loads(text, format="pbn", strict=strict)
    except bf.BridgeFileError as exc:
        assert not fuzzing.is_internal(exc), exc  # a bug of ours is no refusal
        return
    assert bf.dumps(result, "pbn", layout="preserve") == text
    bf.dumps(result, "pbn")


def _seed_files() -> list[bytes]:
    seeds = files(CONFORMANCE, ".pbn") + sorted(FIXTURES.glob("pbn-*"))
    return [p.read_bytes()[:6000] for p in seeds] or [b'[Event "x"]\n[Deal "N:- - - -"]\n']


SEEDS = _seed_files()


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(range(len(SEEDS))),
    st.lists(st.tuples(st.integers(0, 6000), st.integers(0, 3), st.binary(max_size=4)), max_size=8),
)
def test_mutated_files_give_boards_or_our_error(
    seed: int, edits: list[tuple[int, int, bytes]]
) -> None:
    data = bytearray(SEEDS[seed])
    for pos, cut, insert in edits:
        pos = min(pos, len(data))
        data[pos : pos + cut] = insert
    try:
        result = bf.loads(bytes(data), format="pbn")
    except bf.BridgeFileError as exc:
        assert not fuzzing.is_internal(exc), exc  # a bug of ours is no refusal
        return
    bf.dumps(result, "pbn")
    bf.dumps(result, "pbn", layout="preserve")


def test_seat_rotation_helper_is_consistent() -> None:
    assert rotation_from(Seat.W)[1] is Seat.N
    assert Vulnerability.parse("Both") is Vulnerability.ALL
