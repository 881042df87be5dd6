"""The card masks of a whole, sound deal: the PBN reader's quick check of the Deal tag
(``tags.check_deal_masks``) finds what check_deal finds, its masks are
``whole_deal_masks`` of the tag, and ``Board.deal_masks`` is worked out from the board's
own Deal tag (a copy with another deal never sees the old masks)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import deals, pbn_params

import bridgefiles as bf
from bridgefiles.formats.pbn.tags import check_deal, check_deal_masks
from bridgefiles.model import Board, Seat, TagPair
from bridgefiles.model import deal as deal_module
from bridgefiles.model.deal import Deal, whole_deal_masks

WHOLE = "N:K32.A7.8653.KQT2 AQ876.9654.KJT.A J95.QJ32.74.9743 T4.KT8.AQ92.J865"


def _same_as_check_deal(value: str) -> None:
    found, masks = check_deal_masks(value)
    assert found == check_deal(value)
    if masks is not None:
        assert masks == whole_deal_masks(value)
        assert found == []


@pytest.mark.parametrize("path", pbn_params())
def test_masks_read_with_the_tag_on_the_corpus(path: Path) -> None:
    for board in bf.read(path.read_bytes(), format="pbn"):
        text = board.tag("Deal")
        if text:
            _same_as_check_deal(text)
        assert board.deal_masks == (whole_deal_masks(text) if text else None)


def test_a_board_s_masks_are_its_deal_s() -> None:
    text = f'[Board "1"]\n[Deal "{WHOLE}"]\n\n[Board "2"]\n[Deal "{WHOLE[:-1]}"]\n'
    first, second = bf.read(text.encode(), format="pbn")
    assert first.deal_masks == whole_deal_masks(WHOLE) is not None
    assert second.deal_masks is None  # a card short: not a whole deal
    assert [d.code for d in second.diagnostics] == ["deal"]


def test_a_copy_with_another_deal_reads_its_own() -> None:
    board = next(iter(bf.read(f'[Board "1"]\n[Deal "{WHOLE}"]\n'.encode(), format="pbn")))
    assert board.deal_masks == whole_deal_masks(WHOLE)
    other = "E" + WHOLE[1:]
    tags = tuple(TagPair(name=t.name, value=other) if t.name == "Deal" else t for t in board.tags)
    copy: Board = board.model_copy(update={"tags": tags})
    assert copy.deal_masks == whole_deal_masks(other) != board.deal_masks


_RANKS = st.text(alphabet="AKQJT98765432akqjt10-x", max_size=6)


@settings(max_examples=400, deadline=None)
@given(
    seat=st.sampled_from("NESWnx"),
    hands=st.lists(
        st.one_of(st.just("-"), st.lists(_RANKS, min_size=3, max_size=5).map(".".join)),
        min_size=3,
        max_size=5,
    ),
    sep=st.sampled_from([" ", "  "]),
)
def test_check_deal_masks_is_check_deal_on_any_text(seat: str, hands: list[str], sep: str) -> None:
    _same_as_check_deal(f"{seat}:{sep.join(hands)}")


_VARIANTS = {
    "as written": lambda v: v,
    "lower case": lambda v: v[:2] + v[2:].lower(),
    "10 for T": lambda v: v.replace("T", "10"),
    "two spaces": lambda v: v.replace(" ", "  ", 1),
    "space before": lambda v: " " + v,
    "space after": lambda v: v + " ",
    "seat in lower case": lambda v: v[0].lower() + v[1:],
    "ranks in any order": lambda v: v[:2] + ".".join(s[::-1] for s in v[2:].split(".")),
}


@settings(max_examples=300, deadline=None)
@given(deal=deals(), variant=st.sampled_from(sorted(_VARIANTS)))
def test_check_deal_masks_on_whole_deals(deal: Deal, variant: str) -> None:
    value = _VARIANTS[variant](deal.pbn())
    _same_as_check_deal(value)
    if variant == "as written":
        assert check_deal_masks(value)[1] is not None


def _masks_of(deal: Deal) -> tuple[int, ...]:
    hands = [deal.hands[seat] for seat in (Seat.N, Seat.E, Seat.S, Seat.W)]
    return tuple(sum(1 << c.index for c in hand.cards) if hand else 0 for hand in hands)


@settings(max_examples=300, deadline=None)
@given(
    deal=deals(),
    variant=st.sampled_from(sorted(_VARIANTS)),
    first=st.sampled_from("NESWnesw\u017f"),
    swap=st.booleans(),
)
def test_whole_deal_masks_are_the_deal_s_hands(
    deal: Deal, variant: str, first: str, swap: bool
) -> None:
    """Any first seat and spelling: the masks are the hands Deal.parse reads, or None
    exactly when the text is no whole, sound deal (a card moved to another hand)."""
    seat, rest = first + ":", deal.pbn()[2:]
    if swap and rest[0] != ".":  # a spade moved to the first hand: 14 cards and 12
        first_hand, second_hand, *others = rest.split(" ")
        moved = second_hand.split(".")[0][:1]
        if moved:
            second_hand = second_hand.replace(moved, "", 1)
            rest = " ".join([moved + first_hand, second_hand, *others])
    value = _VARIANTS[variant](seat + rest)
    masks = whole_deal_masks(value)
    try:
        parsed: Deal | None = Deal.parse(value)
    except ValueError:
        parsed = None
    if parsed is None or parsed.problems() or not parsed.is_complete:
        assert masks is None
    else:
        assert masks == _masks_of(parsed)



def test_the_masks_of_a_deal_just_read_are_not_worked_out_again() -> None:
    """The reader checks a Deal by its masks; the validation of the same board, which
    follows, asks for them again and gets the value kept, not a second pass."""
    deal_module._RECENT.clear()
    text = WHOLE.replace("N:", "E:")
    board = bf.loads(f'[Board "1"]\n[Deal "{text}"]\n', format="pbn").boards[0]
    assert deal_module._RECENT.get(text) is board.deal_masks  # kept by the reader's check
    # what is not a whole, sound deal is not kept, and still reads as None
    unsound = WHOLE.replace("K32", "K33")
    assert whole_deal_masks(unsound) is None and deal_module._RECENT.get(unsound) is None


@given(st.lists(deals(), min_size=1, max_size=80))
@settings(max_examples=40, deadline=None)
def test_kept_masks_are_each_deal_s_own(dealt: list[Deal]) -> None:
    """Whatever deals came before (more than the table keeps), each deal's masks are the
    ones worked out for its own text."""
    texts = [deal.pbn() for deal in dealt]
    for text in texts:
        whole_deal_masks(text)
    for text in reversed(texts):
        assert whole_deal_masks(text) == deal_module._deal_masks(text)
