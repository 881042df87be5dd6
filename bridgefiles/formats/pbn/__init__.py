"""PBN (Portable Bridge Notation): the reader and the writer, registered as "pbn"."""

from __future__ import annotations

import re

from bridgefiles.formats.pbn.reader import read_pbn
from bridgefiles.formats.pbn.writer import write_pbn
from bridgefiles.formats.registry import Format, register

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

__all__ = ["read_pbn", "sniff", "write_pbn"]
