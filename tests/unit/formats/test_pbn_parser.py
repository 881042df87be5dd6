"""The PBN parse (formats/pbn/parser.py): Lark's LALR parser hands each section and
game end to a builder as its rule completes; in lenient mode a token or piece of text
the grammar does not take in a section is passed over, marked, in its place (for the
reader to say what is wrong with it) and the section reads on; where a section cannot
go on (the game ends inside it) reading goes on at the next tag or game end; strict
mode stops at the first. Pure-Python Lark and lark-cython hand on the same."""

from __future__ import annotations

import importlib.util
import re

import pytest
from pbn_grammar_cases import ACCEPTED, GAME, REJECTED, Recorder

from bridgefiles.errors import StrictModeError
from bridgefiles.formats.pbn import parser

ENGINES = ["python"] + (["cython"] if importlib.util.find_spec("lark_cython") else [])


def read(text: str, engine: str = "python", strict: bool = False) -> Recorder:
    recorder = Recorder()
    parser.parse(text, recorder, strict=strict, which=engine)
    return recorder


def unspaced(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("engine", ENGINES)
def test_each_section_and_game_end_is_handed_on_as_it_completes(engine: str) -> None:
    seen = read(GAME, engine).seen
    assert [item[:2] for item in seen] == [
        ("lead", "ESCAPE"),
        ("lead", "COMMENT"),
        *[("section", "tag")] * 3,  # the last: a row of two pairs (TAGS)
        ("section", "auction"),
        ("section", "tag"),
        ("section", "play"),
        ("section", "table"),
        ("end",),
        ("section", "tag"),
        ("section", "tag"),
        ("end",),
    ]
    auction = seen[5][2]
    assert auction[:3] == (
        ("AUCTION_TAG", '[Auction "N"]', 8, 1),
        ("COMMENT", "{after the tag}", 8, 15),
        ("CALLS", "1C Pass 1H =1=\nPass ! $3", 9, 1),  # (the calls with their annotations)
    )


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text", ACCEPTED)
def test_nothing_is_rejected_in_what_pbn_allows(engine: str, text: str) -> None:
    recorder = read(text, engine)
    assert recorder.refused() == []
    assert unspaced("".join(recorder.texts())) == unspaced(text)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text, where, why", REJECTED, ids=[r[2] for r in REJECTED])
def test_lenient_reading_keeps_what_is_rejected_where_it_is_and_reads_on(
    engine: str, text: str, where: tuple[int, int], why: str
) -> None:
    recorder = read(text, engine)
    refused = recorder.refused()
    assert refused and refused[0][1:] == where, why
    assert unspaced("".join(recorder.texts())) == unspaced(text), "nothing is lost"
    assert recorder.seen[-1] == ("end",) or not any(i[0] == "section" for i in recorder.seen)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text, where, why", REJECTED, ids=[r[2] for r in REJECTED])
def test_strict_reading_stops_at_the_first(
    engine: str, text: str, where: tuple[int, int], why: str
) -> None:
    with pytest.raises(StrictModeError) as stopped:
        read(text, engine, strict=True)
    diag = stopped.value.diagnostic
    assert diag is not None and (diag.code, diag.line, diag.column) == ("syntax", *where)


def test_a_token_out_of_place_is_passed_over_in_its_place_and_the_section_reads_on() -> None:
    text = '[Event "x"]\n[Auction "N"]\n1C ^R 1D\n[Play "E"]\nSA\n\n[Event "y"]\n'
    seen = read(text).seen
    assert [i[0] for i in seen] == ["section"] * 3 + ["end", "section", "end"]
    assert seen[1][2][1:] == (("CALL", "1C", 3, 1), ("!ELEMENT", "^R", 3, 4), ("CALL", "1D", 3, 7))
    assert seen[2][2][1] == ("CARD", "SA", 5, 1)


def test_text_no_token_takes_is_passed_over_a_piece_at_a_time() -> None:
    text = '[Event "x"]\n[Auction "N"]\n1C\n}\n1D =x= $a\n\n[Event "y"]\n'
    seen = read(text).seen
    assert [i[0] for i in seen] == ["section", "section", "end", "section", "end"]
    assert seen[1][2][2:] == (
        ("!TEXT", "}", 4, 1),
        ("CALL", "1D", 5, 1),
        ("!ELEMENT", "=x=", 5, 4),
        ("!ELEMENT", "$a", 5, 8),
    )


def test_where_a_section_cannot_go_on_reading_goes_on_at_the_next_tag() -> None:
    text = '[Event "x"]\n[Auction "N"]\n1C ^I\n[Play "E"]\nSA\n'
    seen = read(text).seen
    assert [i[0] for i in seen] == ["section", "section", "rejected", "section", "end"]
    assert seen[1][2][-1] == ("INSUFFICIENT", "^I", 3, 4)
    assert seen[2][1:4] == ("", 4, 1)  # nothing is lost: the tag is read
    assert seen[3][2][1] == ("CARD", "SA", 5, 1)  # lines and columns go on from there


def test_every_broken_tag_pair_is_passed_over_and_reading_goes_on() -> None:
    """A thousand broken tag pairs: a thousand pieces passed over, each at its line, and
    the tag after them read."""
    text = '[Event "x"]\n' + "[Bad]\n" * 1000 + '[Site "y"]\n'
    recorder = read(text)
    assert [r[1] for r in recorder.refused()] == list(range(2, 1002))
    assert recorder.seen[-2] == ("section", "tag", (("TAG", '[Site "y"]', 1002, 1),))


def test_before_a_game_s_first_tag_what_no_token_takes_is_rejected() -> None:
    seen = read('hello [x\n[Event "y"]\n').seen
    assert seen[:2] == [("rejected", "hello", 1, 1, ""), ("rejected", "[x", 1, 7, "")]


@pytest.mark.parametrize("engine", ENGINES[1:])
def test_lark_cython_hands_on_what_pure_lark_hands_on(engine: str) -> None:
    for text in [GAME, *ACCEPTED, *(r[0] for r in REJECTED)]:
        assert read(text, engine).seen == read(text, "python").seen


@pytest.mark.parametrize("engine", ENGINES)
def test_a_parse_under_a_budget_passes_over_what_it_does_not_read_as_any_parse_does(
    engine: str,
) -> None:
    """A text longer than the budget is parsed a token at a time; what the grammar does
    not take is passed over there too (a tag pair cut open, then a section's stray)."""
    text = '[Event "' + "x" * 200 + '\n[Auction "N"]\n1C } 1D\n'
    recorder = Recorder()
    parser.parse(text, recorder, which=engine, budget=100)
    assert [r[1:] for r in recorder.refused()] == [(1, 1), (3, 4)]
    assert recorder.refused()[0][0].startswith('[Event "xxx')
    assert recorder.seen == read(text, engine).seen
