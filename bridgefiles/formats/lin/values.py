"""The value syntax of LIN's core commands (lin.md sections 2, 5 and 6).

Each function reads one value and raises ValueError with a short reason when it
cannot; the builder turns that into a diagnostic and keeps the command.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from bridgefiles.model.calls import Call, Contract
from bridgefiles.model.cards import RANK_CHARS, Card, Rank, Suit
from bridgefiles.model.deal import Hand
from bridgefiles.model.fast import construct, shared_fields
from bridgefiles.model.seats import Seat, Vulnerability, rotation_from

# Lists (pn, md hands, pw) run South, West, North, East; md digits 1-4 likewise.
LIN_ORDER: tuple[Seat, Seat, Seat, Seat] = (Seat.S, Seat.W, Seat.N, Seat.E)
DEALER_DIGITS: dict[str, Seat] = {"1": Seat.S, "2": Seat.W, "3": Seat.N, "4": Seat.E}
DIGIT_OF: dict[Seat, str] = {seat: digit for digit, seat in DEALER_DIGITS.items()}

_SV: dict[str, Vulnerability] = {
    "o": Vulnerability.NONE,
    "0": Vulnerability.NONE,
    "-": Vulnerability.NONE,
    "none": Vulnerability.NONE,
    "n": Vulnerability.NS,
    "ns": Vulnerability.NS,
    "e": Vulnerability.EW,
    "ew": Vulnerability.EW,
    "b": Vulnerability.ALL,
    "both": Vulnerability.ALL,
    "all": Vulnerability.ALL,
}
SV_OF: dict[Vulnerability, str] = {
    Vulnerability.NONE: "o",
    Vulnerability.NS: "n",
    Vulnerability.EW: "e",
    Vulnerability.ALL: "b",
}


def vulnerability(value: str) -> Vulnerability:
    """``sv``: o/0/- none, n, e, b, any case, and the words ns/ew/both/all."""
    try:
        return _SV[value.strip().lower()]
    except KeyError:
        raise ValueError(f"not a vulnerability: {value!r}") from None


_SUIT_CARDS: dict[str, dict[str, Card]] = {
    suit.value: {rank.char: Card.of(suit, rank) for rank in Rank} for suit in Suit
}
"""The cards of each suit by rank letter, by suit letter."""
_BY_LETTER: dict[str, dict[str, Card]] = {
    letter: {
        ch: card for rank, card in by_rank.items() for ch in (rank, rank.lower())
    }
    for suit, by_rank in _SUIT_CARDS.items()
    for letter in (suit, suit.lower())
}
"""The same in either case: ASCII letters only, so no other letter reads as one of
them (``str.upper`` would read ``ß`` as ``SS``); the grammar's md value is the same."""
_NO_SUIT: dict[str, Card] = {}


def hand(text: str) -> list[Card]:
    """One ``md`` hand: suit letters each followed by ranks, any case, spaces ignored."""
    cards: list[Card] = []
    ranks = _NO_SUIT  # the cards of the suit being read
    for ch in text.replace("10", "T"):
        card = ranks.get(ch)
        if card is not None:
            cards.append(card)
            continue
        suit = _BY_LETTER.get(ch)
        if suit is not None:
            ranks = suit
        elif ch in RANK_CHARS or ch in RANK_CHARS.lower():
            raise ValueError(f"rank {ch!r} before any suit letter in {text!r}")
        elif not ch.isspace():
            raise ValueError(f"{ch!r} is not a suit or rank in {text!r}")
    return cards


