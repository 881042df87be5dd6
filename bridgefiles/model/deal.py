"""Hands and deals, including partial deals (unknown hands) and end positions."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from operator import attrgetter, methodcaller

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.cards import ALL_CARDS, RANK_CHARS, RANK_OFFSET, Card, Suit
from bridgefiles.model.fast import construct, make, shared_fields
from bridgefiles.model.seats import ROTATION, SEAT_ORDER, Seat, rotation_from
from bridgefiles.model.shared import SharedTable

_INDEX = attrgetter("index")
# For each suit of a PBN hand (spades first): rank letter -> the card's index
_CARDS_SET = shared_fields(("cards",))  # Hand's fields, all set by parse
_DEAL_SET = shared_fields(("hands", "first"))  # Deal's, all set by parse
_SUIT_TABLES = tuple({ch: base + i for ch, i in RANK_OFFSET.items()} for base in (39, 26, 13, 0))
# The same as str.translate tables: each rank letter (either case) of a suit becomes the
# character whose code is its card's index (0-51); any other character that could pass for
# an index becomes one that cannot, so a stray character is never taken for a card.
_NOT_A_CARD = "\uffff"


def _translation(table: dict[str, int]) -> dict[int, str]:
    codes: dict[int | str, str] = dict.fromkeys(range(52), _NOT_A_CARD)
    for ch, i in table.items():
        codes[ch] = codes[ch.lower()] = chr(i)
    return str.maketrans(codes)


_SUIT_TRANSLATIONS = tuple(map(_translation, _SUIT_TABLES))
_CARD_BY_CODE = {chr(i): card for i, card in enumerate(ALL_CARDS)}
_BIT_BY_CODE = {chr(i): 1 << i for i in range(52)}


def _suit_bits() -> dict[str, int]:
    """Each set of ranks written as PBN writes it (upper case, high to low: ``AQT2``) ->
    its 13 bits, bit ``RANK_OFFSET[letter]`` for each rank: a suit's part of a hand's
    card mask (8,192 entries, made once, at import)."""
    bits = {"": 0}
    for ch in RANK_CHARS[::-1]:  # each set grows by its next lower rank, at its end
        bit = 1 << RANK_OFFSET[ch]
        bits.update([(text + ch, m | bit) for text, m in bits.items()])
    return bits


_SUIT_BITS = _suit_bits()


_WHOLE = (1 << 52) - 1


def _suits(text: str) -> list[str]:
    """A PBN hand's four suits' rank letters (``10`` read as ``T``), spades first."""
    parts = text.strip().replace("10", "T").split(".")
    if len(parts) != 4:
        raise ValueError(f"a hand needs four suits separated by dots: {text!r}")
    return parts


def _codes(parts: list[str]) -> str:
    """Each rank letter of a hand's suits as the character whose code is its card's index
    (one C-level translate a suit); a character that is no rank becomes ``_NOT_A_CARD``."""
    spades, hearts, diamonds, clubs = parts
    t = _SUIT_TRANSLATIONS
    return (
        spades.translate(t[0])
        + hearts.translate(t[1])
        + diamonds.translate(t[2])
        + clubs.translate(t[3])
    )


DealMasks = tuple[int, int, int, int]  # each hand's cards as bits of card indices, N E S W


def whole_deal_masks(text: str) -> DealMasks | None:
    """The four hands of a PBN ``Deal`` value as bit masks of card indices (bit ``i`` for
    ``ALL_CARDS[i]``), by seat order (N, E, S, W), when the value is a whole, sound deal:
    four hands of 13 cards, each card once. None for anything else (a hand not given, a
    card twice, an end position, text :meth:`Deal.parse` refuses): then the Deal model
    says what the deal is. The masks are the same facts ``Deal.parse`` reads, without
    building the hands' cards, for the Laws' replay of the play.

    The last deals' masks are kept (``_RECENT``): a reader checks a deal this way and the
    validation of the same board, which follows, asks for its masks again."""
    found = _RECENT.get(text)
    if found is not None:
        return found
    masks = _deal_masks(text)
    if masks is not None:
        _RECENT.share(text, masks)
    return masks


# The masks of the deals read last (see whole_deal_masks): a few, as a board's
# validation follows its reading.
_RECENT: SharedTable[str, DealMasks] = SharedTable(64)


def _deal_masks(text: str) -> DealMasks | None:
    """:func:`whole_deal_masks`, worked out."""
    t = text.strip()
    if len(t) < 2 or t[1] != ":":
        return None
    first = _FIRST_SEAT.get(t[0])
    parts = t[2:].split()
    if first is not None and len(parts) == 4:  # the usual spelling, in a few steps
        bits = _SUIT_BITS
        try:
            a, b, c, d = [
                bits[spades] << 39 | bits[hearts] << 26 | bits[diamonds] << 13 | bits[clubs]
                for spades, hearts, diamonds, clubs in map(_SUITS_OF, parts)
            ]
        except (KeyError, ValueError):  # not four suits written high to low: rank by rank
            pass
        else:
            counts = (a.bit_count(), b.bit_count(), c.bit_count(), d.bit_count())
            if a | b | c | d == _WHOLE and counts == (13, 13, 13, 13):
                hands = (a, b, c, d)  # from ``first`` on: seat N holds hands[-first]
                return hands[-first], hands[1 - first], hands[2 - first], hands[3 - first]
    return _masks_rank_by_rank(t)


_FIRST_SEAT = {seat.value: i for i, seat in enumerate(ROTATION)} | {
    seat.value.lower(): i for i, seat in enumerate(ROTATION)
}
_SUITS_OF = methodcaller("split", ".")


def _masks_rank_by_rank(t: str) -> DealMasks | None:
    """:func:`whole_deal_masks` of any spelling (``t`` stripped, with ``:`` second)."""
    try:
        first = SEAT_ORDER[Seat.parse(t[0])]
        parts = t[2:].split()
        if len(parts) != 4:
            return None
        bit = _BIT_BY_CODE.__getitem__
        bits = _SUIT_BITS
        masks = [0, 0, 0, 0]
        union = 0
        for k, part in enumerate(parts):
            suits = part.split(".")
            if len(suits) == 4 and all(map(bits.__contains__, suits)):  # written high to low
                spades, hearts, diamonds, clubs = suits
                mask = bits[spades] << 39 | bits[hearts] << 26 | bits[diamonds] << 13 | bits[clubs]
                if mask.bit_count() != 13:
                    return None
            else:  # any order or case, "10": rank by rank
                codes = _codes(_suits(part))
                mask = sum(map(bit, codes))
                if len(codes) != 13 or mask.bit_count() != 13:
                    return None  # not 13 cards, or a card twice
            masks[(first + k) & 3] = mask
            union |= mask
    except (ValueError, KeyError):  # not a seat, not four suits, not a rank
        return None
    if union != _WHOLE:
        return None  # a card in two hands
    return masks[0], masks[1], masks[2], masks[3]


class Hand(BaseModel):
    """The cards one player holds, kept sorted (spades first, high to low)."""

    model_config = ConfigDict(frozen=True)

    cards: tuple[Card, ...] = ()

    @classmethod
    def of(cls, cards: Iterable[Card]) -> Hand:
        # Spades first, high to low, is descending card index; the sort is stable either way.
        ordered = sorted(cards, key=_INDEX, reverse=True)
        return make(cls, cards=tuple(ordered))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """``AKQ.JT9.876.5432`` (spades.hearts.diamonds.clubs); ranks in any order or case."""
        parts = text.split(".")
        if len(parts) == 4 and all(map(_SUIT_BITS.__contains__, parts)):
            # each suit as PBN writes it, high to low: the codes are ``of``'s order already
            codes = _codes(parts)
        else:  # any order, case or spacing, "10": sorted descending, ``of``'s order
            parts = _suits(text)
            codes = "".join(sorted(_codes(parts), reverse=True))
        try:
            cards = tuple(map(_CARD_BY_CODE.__getitem__, codes))
        except KeyError:
            tables = zip(_SUIT_TABLES, parts, strict=True)
            bad = next(ch for table, ranks in tables for ch in ranks if ch.upper() not in table)
            raise ValueError(f"not a rank: {bad!r}") from None  # as Rank.parse says it
        return cls(cards=cards)  # (a view, not kept: see Deal.parse)

    def suit(self, suit: Suit) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.suit is suit)

    def has_suit(self, suit: Suit) -> bool:
        return any(c.suit is suit for c in self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[Card]:  # type: ignore[override]
        return iter(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    @property
    def pbn(self) -> str:
        """PBN text: the cards of each suit in the order held (descending, as ``of`` sorts)."""
        suits = ["", "", "", ""]  # by suit order: clubs .. spades
        for c in self.cards:
            i = c.index  # cached; one division instead of enum property lookups
            suits[i // 13] += RANK_CHARS[i % 13]
        return f"{suits[3]}.{suits[2]}.{suits[1]}.{suits[0]}"

    @property
    def hcp(self) -> int:
        return sum(max(0, c.rank.value - 10) for c in self.cards)

    def __str__(self) -> str:
        return self.pbn


class Deal(BaseModel):
    """Up to four hands. A hand that is not given is ``None``.

    ``first`` is the seat the source text started with (PBN ``Deal "W:..."``); it
    is kept so the text can be written back as read.
    """

    model_config = ConfigDict(frozen=True)

    hands: dict[Seat, Hand | None]
    first: Seat = Seat.N

    @classmethod
    def parse(cls, text: str) -> Deal:
        """PBN ``Deal`` value ``"N:hand hand hand hand"``, ``-`` for an unknown hand.

        Raises ValueError for text that is not a deal; card counts and repeated
        cards are checked by :meth:`problems`, so a reader can report them.
        """
        t = text.strip()
        if len(t) < 2 or t[1] != ":":
            raise ValueError(f"a deal starts with a seat and a colon: {text!r}")
        first = Seat.parse(t[0])
        parts = t[2:].split()
        if len(parts) > 4 or not parts:
            raise ValueError(f"a deal has four hands: {text!r}")
        hands: dict[Seat, Hand | None] = dict.fromkeys(ROTATION)
        for seat, part in zip(rotation_from(first), parts, strict=False):
            hands[seat] = None if part == "-" else Hand.parse(part)
        # Validated, not model_construct'ed: for a model of a field or two pydantic-core's
        # check of well-typed values takes half the time of model_construct's loop in
        # Python; the fields-set of its own it gets costs nothing kept, since a parsed deal
        # is a view, built when asked and not kept (Board.deal).
        return cls(hands=hands, first=first)

    def hand(self, seat: Seat) -> Hand | None:
        return self.hands.get(seat)

    def pbn(self, first: Seat | None = None) -> str:
        """PBN text starting with ``first`` (the dealer in export format)."""
        start = first or self.first
        body = []
        for seat in rotation_from(start):
            h = self.hands.get(seat)
            body.append("-" if h is None else h.pbn)
        return f"{start.value}:" + " ".join(body)

    @property
    def known_seats(self) -> tuple[Seat, ...]:
        return tuple(s for s in ROTATION if self.hands.get(s) is not None)

    @property
    def is_complete(self) -> bool:
        """Four hands of 13 cards each."""
        return all((h := self.hands.get(s)) is not None and len(h) == 13 for s in ROTATION)

    @property
    def hand_size(self) -> int | None:
        sizes = {len(h) for h in self.hands.values() if h is not None}
        return sizes.pop() if len(sizes) == 1 else None

    @property
    def is_end_position(self) -> bool:
        size = self.hand_size
        return size is not None and size < 13

    def completed(self) -> Deal:
        """With exactly one 13-card hand missing, the deal with that hand filled in.

        Used where a format implies the last hand (LIN's three-hand ``md``); any
        other deal comes back unchanged.
        """
        missing = [s for s in ROTATION if self.hands.get(s) is None]
        known = [h for h in self.hands.values() if h is not None]
        if len(missing) != 1 or any(len(h) != 13 for h in known):
            return self
        held = {c.index for h in known for c in h.cards}
        hands = dict(self.hands)
        # the cards left, by descending index: the order Hand keeps (spades first)
        left = tuple(ALL_CARDS[i] for i in range(51, -1, -1) if i not in held)
        hands[missing[0]] = construct(Hand, {"cards": left}, _CARDS_SET)
        return construct(Deal, {"hands": hands, "first": self.first}, _DEAL_SET)

    def problems(self) -> list[str]:
        """What is wrong with the deal as a deal (PBN section 4.1), empty when it is sound."""
        out: list[str] = []
        given = [(s, h) for s in ROTATION if (h := self.hands.get(s)) is not None]
        if not given:
            out.append("no hand is given")
            return out
        for seat, hand in given:
            if len(hand) > 13:
                out.append(f"{seat.full_name} holds {len(hand)} cards")
        if len({len(h) for _, h in given}) > 1:
            counts = ", ".join(f"{s.full_name} {len(h)}" for s, h in given)
            out.append(f"hands hold different numbers of cards ({counts})")
        seen: dict[Card, Seat] = {}
        for seat, hand in given:
            prev: Card | None = None
            for card in hand.cards:
                if card == prev:
                    out.append(f"{card} appears twice in {seat.full_name}'s hand")
                elif card in seen and seen[card] is not seat:
                    other = seen[card].full_name
                    out.append(f"{card} is in both {other}'s and {seat.full_name}'s hands")
                seen[card] = seat
                prev = card
        return out

    def __str__(self) -> str:
        return self.pbn()


RANKS_DESCENDING = RANK_CHARS[::-1]
