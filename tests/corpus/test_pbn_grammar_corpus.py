"""The PBN grammar (``grammars/pbn.lark``) on every real PBN file and the verifier's
conformance files: it reads the games the reader reads, and where it stops reading a
file, the reader reports a syntax error at the same line and column (what the grammar
rejects is what the reader already says is wrong). The lenient parse
(formats/pbn/parser.py) hands on every game and loses no text. lark-cython reads what
pure-Python Lark reads."""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from lark import Tree
from lark.exceptions import UnexpectedInput
from pbn_grammar_cases import Recorder
from shared import CONFORMANCE, CORPUS, REAL_PBN, files, needs_corpus

import bridgefiles as bf
from bridgefiles.formats.decode import LineDecoder, text_lines
from bridgefiles.formats.pbn import grammar, parser
from bridgefiles.formats.pbn.split import split_games

pytestmark = needs_corpus

FILES = files(REAL_PBN, ".pbn") + files(CONFORMANCE, ".pbn")
IDS = [str(p.relative_to(CORPUS)) for p in FILES]
ENGINES = ["python"] + (["cython"] if importlib.util.find_spec("lark_cython") else [])

# the files the grammar stops in, with where (all of them say so: see the test below)
STOPS = {
    "real/pbn/ben__2H-3H.PBN": (404, 7),  # 4H*: calls after '*'
    "real/pbn/ben__training.pbn": (3, 1),  # [Event Random Deal #]: no string
    "real/pbn/bridgebots__sample.pbn": (78, 1),  # a stray '}'
    "real/pbn/rowberg__Precision_1C_Auctions_with_Notes.pbn": (478, 4),  # 4NT/5D
    "conformance/errors_10.pbn": (11, 1),  # [Event]: no value
    "conformance/errors_20.pbn": (40, 4),  # a second '+' in the play
}


@cache
def lalr(engine: str) -> Any:
    return grammar.build(None, engine)


@cache
def text_of(path: Path) -> str:
    return LineDecoder().decode_all(path.read_bytes()).removeprefix("\ufeff")


def parsed(path: Path, engine: str) -> Tree[Any] | tuple[int, int]:
    """The file's tree, or where the grammar stops."""
    try:
        tree: Tree[Any] = lalr(engine).parse(text_of(path), start="start")
        return tree
    except UnexpectedInput as stopped:
        return stopped.line, stopped.column


def name(path: Path) -> str:
    return str(path.relative_to(CORPUS))


# (empty without ../shared: the module's mark skips it then, as every test here)
STOP_FILES = [p for p in FILES if name(p) in STOPS]


def test_the_corpus_is_there() -> None:
    assert len(FILES) > 40 and set(STOPS) <= {name(p) for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_grammar_reads_the_games_the_reader_reads(path: Path) -> None:
    tree = parsed(path, "python")
    if name(path) in STOPS:
        assert tree == STOPS[name(path)]
        return
    assert isinstance(tree, Tree), f"the grammar stops at {tree}"
    games = [child for child in tree.children if isinstance(child, Tree) and child.data == "game"]
    split = [s for s in split_games(text_lines(text_of(path))) if s.kind == "game"]
    assert len(games) == len(split)


@pytest.mark.parametrize("path", STOP_FILES, ids=[name(p) for p in STOP_FILES])
def test_where_the_grammar_stops_the_reader_reports_a_syntax_error(path: Path) -> None:
    line, column = STOPS[name(path)]
    found = [(d.code, d.line, d.column) for d in bf.load(path).all_diagnostics()]
    assert ("syntax", line, column) in found


@pytest.mark.parametrize("engine", ENGINES[1:])
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_lark_cython_reads_what_pure_lark_reads(path: Path, engine: str) -> None:
    assert parsed(path, engine) == parsed(path, "python")


@cache
def handed_on(path: Path, engine: str) -> Recorder:
    recorder = Recorder()
    parser.parse(text_of(path), recorder, which=engine)
    return recorder


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_the_parse_hands_on_every_game_and_loses_nothing(path: Path) -> None:
    recorder = handed_on(path, "python")
    refused = recorder.refused()
    if name(path) in STOPS:
        assert refused[0][1:] == STOPS[name(path)]
    else:
        assert refused == []
        split = [s for s in split_games(text_lines(text_of(path))) if s.kind == "game"]
        assert recorder.seen.count(("end",)) == len(split)
    assert re.sub(r"\s+", "", "".join(recorder.texts())) == re.sub(r"\s+", "", text_of(path))


@pytest.mark.parametrize("engine", ENGINES[1:])
@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_lark_cython_hands_on_what_pure_lark_hands_on(path: Path, engine: str) -> None:
    assert handed_on(path, engine).seen == handed_on(path, "python").seen
