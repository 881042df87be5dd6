"""The PBN grammar (``grammars/pbn.lark``) alone, through Lark's LALR parser: the
structure it reads (games, tags, sections, their tokens), what it rejects and where Lark
says it stops, and that its row terminals change nothing in the language (a row of
calls or cards is its calls or cards one by one). Pure-Python Lark and lark-cython
read the same."""

from __future__ import annotations

import importlib.util
import logging
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark import Lark, Token, Tree, logger
from lark.exceptions import UnexpectedInput
from pbn_grammar_cases import ACCEPTED, GAME, REJECTED, TABLE_TAG

from bridgefiles.formats.pbn import grammar

ENGINES = ["python"] + (["cython"] if importlib.util.find_spec("lark_cython") else [])


@cache
def parser(engine: str) -> Lark:
    return grammar.build(None, engine)


def shape(node: Any) -> Any:
    """A tree as nested (rule, [children]) and (terminal, text) pairs, whatever the engine."""
    if isinstance(node, Tree):
        return (str(node.data), [shape(child) for child in node.children])
    return (node.type, str(node))


def parse(text: str, engine: str = "python") -> Any:
    return shape(parser(engine).parse(text, start="start"))


def section(text: str, engine: str = "python") -> list[tuple[str, str]]:
    """The tokens of the one section of a one-game text."""
    (_, [(_, [(_, tokens)])]) = parse(text, engine)
    return [tuple(t) for t in tokens]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_parser_is_lark_s_lalr_with_a_contextual_lexer(engine: str) -> None:
    lark = parser(engine)
    assert lark.options.parser == "lalr" and lark.options.lexer == "contextual"
    assert type(lark.parser.parser).__module__.startswith(
        "lark_cython" if engine == "cython" else "lark.parsers"
    )


