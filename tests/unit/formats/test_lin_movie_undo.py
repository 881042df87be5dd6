"""LIN movie undo (``up``) in linear time (issue 23, point 6): a long movie of cards
played and taken back reads to the right board, and the reader's work grows with the
input, not with its square (measured in lines of our code run, not in time)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

import bridgefiles as bf
from bridgefiles.model.board import Board

DEAL = "md|1SAKQJ,HAKQ,DAKQ,CAKQ|sv|o|mb|1N|mb|p|mb|p|mb|p|\n"


def one(text: str) -> Board:
    boards = bf.loads(text, format="lin").boards
    assert len(boards) == 1
    return boards[0]


def play_and_undo(n: int) -> str:
    """A card played and taken back, ``n`` times, a line each (the hostile upload)."""
    return DEAL + "pc|SA|up|1|\n" * n


def play_then_undo(n: int) -> str:
    """``n`` cards, then ``n`` times a chat line and one card taken back: every undo has
    every extra kept since the first card after it."""
    return DEAL + "pc|SA|" * n + "\n" + "nt|x|up|1|\n" * n


def test_a_long_movie_reads_to_its_board() -> None:
    n = 18_000  # 216 KB: 78-88 s before undo was linear
    board = one(play_and_undo(n))
    assert board.play is None  # every card taken back
    assert board.contract is not None and board.contract.text == "1NT"
    assert len(board.extras) == 2 * n
    assert [(e.key, e.value) for e in board.extras[:4]] == [
        ("pc", "SA"),
        ("up", "1"),
        ("pc", "SA"),
        ("up", "1"),
    ]
    assert {e.position for e in board.extras} == {4}  # after the four calls, every one
    assert board.extras[-2].line == n + 1 and board.extras[-1].column == 7
    undone = [d for d in board.diagnostics if d.message.startswith("up|1|: 1 card(s)")]
    assert len(undone) == n


def test_undo_after_many_cards_puts_each_back_where_it_stood() -> None:
    n = 300
    board = one(play_then_undo(n))
    assert board.play is None
    extras = board.extras
    assert len(extras) == 3 * n
    # the cards go back before the chat that followed them, in the order they were played
    assert all(e.key == "pc" and e.position == 4 for e in extras[:n])
    assert [e.column for e in extras[:3]] == [1, 7, 13]
    assert all(e.position == 4 for e in extras[n:])  # the chat: after the calls only
    assert [e.key for e in extras[n : n + 4]] == ["nt", "up", "nt", "up"]


def test_undo_keeps_the_cards_not_taken_back() -> None:
    board = one(DEAL + "pc|SA|pc|S2|nt|hi|up|1|pc|S3|\n")
    assert board.play is not None
    played = [s.card.code for s in board.play.slots if s.card is not None]
    assert sorted(played) == ["S3", "SA"]
    kept = [(e.key, e.value, e.position) for e in board.extras]
    # S2 went back to where it stood: after SA (position 5), before the chat
    assert kept == [("pc", "S2", 5), ("nt", "hi", 5), ("up", "1", 5)]


class StepBudget:
    """Counts the lines of bridgefiles code run; stops counting past ``limit`` (so a
    quadratic reader fails quickly instead of running for minutes)."""

    def __init__(self, limit: int | None = None) -> None:
        self.steps = 0
        self.limit = limit
        self.exceeded = False

    def local(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if event == "line":
            self.steps += 1
            if self.limit is not None and self.steps > self.limit:
                self.exceeded = True
                sys.settrace(None)
                return None
        return self.local

    def outer(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if self.exceeded or "bridgefiles" not in frame.f_code.co_filename:
            return None
        return self.local

    def run(self, work: Callable[[], object]) -> int:
        sys.settrace(self.outer)
        try:
            work()
        finally:
            sys.settrace(None)
        return self.steps


@pytest.mark.parametrize("movie", [play_and_undo, play_then_undo])
def test_undo_work_is_linear(movie: Callable[[int], str]) -> None:
    def steps(n: int, limit: int | None = None) -> StepBudget:
        budget = StepBudget(limit)
        text = movie(n)
        budget.run(lambda: one(text))
        return budget

    small = steps(200)
    small.steps -= steps(0).steps  # the board around the movie
    big = steps(1600, limit=12 * small.steps + steps(0).steps)
    assert not big.exceeded, "eight times the movie took more than twelve times the work"
    assert big.steps > 6 * small.steps  # it did read the movie