def deal(value: str) -> tuple[Seat | None, str, dict[Seat, Hand | None]]:
    """``md``: the dealer (None when the digit is missing or 0), the digit as written,
    and the hands given (an empty field is a hand not given)."""
    text = value.strip()
    digit = text[:1] if text[:1].isdigit() else ""
    body = text[len(digit) :]
    dealer = DEALER_DIGITS.get(digit)
    if digit and dealer is None and digit != "0":
        raise ValueError(f"dealer digit {digit!r} is not 1-4")
    fields = body.split(",")
    if len(fields) > 4 and any(f.strip() for f in fields[4:]):
        raise ValueError(f"more than four hands: {value!r}")
    hands: dict[Seat, Hand | None] = dict.fromkeys(LIN_ORDER)
    for seat, field in zip(LIN_ORDER, fields, strict=False):
        if field.strip():
            hands[seat] = Hand.of(hand(field))
    return dealer, digit, hands


_DOWN = "A?+K?+Q?+J?+T?+9?+8?+7?+6?+5?+4?+3?+2?+"  # a suit's ranks high to low, each once
_WHOLE_HAND_RE = re.compile(f"S({_DOWN})H({_DOWN})D({_DOWN})C({_DOWN})")
_SUITS_DOWN = tuple(_SUIT_CARDS[suit].__getitem__ for suit in "SHDC")
_RANKS_DOWN = "AKQJT98765432"
_HAND_SET = shared_fields(("cards",))  # the fields a Hand built here has set


class WholeDeal(NamedTuple):
    """An ``md`` that gives a whole, sound deal: what :func:`deal` and the completed
    :class:`~bridgefiles.model.deal.Deal` give for it, and its PBN ``Deal`` value."""

    dealer: Seat
    hands: dict[Seat, Hand | None]  # all four, in LIN order
    pbn: str  # the PBN Deal value, from the dealer


def whole_deal(value: str) -> WholeDeal | None:
    """``md`` as BBO writes it, read in a few C-level steps: a dealer digit 1-4, then
    three or four hands (the fourth is the cards left, lin.md 6.1), each in upper case
    with its suits in the order S H D C and each suit's ranks high to low, 13 cards a
    hand and each card once. None for any other value, which :func:`deal` reads."""
    dealer = DEALER_DIGITS.get(value[:1])
    fields = value[1:].split(",")
    if dealer is None or len(fields) != 4:
        return None
    given: list[tuple[str, ...]] = []
    for field in fields:
        if field:
            m = _WHOLE_HAND_RE.fullmatch(field) if len(field) == 17 else None  # 13 cards
            if m is None:
                return None
            given.append(m.groups())
    if len(given) < 3:
        return None
    by_suit = map("".join, zip(*given, strict=True))  # each suit's ranks held
    # the ranks of each suit no hand holds: as many as the hands leave, unless one repeats
    rest = tuple("".join([r for r in _RANKS_DOWN if r not in ranks]) for ranks in by_suit)
    if sum(map(len, rest)) != 52 - 13 * len(given):
        return None  # a card in two hands
    if len(given) == 3:  # the fourth hand is the cards left
        given.insert(fields.index(""), rest)
    hands: dict[Seat, Hand | None] = {}
    texts: dict[Seat, str] = {}
    s, h, d, c = _SUITS_DOWN
    for seat, groups in zip(LIN_ORDER, given, strict=True):
        spades, hearts, diamonds, clubs = groups
        cards = (*map(s, spades), *map(h, hearts), *map(d, diamonds), *map(c, clubs))
        hands[seat] = construct(Hand, {"cards": cards}, _HAND_SET)  # Hand's order already
        texts[seat] = ".".join(groups)
    pbn = f"{dealer.value}:" + " ".join(texts[seat] for seat in rotation_from(dealer))
    return WholeDeal(dealer, hands, pbn)


_CALL_RE = re.compile(r"([1-7](?:NT|N|C|D|H|S)|PASS|XX|P|D|R|X|\?)(!?)", re.IGNORECASE)


def calls(value: str) -> list[tuple[Call | None, bool, str]]:
    """``mb``: one call or several run together (movies), each with its ``!`` alert.

    A ``?`` placeholder comes back as None. Raises ValueError on anything else.
    """
    text = value.strip()
    if len(text) > 4:
        text = text.strip("-")
    out: list[tuple[Call | None, bool, str]] = []
    pos = 0
    while pos < len(text):
        m = _CALL_RE.match(text, pos)
        if m is None:
            raise ValueError(f"not a call: {value!r}")
        word = m.group(1)
        out.append((None if word == "?" else Call.parse(word), bool(m.group(2)), m.group(0)))
        pos = m.end()
    if not out:
        raise ValueError("empty call")
    return out