def test_the_grammar_has_no_conflict(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lark resolves a shift/reduce conflict silently (as a shift): a grammar with one
    would read some text another way than its rules say."""
    said: list[str] = []
    monkeypatch.setattr(logger, "warning", lambda msg, *args: said.append(msg % args))
    level = logger.level
    logger.setLevel(logging.DEBUG)
    try:
        Lark(grammar.grammar_text(), parser="lalr", debug=True, start=list(grammar.STARTS))
    finally:
        logger.setLevel(level)
    assert [m for m in said if "conflict" in m.lower()] == []




@pytest.mark.parametrize("engine", ENGINES)
def test_a_file_is_games_of_tags_and_sections(engine: str) -> None:
    assert parse(GAME, engine) == (
        "start",
        [
            ("lead", [("ESCAPE", "% PBN 2.1")]),
            ("lead", [("COMMENT", "{a file's first comment}")]),
            (
                "game",
                [
                    ("tag", [("DEFAULT", '[Event "##Club night"]')]),
                    ("tag", [("INHERITED", '[Site "#"]')]),
                    ("tag", [("TAGS", '[Board "1"]\n[Dealer "N"]')]),
                    (
                        "auction",
                        [
                            ("AUCTION_TAG", '[Auction "N"]'),
                            ("COMMENT", "{after the tag}"),
                            ("CALLS", "1C Pass 1H =1=\nPass ! $3"),  # (with its annotations)
                            ("COMMENT", "{why}"),
                            ("INSUFFICIENT", "^I"),
                            ("CALL", "1D"),
                            ("SKIPPED", "^S"),
                            ("CALLS", "2S Pass Pass X"),
                            ("ALL_PASS", "AP"),
                        ],
                    ),
                    ("tag", [("TAG", '[Note "1:forcing"]')]),
                    (
                        "play",
                        [
                            ("PLAY_TAG", '[Play "E"]'),
                            ("CARDS", "D4 DK"),
                            ("REVOKE", "^R"),
                            ("CARDS", "H5 H7"),
                            ("LINE_COMMENT", ";a revoke"),
                            ("DASH", "-"),
                            ("DASH", "-"),
                            ("DASH", "-"),
                            ("CARD", "H2"),
                            ("NEXT", "+"),
                            ("DASH", "-"),
                            ("STOP", "*"),
                        ],
                    ),
                    (
                        "table",
                        [
                            ("TABLE_TAG", TABLE_TAG),
                            ("ELEMENT", "N"),
                            ("ELEMENT", "NT"),
                            ("ELEMENT", "6"),
                            ("ELEMENT", "S"),
                            ("STRING", '"C"'),
                            ("ELEMENT", "9"),
                        ],
                    ),
                ],
            ),
            (
                "game",
                [
                    ("tag", [("INHERITED", '[Event "#"]')]),
                    (
                        "tag",
                        [
                            ("TAG", '[UserSection "x"]'),
                            ("ELEMENT", "token"),
                            ("STRING", '"a string"'),
                        ],
                    ),
                ],
            ),
        ],
    )


def games(text: str) -> int:
    return sum(1 for kind, _ in parse(text)[1] if kind == "game")


@pytest.mark.parametrize(
    "text, count",
    [
        ('[A "1"]\n\n[B "2"]\n', 2),
        ('[A "1"]\n \t \n[B "2"]\n', 2),  # a semi-empty line: spaces and tabs only
        ('[A "1"]\r\n\r\n[B "2"]\r\n', 2),
        ('[A "1"]\r\r[B "2"]\r', 2),  # old Mac line ends
        ('[A "1"]\r\n[B "2"]\r\n', 1),  # CRLF is one line end, not a blank line
        ('[A "1"]\n{a\n\nb}\n[B "2"]\n', 1),  # a comment's blank line is the comment's
        ('[A "1"]\n%x\n[B "2"]\n', 1),  # an escape line ends no game
        ('{c}\n\n{d}\n\n[A "1"]\n\n{e}\n', 1),  # commentary alone is no game
        ('[A "1"]\n\v\n[B "2"]\n', 1),  # a vertical tab makes a line not semi-empty
        ("", 0),
    ],
)
def test_games_end_at_semi_empty_lines(text: str, count: int) -> None:
    assert games(text) == count


def test_an_escape_line_is_percent_in_column_one() -> None:
    assert section('[X "1"]\n%a\n') == [("TAG", '[X "1"]'), ("ESCAPE", "%a")]
    with pytest.raises(UnexpectedInput):
        parse('[X "1"] %a\n')


@pytest.mark.parametrize("engine", ENGINES)
def test_a_token_means_what_its_section_says(engine: str) -> None:
    """The contextual lexer: after a comment, ``4NT`` is a call in an auction and an
    element in a table; ``S2`` a card in the play."""
    assert section('[Auction "N"]\n{c} 4NT\n', engine)[2] == ("CALL", "4NT")
    assert section('[ScoreTable "Contract"]\n{c} 4NT\n', engine)[2] == ("ELEMENT", "4NT")
    assert section('[Play "N"]\n;c\nS2\n', engine)[2] == ("CARD", "S2")
    # after a comment or an annotation, each section's own terminals (its groups are
    # rules of their own, not shared with another section's: grammars/pbn.lark)
    assert section('[Auction "N"]\n1C {c} S2\n', engine)[3] == ("WORD", "S2")
    assert section('[Auction "N"]\n1C {c} =1= S2\n', engine)[4] == ("WORD", "S2")
    assert section('[Play "N"]\n{c} 4NT\n', engine)[2] == ("WORD", "4NT")
    assert section('[Play "N"]\nS2 {c} =1= 4NT\n', engine)[4] == ("WORD", "4NT")
    assert section('[Play "N"]\n^R ;c\n4NT\n', engine)[3] == ("WORD", "4NT")
    assert section('[Auction "N"]\n^I {c} SA\n', engine)[3] == ("WORD", "SA")
    assert section('[ScoreTable "Contract"]\n;c\nSA 4NT\n', engine)[2:] == [
        ("ELEMENT", "SA"), ("ELEMENT", "4NT"),
    ]  # fmt: skip


def test_a_row_is_calls_and_their_annotations_over_single_line_breaks() -> None:
    assert section('[Auction "N"]\n1C Pass\n1H  Pass\n\t2NT X\n') == [
        ("AUCTION_TAG", '[Auction "N"]'),
        ("CALLS", "1C Pass\n1H  Pass\n\t2NT X"),
    ]
    # a suffix, a note reference or a NAG after a call stays in the row (right after it
    # or after a blank or a line break); a mark or a comment ends a row; a blank line
    # ends the game
    assert section('[Auction "N"]\n1C 1D=1= 1H! $4\n?? 2C {c} 1S ^I 1C 2C\n')[1:] == [
        ("CALLS", "1C 1D=1= 1H! $4\n?? 2C"), ("COMMENT", "{c}"), ("CALL", "1S"),
        ("INSUFFICIENT", "^I"), ("CALLS", "1C 2C"),
    ]  # fmt: skip
    assert section('[Play "N"]\nSA! HK =2= D2 ^L C3\n')[1:] == [
        ("CARDS", "SA! HK =2= D2"), ("LEAD", "^L"), ("CARD", "C3"),
    ]  # fmt: skip
    # what is not an annotation as the grammar writes one ends the row before it
    assert section('[Auction "N"]\n1C =1=2C\n')[1:] == [("CALLS", "1C =1="), ("CALL", "2C")]
    with pytest.raises(UnexpectedInput) as stopped:
        parse('[Auction "N"]\n1C Pass\n\n1H Pass\n')
    assert (stopped.value.line, stopped.value.column) == (4, 1)


def test_a_row_of_tags_is_plain_pairs_over_single_line_breaks() -> None:
    """TAGS: two or more pairs, none that opens a section of its own or says ``#``, with
    no escape; what follows the row is its last pair's."""
    row = '[A "1"]\n[B "2"]  [C ""]\n\t[D "x y"]'
    assert parse(row + "\n") == ("start", [("game", [("tag", [("TAGS", row)])])])
    assert parse('[A "1"]\n[U "x"]\nel "s"\n') == (
        "start",
        [("game", [("tag", [("TAGS", '[A "1"]\n[U "x"]'), ("ELEMENT", "el"), ("STRING", '"s"')])])],
    )
    for other in ('[Auction "N"]', '[Play "N"]', '[ScoreTable "x"]', '[B "#"]', '[B "##x"]',
                  '[B "a\\"b"]', '[\nB "2"]', '[B\n"2"]'):  # fmt: skip
        kinds = [t for (_, tokens) in parse(f'[A "1"]\n{other}\n')[1][0][1] for t, _ in tokens]
        assert kinds[0] == "TAG" and "TAGS" not in kinds, other
    # a player named Auction is a plain pair, a comment or a blank line ends a row
    assert section('[A "1"] [Auctioneer "x"]\n')[0][0] == "TAGS"
    assert [t for (_, tokens) in parse('[A "1"] {c}\n[B "2"]\n')[1][0][1] for t, _ in tokens] == [
        "TAG", "COMMENT", "TAG",
    ]  # fmt: skip


def test_words_that_are_no_call_or_card_stand_where_one_does() -> None:
    """``1N``, ``Dbl`` or ``S10`` are tokens of the right shape in the wrong form: the
    reader says what they are (a dialect's call, or unknown); the grammar places them."""
    assert section('[Auction "N"]\n1N Dbl 1NT\n')[1:] == [
        ("WORD", "1N"), ("WORD", "Dbl"), ("CALL", "1NT"),
    ]  # fmt: skip
    assert section('[Play "N"]\nS10 SA\n')[1:] == [("WORD", "S10"), ("CARD", "SA")]




@pytest.mark.parametrize("text", ACCEPTED)
def test_what_pbn_allows_is_read(text: str) -> None:
    parse(text)




@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text, where, why", REJECTED, ids=[r[2] for r in REJECTED])
def test_the_grammar_rejects_what_is_structurally_wrong(
    engine: str, text: str, where: tuple[int, int], why: str
) -> None:
    with pytest.raises(UnexpectedInput) as stopped:
        parser(engine).parse(text, start="start")
    assert (stopped.value.line, stopped.value.column) == where, why


# -- rows change nothing in the language -----------------------------------------------

_CALLS = ["Pass", "X", "XX", "1C", "2D", "3H", "4S", "5NT", "pass", "7nt"]
_CARDS = ["SA", "HT", "D2", "C9", "sk", "hq"]
_NOTES = ["=1=", "$5", "!", "?!", "{c}"]


def _items(words: list[str]) -> Any:
    """Tokens where calls (or cards) stand: plain ones, some with an annotation after
    them, separated by blanks or single line breaks."""
    return st.lists(
        st.tuples(
            st.sampled_from(words),
            st.sampled_from(["", *_NOTES]),
            st.sampled_from([" ", "  ", "\t", "\n", " \n  "]),
        ),
        max_size=30,
    )


def _blank_split(tokens: list[tuple[str, str]]) -> list[str]:
    return [word for _, text in tokens for word in re.split(r"\s+", text) if word]


@pytest.mark.parametrize("play", [False, True], ids=["auction", "play"])
@given(data=st.data())
def test_a_row_is_its_calls_or_cards_one_by_one(play: bool, data: st.DataObject) -> None:
    items = data.draw(_items(_CARDS if play else _CALLS))
    tag = '[Play "N"]' if play else '[Auction "N"]'
    body = "".join(f"{word}{' ' if note else ''}{note}{gap}" for word, note, gap in items)
    tokens = section(f"{tag}\n{body}\n")[1:]
    written = [part for word, note, _ in items for part in (word, note) if part]
    assert _blank_split(tokens) == _blank_split([("", w) for w in written])
    singles = {"CALL", "CARD"}
    rows = {"CALLS", "CARDS"}
    for i, (kind, text) in enumerate(tokens):
        after = tokens[i + 1] if i + 1 < len(tokens) else ("END", "")
        if kind in rows:  # a row is two or more, and ends where a single would not go on
            assert len(text.split()) >= 2
        if kind in singles:
            assert after[0] not in singles | rows, "two plain ones in a row are a row"


@pytest.mark.parametrize("engine", ENGINES[1:])
def test_lark_cython_reads_what_pure_lark_reads(engine: str) -> None:
    for text in [GAME, *ACCEPTED]:
        assert parse(text, engine) == parse(text, "python")


def test_tokens_keep_their_line_and_column() -> None:
    tree = parser("python").parse('[A "1"]\n[Auction "N"]\n  1C Pass\n1D =1=\n', start="start")
    calls = [t for t in tree.scan_values(lambda v: isinstance(v, Token)) if t.type.startswith("C")]
    assert [(t.value, t.line, t.column) for t in calls] == [("1C Pass\n1D =1=", 3, 3)]
