"""Suits, strains, ranks and cards.

The 52 cards are interned: ``Card.parse("SA") is Card.parse("sa")``. Cards are
immutable pydantic models so they serialise and validate at the boundaries.
"""

from __future__ import annotations

from enum import Enum, IntEnum
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ConfigDict, model_serializer, model_validator


class Suit(str, Enum):
    """A suit; ``order`` ranks them clubs (0) to spades (3) (Law 1)."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"

    @property
    def order(self) -> int:
        return _SUIT_ORDER[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def strain(self) -> Strain:
        return _SUIT_STRAIN[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"not a suit: {text!r}") from None

    def __str__(self) -> str:
        return self.value


_SUIT_ORDER = {Suit.C: 0, Suit.D: 1, Suit.H: 2, Suit.S: 3}
_SUIT_SYMBOL = {Suit.C: "♣", Suit.D: "♦", Suit.H: "♥", Suit.S: "♠"}
# Display and PBN Deal order: spades, hearts, diamonds, clubs.
SUITS_DESCENDING: tuple[Suit, Suit, Suit, Suit] = (Suit.S, Suit.H, Suit.D, Suit.C)


class Strain(str, Enum):
    """A denomination: the four suits and notrump, ranked C < D < H < S < NT (Law 18D)."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"
    NT = "NT"

    @property
    def order(self) -> int:
        return _STRAIN_ORDER[self]

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None at notrump."""
        return _TRUMP[self]

    @property
    def is_minor(self) -> bool:
        return self in _MINORS

    @property
    def is_major(self) -> bool:
        return self in _MAJORS

    @classmethod
    def parse(cls, text: str) -> Strain:
        """``NT`` in any case; ``N`` is accepted too (LIN and many tools write it)."""
        t = text.strip().upper()
        if t == "N":
            return Strain.NT
        try:
            return cls(t)
        except ValueError:
            raise ValueError(f"not a strain: {text!r}") from None

    def __str__(self) -> str:
        return self.value


_STRAIN_ORDER = {Strain.C: 0, Strain.D: 1, Strain.H: 2, Strain.S: 3, Strain.NT: 4}
_MINORS = frozenset((Strain.C, Strain.D))
_MAJORS = frozenset((Strain.H, Strain.S))
_TRUMP: dict[Strain, Suit | None] = {Strain(s.value): s for s in Suit} | {Strain.NT: None}
_SUIT_STRAIN = {s: Strain(s.value) for s in Suit}
SUITS_BY_ORDER: tuple[Suit, Suit, Suit, Suit] = (Suit.C, Suit.D, Suit.H, Suit.S)
"""``SUITS_BY_ORDER[card.index // 13]`` is the card's suit: for loops over card indices."""
STRAIN_BY_ORDER: tuple[Strain, ...] = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)
"""``STRAIN_BY_ORDER[strain.order] is strain``; a bid's strain is its index's order (``% 5``)."""


class Rank(IntEnum):
    """A card's rank; the value is its order, 2 lowest and ace (14) highest."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self.value - 2]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """One of ``AKQJT98765432`` (any case); ``10`` is read as the ten."""
        rank = _RANK_BY_CHAR.get(text)
        if rank is not None:
            return rank
        t = text.strip().upper()
        if t == "10":
            return Rank.TEN
        rank = _RANK_BY_CHAR.get(t) if len(t) == 1 else None
        if rank is None:
            raise ValueError(f"not a rank: {text!r}")
        return rank

    def __str__(self) -> str:
        return self.char


RANK_CHARS = "23456789TJQKA"
RANK_OFFSET: dict[str, int] = {ch: i for i, ch in enumerate(RANK_CHARS)}
"""A rank letter (upper case) to its place among the ranks, 2 = 0 .. A = 12: a card's
index is ``13 * suit order + RANK_OFFSET[letter]``."""
_RANK_BY_CHAR: dict[str, Rank] = {ch: Rank(i + 2) for ch, i in RANK_OFFSET.items()}


class Card(BaseModel):
    """A playing card. Use ``Card.parse`` or ``Card.of`` to get the interned instance."""

    model_config = ConfigDict(frozen=True)

    suit: Suit
    rank: Rank

    @classmethod
    def of(cls, suit: Suit, rank: Rank) -> Card:
        return _CARDS[(suit, rank)]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Suit letter then rank, as PBN and LIN write it: ``SA``, ``hQ``, ``C10``."""
        card = _BY_TEXT.get(text)
        if card is not None:
            return card
        t = text.strip().upper()
        card = _BY_TEXT.get(t)
        if card is None and len(t) == 3 and t[1:] == "10":
            card = _BY_TEXT.get(t[0] + "T")
        if card is None:
            raise ValueError(f"not a card: {text!r}")
        return card

    @property
    def code(self) -> str:
        """The two-letter PBN form, e.g. ``SA``."""
        return self.suit.value + self.rank.char

    @cached_property
    def index(self) -> int:
        """0-51, clubs 2 first: a compact key for sets and bit masks.

        Cached (the interned cards have it set when built): every hash and sort uses it,
        and enum property access is slow in hot loops.
        """
        return _SUIT_ORDER[self.suit] * 13 + (int(self.rank) - 2)

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, value: Any) -> Any:
        if isinstance(value, str):
            card = Card.parse(value)
            return {"suit": card.suit, "rank": card.rank}
        return value

    @model_serializer
    def _serialise(self) -> str:
        return self.code

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Card):
            return self.suit is other.suit and self.rank is other.rank
        return NotImplemented

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


def _build_cards() -> dict[tuple[Suit, Rank], Card]:
    cards = {(s, r): Card.model_construct(suit=s, rank=r) for s in Suit for r in Rank}
    for card in cards.values():
        _ = card.index  # fill the cache once, here, rather than on a first hash in a hot loop
    return cards


_CARDS = _build_cards()
_BY_TEXT: dict[str, Card] = {}
for (_s, _r), _c in _CARDS.items():
    _BY_TEXT[_s.value + _r.char] = _c
    _BY_TEXT[_s.value.lower() + _r.char.lower()] = _c
    _BY_TEXT[_s.value + _r.char.lower()] = _c
    _BY_TEXT[_s.value.lower() + _r.char] = _c

ALL_CARDS: tuple[Card, ...] = tuple(sorted(_CARDS.values()))
"""The 52 cards in index order: ``ALL_CARDS[i].index == i``."""
