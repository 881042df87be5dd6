"""PBN (Portable Bridge Notation): the reader and the writer, registered as "pbn"."""

from __future__ import annotations

import re

from bridgefiles.formats.pbn.reader import read_pbn
from bridgefiles.formats.pbn.writer import game_text, write_pbn
from bridgefiles.formats.registry import Format, register
from bridgefiles.model.board import set_text_writer

_TAG_SHAPE = re.compile(r'^\s*\[[A-Za-z][A-Za-z0-9_]*\s*"', re.MULTILINE)


def sniff(head: str) -> int:
    """Confidence that ``head`` is PBN: high for ``% PBN`` or ``[Tag "..."]`` lines."""
    text = head.lstrip("\ufeff")
    if re.search(r"^%\s*PBN\s+\d", text, re.MULTILINE):
        return 95
    shapes = len(_TAG_SHAPE.findall(text))
    if shapes >= 2:
        return 90
    if shapes == 1:
        return 60
    if text.startswith("%") or "[" in text:
        return 10
    return 0


register(Format(name="pbn", extensions=(".pbn",), sniff=sniff, read=read_pbn, write=write_pbn))
set_text_writer(game_text)  # str(board) is its PBN text

__all__ = ["read_pbn", "sniff", "write_pbn"]
