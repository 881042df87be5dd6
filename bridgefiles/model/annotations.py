"""Commentary, notes and the annotations that hang on a call or a card."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict


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
    """A PBN ``Note`` tag: ``index:text``, referred to as ``=index=`` by calls or cards."""

    model_config = ConfigDict(frozen=True)

    index: int
    text: str
    raw: str | None = None  # the tag value as written, when it differs from "index:text"
    comments: tuple[Comment, ...] = ()
    line: int | None = None
    column: int | None = None


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
