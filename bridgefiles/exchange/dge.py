"""DGE: the dealing machine's deal file in DOS card text, registered as "dge".

Each deal is 128 bytes: four hands of 17 bytes (N, E, S, W), each the DOS suit glyph
of spades (0x06) then its ranks, hearts (0x03), diamonds (0x04), clubs (0x05), then 60
NUL bytes of padding. No board numbers: boards are numbered from 1 by their place.
"""

from __future__ import annotations

import re

from bridgefiles.exchange.cards import (
    OWNERS,
    RANKS,
    Owners,
    hands_of,
    owners_from_hands,
    record_format,
)
from bridgefiles.formats.registry import register

RECORD = 128
BODY = 68  # 4 hands x (4 glyphs + 13 ranks)
GLYPHS = "\x06\x03\x04\x05"  # spade, heart, diamond, club in the DOS character set
PADDING = "\x00" * (RECORD - BODY)
_HAND = "".join(f"{g}([{RANKS}]*)" for g in GLYPHS)
_BODY_RE = re.compile(_HAND * 4)


def parse_body(text: str) -> tuple[Owners | None, str | None]:
    """The owners of a 68-byte DGE body, or what is wrong with it."""
    m = _whole_body(text)
    if m is None:
        return None, "a DGE deal is four hands of 17 bytes: a suit glyph before each suit"
    hands: list[list[int]] = [[] for _ in OWNERS]
    for i, ranks in enumerate(m.groups()):
        seat, suit = divmod(i, 4)
        hands[seat].extend(suit * 13 + RANKS.index(r) + 1 for r in ranks)
    return owners_from_hands(hands)


def shaped(record: str) -> bool:
    """Four hands behind their suit glyphs: a DGE record, whatever cards they name."""
    return _whole_body(record) is not None


def _whole_body(text: str) -> re.Match[str] | None:
    m = _BODY_RE.match(text[:BODY])
    return m if m is not None and m.end() == BODY else None


def body(owners: Owners) -> str:
    """The 68 bytes of a deal: each hand's suits behind their DOS glyphs."""
    hands = hands_of(owners)
    out = []
    for seat in OWNERS:
        suits: list[str] = list(GLYPHS)
        for number in hands[seat]:
            suit, rank = divmod(number - 1, 13)
            suits[suit] += RANKS[rank]
        out.append("".join(suits))
    return "".join(out)


def sniff(head: str) -> int:
    _, problem = parse_body(head)
    return 90 if problem is None else 0


DGE = record_format(
    "dge",
    body=BODY,
    padding=PADDING,
    parse=parse_body,
    shaped=shaped,
    encode=body,
    sniff=sniff,
)
register(DGE)
