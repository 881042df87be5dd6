"""Issue 23 point 6: one PBN game far past ``max_commands_per_board`` costs memory for the
tokens the limit lets in plus a few bytes a byte of its text, not ~100 bytes a byte.

Two things held memory per input byte past the limit: the plain rows of a section were
all built before the token count was checked, and Python's re kept backtracking state
for each line a DATA run (or each pair a TAGS run) went on over. The peak is traced
(tracemalloc) on generated games, with a bound far above what the reader needs and far
below what either fault cost.
"""

from __future__ import annotations

import tracemalloc

import pytest

import bridgefiles as bf
from bridgefiles.limits import Limits

_LIMIT = 10_000  # tokens: a small limit, so the game can be far past it at a few MB
_SIZE = 4_000_000  # bytes of section data: 800,000 calls, 80 times the limit

_HEADS = {
    "auction": ('[Event "x"]\n[Dealer "N"]\n[Auction "N"]\n', "Pass Pass Pass Pass\n"),
    "play": (
        '[Event "x"]\n[Dealer "N"]\n'
        '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n'
        '[Contract "1S"]\n[Declarer "N"]\n[Auction "N"]\n1S Pass Pass Pass\n[Play "E"]\n',
        "SA HA DA CA\n",
    ),
    "annotated": ('[Event "x"]\n[Dealer "N"]\n[Auction "N"]\n', "1C! 1D $4 1H Pass\n"),
}


def _game(kind: str, size: int) -> str:
    head, row = _HEADS[kind]
    return head + row * (size // len(row))


def _peak(text: str, limits: Limits) -> tuple[int, bf.BridgeFile]:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        loaded = bf.loads(text, format="pbn", limits=limits)
        return tracemalloc.get_traced_memory()[1], loaded
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("kind", sorted(_HEADS))
def test_a_game_past_the_token_limit_stops_there_with_bounded_memory(kind: str) -> None:
    """Measured: 4 MB of calls or cards past a 10,000-token limit peak at ~17 MB traced
    (the game's text held about three times, the 10,000 items); before, 130-400 MB. The
    bound, 8 bytes a byte plus 8 MB, leaves room for the text and the items and none
    for either fault."""
    text = _game(kind, _SIZE)
    peak, loaded = _peak(text, Limits(max_commands_per_board=_LIMIT))
    (board,) = loaded.boards
    limits = [d for d in board.diagnostics if d.code == "limit"]
    assert limits and "max_commands_per_board" in limits[0].message
    section = board.play if kind == "play" else board.auction
    assert section is not None
    kept = section.slots if kind == "play" else section.entries  # type: ignore[union-attr]
    assert 0 < len(kept) <= _LIMIT
    assert peak < 8 * len(text) + 8_000_000, f"{peak:,} bytes at the peak for {len(text):,}"


def test_a_long_run_of_tag_pairs_on_one_line_holds_no_state_per_pair() -> None:
    """A TAGS token of 200,000 pairs on one line (within the line limit raised for it):
    the lexer's regex holds no backtracking state per pair (a greedy repeat: ~50 bytes a
    pair more)."""
    pairs = '[X "1"]' * 200_000
    text = f'[Event "x"]\n{pairs}\n'
    limits = Limits(max_line_length=None, max_tags_per_game=_LIMIT)
    peak, loaded = _peak(text, limits)
    (board,) = loaded.boards
    assert any(d.code == "limit" for d in board.diagnostics)
    assert peak < 8 * len(text) + 8_000_000, f"{peak:,} bytes at the peak for {len(text):,}"
