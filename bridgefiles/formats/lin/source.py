"""The text read and not yet given to a board: each board keeps its source text.

Chunks come in as they are read; a board's text is cut off the front when the
board ends. The pieces are held as they came and joined once per cut, so a long
run of text before the next board (comment lines, a huge board) costs linear time;
small pieces (a comment line is a chunk of its own) are first gathered into pieces of
some kilobytes, so each holds its text and not ~70 bytes of object around a short line.
"""

from __future__ import annotations

from collections import deque

SMALL = 8192
"""Pieces shorter than this are gathered before they are held."""


class PendingText:
    """Text from file offset :attr:`start` on, in the pieces it arrived in."""

    __slots__ = ("_head", "_pieces", "_small", "_small_size", "end", "start")

    def __init__(self) -> None:
        self._pieces: deque[str] = deque()
        self._head = 0  # characters of _pieces[0] already given away
        self._small: list[str] = []  # short pieces after _pieces, not joined yet
        self._small_size = 0
        self.start = 0  # file offset of the first character not given away
        self.end = 0  # file offset just after the last character added

    def add(self, text: str) -> None:
        if not text:
            return
        self.end += len(text)
        if len(text) >= SMALL:
            self._gather()
            self._pieces.append(text)
            return
        self._small.append(text)
        self._small_size += len(text)
        if self._small_size >= SMALL:
            self._gather()

    def _gather(self) -> None:
        if self._small:
            self._pieces.append("".join(self._small))
            self._small = []
            self._small_size = 0

    def cut(self, offset: int) -> str:
        """The text from :attr:`start` up to file offset ``offset``, given away."""
        self._gather()
        want = max(0, min(offset, self.end) - self.start)
        out: list[str] = []
        pieces = self._pieces
        while want and pieces:
            first = pieces[0]
            available = len(first) - self._head
            if available <= want:
                out.append(first[self._head :] if self._head else first)
                pieces.popleft()
                self._head = 0
                want -= available
                self.start += available
            else:
                out.append(first[self._head : self._head + want])
                self._head += want
                self.start += want
                want = 0
        return "".join(out)

    def rest(self) -> str:
        """All the text not given away yet."""
        return self.cut(self.end)
