"""The LIN grammar (``grammars/lin.lark``) alone, through Lark's LALR parser: the records
it reads (each command to its kind), what it rejects and where Lark says it stops; then
the reader's one path over it: lenient reading keeps what the grammar rejects, strict
reading stops at the first, and pure-Python Lark and lark-cython give the same boards."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedCharacters
from shared import FIXTURES, REAL_LIN, files

import bridgefiles as bf
from bridgefiles.errors import StrictModeError
from bridgefiles.formats.lin import parser
from bridgefiles.formats.lin.commands import Chunk

ENGINES = ["python"] + (["cython"] if importlib.util.find_spec("lark_cython") else [])


class Kinds:
    """Callbacks that note each record's rule and terminal."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, str]] = []

    def __getattr__(self, rule: str) -> Any:
        if not rule.islower() or rule.startswith("_"):  # a rule's name; no terminal's
            raise AttributeError(rule)

        def note(children: list[Any]) -> None:
            if rule != "start":
                token = children[0]
                self.seen.append((rule, token.type, token.value))

        return note


@cache
def grammar(engine: str) -> tuple[Lark, Kinds]:
    kinds = Kinds()
    return parser.build(kinds, engine), kinds


def records(text: str, engine: str = "python") -> list[tuple[str, str, str]]:
    lark, kinds = grammar(engine)
    kinds.seen = []
    lark.parse(text)
    return kinds.seen


@pytest.mark.parametrize("engine", ENGINES)
def test_the_parser_is_lark_s_lalr(engine: str) -> None:
    lark, _ = grammar(engine)
    assert lark.options.parser == "lalr"
    assert type(lark.parser.parser).__module__.startswith(
        "lark_cython" if engine == "cython" else "lark.parsers"
    )
    assert {t.name for t in lark.terminals} >= {"DEALS", "CALLS", "CARDS", "PLAY", "CLAIM"}


@pytest.mark.parametrize("engine", ENGINES)
def test_each_command_is_read_as_its_kind(engine: str) -> None:
    text = (
        "vg|Cup,R1,I,1,2,A,0,B,0|rs|3NN=,|\npn|a,b,c,d|st||md|1SAK,HAK,,|sv|o|ah|Board 1|"
        "mb|1S!|an|strong|mb|p|pg||pc|SA|pc|s2|pg||\npc|H|up|1|mc|9|zz|x|qx|o1|"
    )
    assert [(rule, kind) for rule, kind, _ in records(text, engine)] == [
        ("header", "HEADER"),
        ("header", "HEADER"),
        ("deal", "DEALS"),  # pn, st, md, sv and ah: one run
        ("auction", "CALLS"),  # the calls, the alert's explanation and the pause: one run
        ("play", "CARDS"),  # plain cards and a pause on one line: one run
        ("play", "PLAY"),  # a line break before it, and a suit alone
        ("undo", "UNDO"),
        ("claim", "CLAIM"),
        ("other", "PAIR"),
        ("deal", "DEALS"),  # qx
    ]
    # the runs are whole: every pair of the text is in one record
    assert "".join(value for _, _, value in records(text, engine)).replace("\n", "") == (
        text.replace("\n", "")
    )


def test_lark_cython_is_used_when_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(parser.ENGINE_VARIABLE, raising=False)
    assert parser.engine() == ENGINES[-1]  # cython whenever it imports
    monkeypatch.setenv(parser.ENGINE_VARIABLE, "python")
    assert parser.engine() == "python"


@pytest.mark.parametrize("engine", ENGINES)
def test_names_in_any_case_and_blanks_before_them(engine: str) -> None:
    got = records("MD|3S2,,,|\n\t Sv|O|  MC|13|\n", engine)
    assert [(rule, value) for rule, _, value in got] == [
        ("deal", "MD|3S2,,,|\n\t Sv|O|"),
        ("claim", "  MC|13|"),
    ]


REJECTED = [
    # text, where Lark stops (line, column)
    ("hello world\n", (1, 1)),  # free text, no bar
    ("pn|a,b,c,d|hello", (1, 12)),  # free text after a command
    ("md|3S2,,,|\n  hello pn|a,b,c,d|", (2, 3)),  # stray text before a name
    ("pn|a,b,c,d|||", (1, 12)),  # a name of no characters
    ("pn|a,b,c,d|x|y|", (1, 12)),  # a name of one character
    ("sv|o|pn|a,b,c,d", (1, 6)),  # a value with no closing bar
    ("mb|1S|mb|p|pnx|a|", (1, 12)),  # a name of three characters
]

