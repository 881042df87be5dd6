"""A whole file: its boards, file-level directives and diagnostics."""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.board import Board, EscapeLine
from bridgefiles.model.diagnostic import Diagnostic


class BridgeFile(BaseModel):
    """What ``bf.load`` returns. ``preamble`` and ``trailer`` keep the text before the
    first board and after the last, so ``layout="preserve"`` can give the file back."""

    model_config = ConfigDict(frozen=True)

    format: str
    boards: tuple[Board, ...] = ()
    directives: tuple[EscapeLine, ...] = ()  # % lines before the first board (PBN)
    path: str | None = None
    encoding: str | None = None
    newline: str | None = None  # the line end the source used most: "\r\n", "\n" or "\r"
    preamble: str | None = None
    trailer: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    def __iter__(self) -> Iterator[Board]:  # type: ignore[override]
        return iter(self.boards)

    def __len__(self) -> int:
        return len(self.boards)

    def all_diagnostics(self) -> list[Diagnostic]:
        return [*self.diagnostics, *(d for b in self.boards for d in b.diagnostics)]

    @property
    def pbn_version(self) -> str | None:
        """From a ``% PBN x.y`` directive."""
        for d in self.directives:
            t = d.text.strip()
            if t.startswith("PBN "):
                return t[4:].strip()
        return None

    @property
    def is_export(self) -> bool:
        return any(d.text.lstrip().startswith("EXPORT") for d in self.directives)
