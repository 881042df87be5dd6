"""Game content: a board without where it came from, for comparing round trips.

Two boards have equal content when they say the same thing about the game,
whatever their layout: positions, the text as read, diagnostics and the
board's index in its file are left out.
"""

from __future__ import annotations

from typing import Any

from bridgefiles.model.board import Board

_LAYOUT_KEYS = frozenset({"line", "column", "source", "diagnostics", "index", "position", "format"})


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if k not in _LAYOUT_KEYS}
    if isinstance(value, (list, tuple)):
        return [_strip(v) for v in value]
    return value


def game_content(board: Board) -> dict[str, Any]:
    """The board as plain data, layout left out."""
    return dict(_strip(board.model_dump(mode="json")))


def same_game(a: Board, b: Board) -> bool:
    return game_content(a) == game_content(b)
