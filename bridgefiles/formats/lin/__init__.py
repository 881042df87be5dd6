"""LIN, BBO's deal notation: reader, writer and registration (shared/docs/lin.md)."""

from __future__ import annotations

import re

from bridgefiles.formats.lin.reader import read
from bridgefiles.formats.lin.writer import write
from bridgefiles.formats.registry import Format, register

_COMMAND_RE = re.compile(r"(?:^|\|)\s*(pn|md|qx|vg|mb|pc|st|ah|rs|mn|sv|nt|at)\|", re.IGNORECASE)


def sniff(head: str) -> int:
    """Confidence that ``head`` is LIN: known commands near the start, no PBN tags."""
    text = head.lstrip("\ufeff")
    if text.lstrip().startswith("["):
        return 0
    hits = len(_COMMAND_RE.findall(text[:4096]))
    if hits >= 2:
        return 90
    return 40 if hits == 1 else 0


LIN = Format(name="lin", extensions=(".lin",), sniff=sniff, read=read, write=write)
register(LIN)

__all__ = ["LIN", "read", "sniff", "write"]
