"""BRI: the Duplimate dealing machine's deal file, registered as "bri".

Each deal is 128 bytes: 78 ASCII digits, the card numbers (01 = spade ace ... 52 =
club two, see cards.py) of North's, East's and South's 13 cards in that order (West
holds the rest), then padding, written as 32 spaces and 18 NUL bytes as Big Deal and
the Duplimate software write it. The file holds no board numbers: boards are numbered
from 1 by their place.
"""

from __future__ import annotations

from bridgefiles.exchange.cards import (
    OWNERS,
    PAD,
    Owners,
    hands_of,
    owners_from_hands,
    record_format,
)
from bridgefiles.formats.registry import register

RECORD = 128
BODY = 78
PADDING = " " * 32 + "\x00" * 18


def parse_body(text: str) -> tuple[Owners | None, str | None]:
    """The owners of the 78-digit body, or what is wrong with it."""
    if not shaped(text):
        return None, f"a BRI deal is {BODY} digits (N, E, S card numbers)"
    hands = [[int(text[i : i + 2]) for i in range(h * 26, h * 26 + 26, 2)] for h in range(3)]
    return owners_from_hands(hands)


def shaped(record: str) -> bool:
    """78 digits: a BRI record, whatever cards they name."""
    return len(record) >= BODY and record[:BODY].isascii() and record[:BODY].isdigit()


def body(owners: Owners) -> str:
    """The 78 digits of a deal: N, E, S card numbers, ascending."""
    hands = hands_of(owners)
    return "".join(f"{n:02d}" for seat in OWNERS[:3] for n in hands[seat])


def sniff(head: str) -> int:
    """A BRI file starts with 78 digits of 26 distinct card numbers a hand, then padding."""
    _, problem = parse_body(head)
    if problem is not None:
        return 0
    return 90 if set(head[BODY:RECORD]) <= PAD else 40


BRI = record_format(
    "bri",
    body=BODY,
    padding=PADDING,
    parse=parse_body,
    shaped=shaped,
    encode=body,
    sniff=sniff,
)
register(BRI)