VALUES_REJECTED = [  # the values of the core commands (lin.md 6)
    # text, where Lark stops (line, column)
    ("mb|1Z|", (1, 1)),  # not a call
    ("mb|1S|mb||", (1, 7)),  # an empty call
    ("mb|p|mb|ppS|", (1, 6)),  # calls run together, then a suit letter alone
    ("pc|SA|pc|X9|", (1, 7)),  # not a card
    ("pc|S1|", (1, 1)),  # a rank of one digit that is not a ten
    ("pc||", (1, 1)),  # an empty card
    ("sv|o|\nmc|all|", (2, 1)),  # a claim is a count of tricks
    ("mc||", (1, 1)),
    ("sv|q|", (1, 1)),  # not a vulnerability
    ("md|5SAK,,,|", (1, 1)),  # dealer digit 5
    ("pn|a,b,c,d|md|3KQ,SA,,|", (1, 12)),  # a rank before the first suit letter
    ("md|3S2,H2,D2,C2,S3|", (1, 1)),  # five hands
    ("md|1S2x,,,|", (1, 1)),  # a letter that is no suit or rank
    ("md|3SAß,,,|", (1, 1)),  # no letter but SHDC reads as a suit (not `ß` as SS)
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text, where", REJECTED + VALUES_REJECTED)
def test_the_grammar_rejects_what_is_not_a_record(
    engine: str, text: str, where: tuple[int, int]
) -> None:
    """A text that is no command pair, or a core command whose value is not one."""
    lark, _ = grammar(engine)
    with pytest.raises(UnexpectedCharacters) as stopped:
        lark.parse(text)
    assert (stopped.value.line, stopped.value.column) == where


@pytest.mark.parametrize("text, where", REJECTED[1:])  # the first has no board: below
def test_lenient_reading_keeps_the_rejected_text_and_says_where(
    text: str, where: tuple[int, int]
) -> None:
    loaded = bf.loads(text, format="lin")
    found = [d for b in loaded.boards for d in b.diagnostics] + list(loaded.diagnostics)
    assert any(d.code == "syntax" and (d.line, d.column) == where for d in found)
    assert bf.dumps(loaded, format="lin", layout="preserve") == text  # nothing lost


@pytest.mark.parametrize("text, where", REJECTED)
def test_strict_reading_stops_at_the_first_rejection(text: str, where: tuple[int, int]) -> None:
    with pytest.raises(StrictModeError) as stopped:
        bf.loads(text, format="lin", strict=True)
    diag = stopped.value.diagnostic
    assert diag is not None and (diag.line, diag.column) == where
    assert diag.code == "syntax"


def test_text_with_no_command_is_no_board() -> None:
    loaded = bf.loads(REJECTED[0][0], format="lin")
    assert not loaded.boards and loaded.preamble == REJECTED[0][0]
    assert [d.message[:9] for d in loaded.diagnostics] == ["no board:"]


def test_reading_goes_on_at_the_next_record() -> None:
    board = bf.loads("pn|a,b,c,d|junk md|3S2,H2,D2,|x|y|sv|b|\n", format="lin").boards[0]
    assert board.dealer is not None and board.dealer.value == "N"
    assert board.tag("Vulnerable") == "All"
    assert [(e.key, e.value) for e in board.extras] == [("", "junk"), ("x", "y")]


def _real() -> list[Path]:
    return files(REAL_LIN, ".lin") + files(FIXTURES, ".lin")


def _dump(path: Path) -> list[Any]:
    loaded = bf.load(path)
    return [b.model_dump(mode="json") for b in loaded.boards] + [
        d.model_dump(mode="json") for d in loaded.diagnostics
    ]


@pytest.mark.skipif(len(ENGINES) < 2, reason="lark-cython is not installed")
@pytest.mark.parametrize("path", _real(), ids=lambda p: p.name)
def test_both_engines_read_the_same_boards(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(parser.ENGINE_VARIABLE, "python")
    assert parser.engine() == "python"
    by_python = _dump(path)
    monkeypatch.delenv(parser.ENGINE_VARIABLE)
    assert parser.engine() == "cython"
    assert _dump(path) == by_python


PIECES = st.sampled_from(
    [
        *("pn|a,b,c,d|", "md|3S2,H2,D2,|", "mb|1S|", "an|x|", "pc|SA|", "pg||", "mc|7|"),
        *("up|1|", "zz|q|", "||", "|", "junk", "vg|a,b,I,1,2,x,0,y,0|", "\n", " ", "\xa0"),
        *("nt|a\nb|", "\npc|H2|"),
    ]
)


@pytest.mark.skipif(len(ENGINES) < 2, reason="lark-cython is not installed")
@settings(max_examples=150)
@given(st.lists(PIECES, max_size=40).map("".join))
def test_both_engines_read_any_text_the_same(text: str) -> None:
    got = []
    for engine in ENGINES:
        chunk = Chunk(text, 0)
        parser.parse_chunk(chunk, 1, which=engine)
        got.append(chunk.items)
    assert got[0] == got[1]
    assert got[0] or not text.strip()


def test_threads_read_with_a_parser_each() -> None:
    """One parser a thread (its callbacks hold the chunk being parsed): files read at the
    same time in two threads give what each gives alone."""
    from concurrent.futures import ThreadPoolExecutor

    texts = [
        "".join(
            f"pn|a,b,c,d|md|{d}S2,H2,D2,|sv|o|mb|1S|mb|p|mb|p|mb|p|pc|S2|junk{i}\n"
            for i in range(400)
        )
        for d in "1234"
    ]

    def read(text: str) -> list[Any]:
        return [b.model_dump(mode="json") for b in bf.loads(text, format="lin").boards]

    alone = [read(t) for t in texts]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(read, texts))
    assert together == alone
    assert len(alone[0]) == 400 and alone[0][1]["extras"][0]["value"] == "junk0"


# -- the values of the core commands (lin.md 6) -------------------------------------------


VALUES_READ = [
    "mb|1NT|mb|2N!|an|strong|mb|P|mb|x|mb|XX|mb|pass|",  # the spellings lin.md 6.2 lists
    "mb|p1cppp|mb|?|mb|--1S--|mb| 2d! |",  # movie forms: several calls, a placeholder
    "pc|S10|pc|s2hdc|pc|!da|pc|H|pc| ca |",  # a ten; several cards, unknown, a suit alone
    "md|0S2,,,|md|3s10 9 H a,,,|md||md|2SA,HA,DA,CA,,,|",  # an edit, blanks, no hands
    "sv||sv|Both|sv| NS |sv|0|sv|-|",  # empty (the reader's finding), words, any case
    "mc| 13 |mc|14|",  # how many tricks a claim may be is the reader's to judge
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("text", VALUES_READ)
def test_the_grammar_reads_every_form_lin_md_gives(engine: str, text: str) -> None:
    assert "".join(value for _, _, value in records(text, engine)) == text


@pytest.mark.parametrize("text, where", VALUES_REJECTED)
def test_a_value_not_read_is_kept_and_the_reader_says_what_is_wrong(
    text: str, where: tuple[int, int]
) -> None:
    loaded = bf.loads(text, format="lin")
    found = [d for b in loaded.boards for d in b.diagnostics] + list(loaded.diagnostics)
    assert any(
        d.code == "tag-value" and d.severity == "error" and (d.line, d.column) == where
        for d in found
    ), [d.format() for d in found]
    assert bf.dumps(loaded, format="lin", layout="preserve") == text  # nothing lost
    with pytest.raises(StrictModeError) as stopped:
        bf.loads(text, format="lin", strict=True)
    diag = stopped.value.diagnostic
    assert diag is not None and diag.code == "tag-value" and (diag.line, diag.column) == where


def test_an_alert_belongs_to_the_call_right_before_it() -> None:
    """``an`` right after ``mb`` is the call's (the auction's run holds it); after anything
    else, a second ``an`` included, it is a note of its own, as the builder reads it."""
    got = records("mb|1S|an|x|an|y|mb|p|pg||an|z|pc|SA|an|w|")
    assert [(rule, value) for rule, _, value in got] == [
        ("auction", "mb|1S|an|x|"),
        ("note", "an|y|"),
        ("auction", "mb|p|pg||"),
        ("note", "an|z|"),
        ("play", "pc|SA|"),
        ("note", "an|w|"),
    ]
    board = bf.loads("md|1S2,H2,D2,|mb|1S|an|x|an|y|", format="lin").boards[0]
    assert board.auction is not None
    assert [e.annotations.explanation for e in board.auction.entries] == ["x"]
    assert [(e.key, e.value) for e in board.extras] == [("an", "y")]


# The grammar's value and the builder's reading of it (formats/lin/values.py) agree: what
# the grammar rejects the builder cannot read, and for pc and sv what it reads the
# builder reads. (For md the builder also counts the cards; for mb it takes `-` padding
# only around a value of five characters or more; for mc it wants 0-13.)
_VALUE_TEXT = st.one_of(
    st.text(alphabet="SHDCshdcAKQJT1098 2!?-,pPxXdDrRnN0oOeEbB\t\xa0ſßa", max_size=14),
    st.lists(  # pieces of values, so that many are nearly right
        st.sampled_from(
            [*"123SHDCsAKT2!?-, pxXdrn0", "10", "NT", "pass", "ß", "ſ", "\xa0", "ns", "all"]
        ),
        max_size=8,
    ).map("".join),
)


def _accepts(text: str) -> bool:
    lark, _ = grammar("python")
    try:
        lark.parse(text)
    except UnexpectedCharacters:
        return False
    return True


def _reads(read: Any, value: str) -> bool:
    try:
        read(value)
    except ValueError:
        return False
    return True


@settings(max_examples=400)
@given(_VALUE_TEXT, st.sampled_from(["md", "sv", "mb", "pc", "mc"]))
def test_the_grammar_rejects_only_what_the_builder_cannot_read(value: str, tag: str) -> None:
    from bridgefiles.formats.lin import values

    read = {
        "md": values.deal,
        "sv": lambda v: v.strip() and values.vulnerability(v),
        "mb": values.calls,
        "pc": values.cards,
        "mc": values.claim,
    }[tag]
    accepted = _accepts(f"{tag}|{value}|")
    if not accepted:
        assert not _reads(read, value)
    elif tag in ("pc", "sv"):
        assert _reads(read, value)
