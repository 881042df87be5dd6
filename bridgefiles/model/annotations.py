"""Commentary, notes and the annotations that hang on a call or a card."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.fast import make
from bridgefiles.model.shared import SharedTable


class CommentKind(str, Enum):
    """How a PBN comment was written, so it is written back the same way (PBN 3.8)."""

    BRACE = "brace"  # { ... }, may span lines
    LINE = "line"  # ; ... to the end of the line


class Comment(BaseModel):
    """A piece of commentary, kept with the item it follows (PBN 3.8)."""

    model_config = ConfigDict(frozen=True)

    text: str
    kind: CommentKind = CommentKind.BRACE
    line: int | None = None
    column: int | None = None
    # Among a call's or card's annotations, the item the comment follows (PBN 3.8):
    # None the call or card itself, "suffix", "note", or "$n" for NAG n.
    follows: str | None = None


class Note(BaseModel):
    """A PBN ``Note`` tag: ``index:text``, referred to as ``=index=`` by calls or cards.

    A note read from a file has no line or column of its own (a plain one is shared by
    every section with the same number and text, :func:`shared_note`): its section's
    ``note_where`` says where it stood."""

    model_config = ConfigDict(frozen=True)

    index: int
    text: str
    raw: str | None = None  # the tag value as written, when it differs from "index:text"
    comments: tuple[Comment, ...] = ()
    line: int | None = None
    column: int | None = None


# Plain notes shared by every section with the same number and text: a file repeats its
# notes (the system's conventions: "1:Stayman", "2:transfer"), and a Note costs some 400
# bytes. Where a shared note stood is on its section (``Placed.note_where``).
_SHARED_NOTES: SharedTable[tuple[int, str], Note] = SharedTable(4096)


def shared_note(index: int, text: str) -> Note:
    """The shared plain note ``index:text`` (no raw form, comment or position)."""
    found = _SHARED_NOTES.get((index, text))
    if found is None:
        found = _SHARED_NOTES.share((index, text), make(Note, index=index, text=text))
    return found


def numbered_note(notes: tuple[Note, ...], index: int) -> Note | None:
    """The note ``=index=`` refers to: one lookup for the auction's notes and the play's."""
    return next((n for n in notes if n.index == index), None)


# PBN suffixes and the NAGs they stand for; cards use the call NAG + 6 (PBN 6.3).
SUFFIX_NAGS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


class Annotations(BaseModel):
    """What may follow a call or a card: a suffix, a note reference, NAGs, comments.

    ``alert`` and ``explanation`` carry LIN's alerts (``!`` on ``mb``, and ``an``);
    PBN carries explanations as notes. Both live here so a conversion can keep them.
    """

    model_config = ConfigDict(frozen=True)

    suffix: str | None = None
    note: int | None = None
    nags: tuple[int, ...] = ()
    alert: bool = False
    explanation: str | None = None
    comments: tuple[Comment, ...] = ()

    @property
    def is_empty(self) -> bool:
        return (
            self.suffix is None
            and self.note is None
            and not self.nags
            and not self.alert
            and self.explanation is None
            and not self.comments
        )


NO_ANNOTATIONS = Annotations()
