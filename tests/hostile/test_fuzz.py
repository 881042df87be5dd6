"""Property tests: any bytes in, only BridgeFileError out; round trips keep the game.

DESIGN invariants 1 and 3. The PBN and LIN cases skip while their reader is not
importable; the corpus cases skip when ../shared is absent.
"""

from __future__ import annotations

import contextlib
import importlib.util
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared import CORPUS
from strategies import boards, corpus_files, events, mutated

import bridgefiles as bf
from bridgefiles import api
from bridgefiles.model import Board, Table
from bridgefiles.model.content import game_content, same_game
from bridgefiles.testing import fuzzing


def _have(fmt: str) -> bool:
    module = {"pbn": "bridgefiles.formats.pbn", "lin": "bridgefiles.formats.lin"}.get(fmt)
    return module is None or importlib.util.find_spec(module) is not None


needs_lin = pytest.mark.skipif(not _have("lin"), reason="the LIN reader is not built yet")
FORMATS = [
    "pbn",
    pytest.param("lin", marks=needs_lin),
    "json",
]
SEEDS = corpus_files()
needs_corpus = pytest.mark.skipif(not SEEDS, reason=f"shared corpus not found at {CORPUS}")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def _assert_only_bridge_file_error(data: bytes) -> None:
    outcome = fuzzing.exercise(data, formats=[f for f in fuzzing.FORMATS if _have(f)])
    assert outcome.crash is None, f"{outcome.crash.operation}: {outcome.crash.traceback}"


# -- any bytes -----------------------------------------------------------------------------


@FUZZ
@given(st.binary(max_size=2000))
def test_random_bytes_raise_only_bridge_file_error(data: bytes) -> None:
    _assert_only_bridge_file_error(data)


@FUZZ
@given(st.lists(st.sampled_from(fuzzing.DICTIONARY), max_size=60).map(b"".join))
def test_token_soup_raises_only_bridge_file_error(data: bytes) -> None:
    """Fragments of both formats in any order reach deeper than random bytes."""
    _assert_only_bridge_file_error(data)


@needs_corpus
@FUZZ
@given(mutated(SEEDS or [("none", b"")]))
def test_mutated_corpus_files_raise_only_bridge_file_error(data: bytes) -> None:
    _assert_only_bridge_file_error(data)


@FUZZ
@given(events(), st.integers(0, 1 << 62))
def test_mutated_generated_events_raise_only_bridge_file_error(
    event: tuple[str, str], seed: int
) -> None:
    fmt, text = event
    if not _have(fmt):
        pytest.skip(f"the {fmt} reader is not built yet")
    rng = random.Random(seed)
    _assert_only_bridge_file_error(fuzzing.mutate(rng, text.encode("utf-8")))


@pytest.mark.parametrize("strict", [False, True])
def test_strict_mode_raises_only_bridge_file_error(strict: bool) -> None:
    rng = random.Random(7)
    for _ in range(30):
        data, _fmt = fuzzing.generated(rng)
        data = fuzzing.mutate(rng, data)
        for fmt in fuzzing.FORMATS:
            if not _have(fmt):
                continue
            with contextlib.suppress(bf.BridgeFileError):
                bf.loads(data, format=fmt, strict=strict)