_CARD_RE = re.compile(r"(!?)([SHDC])(10|[2-9TJQKA])?", re.IGNORECASE)


def cards(value: str) -> list[tuple[Suit, Rank | None, bool]]:
    """``pc``: usually one card; movies write a suit alone (its lowest card), several
    cards together, or ``!`` for an unknown card. Each item: suit, rank or None, unknown."""
    text = value.strip()
    out: list[tuple[Suit, Rank | None, bool]] = []
    pos = 0
    while pos < len(text):
        m = _CARD_RE.match(text, pos)
        if m is None:
            raise ValueError(f"not a card: {value!r}")
        rank = Rank.parse(m.group(3)) if m.group(3) else None
        out.append((Suit(m.group(2).upper()), rank, bool(m.group(1))))
        pos = m.end()
    if not out:
        raise ValueError("empty card")
    return out


_ROOM = {"o": "Open", "c": "Closed"}
_QX_RE = re.compile(r"\s*([oOcC])?\s*(\d+)?(.*)", re.DOTALL)


def table_label(value: str) -> tuple[str | None, str | None]:
    """``qx``: the room (Open/Closed) and the board number, each None when absent."""
    m = _QX_RE.fullmatch(value)
    if m is None:  # pragma: no cover - the pattern matches any text
        return None, None
    room = _ROOM[m.group(1).lower()] if m.group(1) else None
    number = m.group(2) if m.group(2) else None
    if number is None:
        rest = re.search(r"\d+", m.group(3))
        number = rest.group(0) if rest and room else None
    return room, number


_PERCENT_RE = re.compile(r"%[0-9A-Fa-f]{2}")
_HEADING_RE = re.compile(r"Board ([^\s%+]*\d[^\s%+]*)")


def heading_number(value: str) -> str | None:
    """``ah``: ``Board <label>`` gives the label, else the first integer is the number.

    Percent escapes left in a file (``Board%2010``) are skipped, not decoded.
    """
    whole = _HEADING_RE.fullmatch(value)
    if whole:  # what a writer makes of a board label: keep it whole ("Board 4-1")
        return whole.group(1)
    m = re.search(r"\d+", _PERCENT_RE.sub(" ", value))
    return m.group(0) if m else None


def claim(value: str) -> int:
    t = value.strip()
    if not t.isdecimal() or int(t) > 13:
        raise ValueError(f"a claim is 0-13 tricks, not {value!r}")
    return int(t)


_RS_RE = re.compile(r"([1-7])([CDHSN])([NESW])(XX|X)?(=|[+-]\d{1,2})", re.IGNORECASE)


def table_result(entry: str) -> tuple[Contract, Seat | None, int | None] | None:
    """One ``rs`` entry: contract, declarer and declarer's tricks; None when empty."""
    t = entry.strip()
    if not t:
        return None
    if t.upper() in ("P", "PASS"):
        return Contract(passed_out=True), None, None
    m = _RS_RE.fullmatch(t)
    if m is None:
        raise ValueError(f"not a table result: {entry!r}")
    level = int(m.group(1))
    contract = Contract.parse(f"{level}{m.group(2)}{(m.group(4) or '').upper()}")
    over = 0 if m.group(5) == "=" else int(m.group(5))
    tricks = 6 + level + over
    if not 0 <= tricks <= 13:
        raise ValueError(f"impossible trick count in {entry!r}")
    return contract, Seat.parse(m.group(3)), tricks


SCORING: dict[str, str] = {"I": "IMP", "P": "MP", "B": "BAM"}
SCORING_OF: dict[str, str] = {v: k for k, v in SCORING.items()}