def test_exercise_reports_a_crash_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself can fail: a reader bug comes back as a Crash, not as silence."""

    def broken(*args: object, **kwargs: object) -> bf.BridgeFile:
        raise KeyError("boom")

    monkeypatch.setattr(api, "loads", broken)  # the verbs fuzzing calls
    outcome = fuzzing.exercise(b"anything", formats=["json"])
    assert outcome.crash is not None
    assert outcome.crash.signature.startswith("KeyError@")
    assert fuzzing.fixture_name(outcome.crash).startswith("fuzz-")


def test_shrink_keeps_the_crash_and_drops_the_rest() -> None:
    data = b"line one\nline two\nBOOM here\nline four\n" * 5
    small = fuzzing.shrink(data, lambda d: b"BOOM" in d)
    assert b"BOOM" in small
    assert len(small) <= 6


def test_mutators_are_reproducible_from_the_seed() -> None:
    seed_data = b'[Event "x"]\n[Board "1"]\n'
    a = fuzzing.mutate(random.Random(3), seed_data, rounds=4)
    b = fuzzing.mutate(random.Random(3), seed_data, rounds=4)
    assert a == b


# -- round trips ---------------------------------------------------------------------------


def _reload(board_or_file: Board | bf.BridgeFile, fmt: str) -> bf.BridgeFile:
    return bf.loads(
        bf.dumps(
            board_or_file if isinstance(board_or_file, bf.BridgeFile) else [board_or_file], fmt
        ),
        fmt,
    )


@FUZZ
@given(boards())
def test_json_round_trip_gives_back_the_model(board: Board) -> None:
    again = _reload(board, "json").boards[0]
    assert same_game(board, again), (game_content(board), game_content(again))


@pytest.mark.parametrize("fmt", FORMATS)
@FUZZ
@given(board=boards())
def test_round_trip_is_a_fixpoint(fmt: str, board: Board) -> None:
    """dumps -> loads once normalises; after that dumps -> loads gives the same game."""
    first = _reload(board, fmt)
    second = _reload(first, fmt)
    assert len(first.boards) == len(second.boards) == 1
    assert same_game(first.boards[0], second.boards[0]), (
        game_content(first.boards[0]),
        game_content(second.boards[0]),
    )


def _table(table: Table) -> tuple[str, str, tuple[tuple[str, ...], ...]]:
    return table.name, table.header, table.rows


def _calls(board: Board) -> list[str]:
    return [c.text for _, c in board.auction.calls()] if board.auction else []


def _cards(board: Board) -> list[str]:
    return [s.card.code for s in board.play.slots if s.card] if board.play else []


@FUZZ
@given(boards())
def test_pbn_keeps_tags_deal_auction_play_notes_comments_tables(board: Board) -> None:
    again = _reload(board, "pbn").boards[0]
    for tag in board.tags:
        assert again.tag(tag.name) == tag.value, tag.name
    assert again.deal == board.deal
    assert _calls(again) == _calls(board)
    assert _cards(again) == _cards(board)
    assert (
        [s.revoke for s in again.play.slots] == [s.revoke for s in board.play.slots]
        if (board.play and again.play)
        else True
    )
    assert board.auction is not None and again.auction is not None
    assert [n.text for n in again.auction.notes] == [n.text for n in board.auction.notes]
    assert [c.text for c in again.comments] == [c.text for c in board.comments]
    assert [_table(t) for t in again.tables] == [_table(t) for t in board.tables]


@needs_lin
@FUZZ
@given(boards())
def test_lin_keeps_deal_auction_and_cards(board: Board) -> None:
    again = _reload(board, "lin").boards[0]
    assert board.deal is not None and again.deal is not None
    assert again.deal.hands == board.deal.hands
    assert _calls(again) == _calls(board)
    assert sorted(_cards(again)) == sorted(_cards(board))


@pytest.mark.parametrize("fmt", FORMATS)
@FUZZ
@given(event=events())
def test_generated_text_round_trips_in_its_own_format(fmt: str, event: tuple[str, str]) -> None:
    source_fmt, text = event
    if not _have(source_fmt):
        pytest.skip(f"the {source_fmt} reader is not built yet")
    read = bf.loads(text, source_fmt)
    first = _reload(read, fmt)
    second = _reload(first, fmt)
    assert len(first.boards) == len(read.boards)
    for a, b in zip(first.boards, second.boards, strict=True):
        assert same_game(a, b), (game_content(a), game_content(b))
    if fmt == source_fmt:
        for a, b in zip(read.boards, first.boards, strict=True):
            assert same_game(a, b), (game_content(a), game_content(b))


# -- our own bugs are counted, never taken for refused input ---------------------------------


def _pbn_reader_class() -> object:
    from bridgefiles.formats.pbn.reader import GameReader

    return GameReader


def _validate_module() -> object:
    import importlib

    return importlib.import_module("bridgefiles.checks.validate")


@pytest.mark.parametrize(
    ("owner", "name"), [(_pbn_reader_class, "finish"), (_validate_module, "_validate")]
)
def test_a_bug_injected_into_a_reader_is_counted_as_a_crash(
    monkeypatch: pytest.MonkeyPatch, owner: Callable[[], object], name: str
) -> None:
    """A KeyError inside the PBN reader (or the validator) is a crash of the harness,
    whatever the library's guard turns it into on the way out."""

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("injected bug")

    monkeypatch.setattr(owner(), name, broken)
    data = "".join(synthetic_pbn()).encode("utf-8")
    outcome = fuzzing.exercise(data, formats=["pbn"])
    assert outcome.crash is not None
    assert outcome.refused == 0


def test_input_the_readers_refuse_is_not_a_crash() -> None:
    outcome = fuzzing.exercise(b"\x00" * 10, formats=["json"], strict=True)
    assert outcome.crash is None and outcome.refused == 1


def test_an_internal_error_is_internal_and_bad_input_is_not() -> None:
    from bridgefiles.errors import BridgeFileError, InternalError

    try:
        raise InternalError("a bug of ours") from KeyError("x")
    except InternalError as exc:
        assert fuzzing.is_internal(exc)
    assert not fuzzing.is_internal(BridgeFileError("not a bridge file"))


def synthetic_pbn() -> list[str]:
    from bridgefiles.testing import synthetic

    return list(synthetic.to_pbn(list(synthetic.generate(2, seed=3))))
