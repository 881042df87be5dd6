"""The common play ruled a trick at a time: whole tricks of plain cards from a sound deal.

Most records are plays with nothing for the Laws to say: every card held by the seat
of its column, every player following suit while he can. For those the card-by-card
replay of ``laws.play`` would find nothing either, so :func:`plain_winners` gives the
same ruling (who won each trick, Law 44) in a few operations a trick, and says None
for anything else, which then goes card by card.

Cards are their indices (``Card.index``: 13 * suit order + rank); the seats of a trick
are the columns 0-3 of the record (column ``k`` is seat ``first + k``).
"""

from __future__ import annotations

from collections.abc import Sequence

from bridgefiles.model.outcome import STANDINGS

_SUIT_MASK = 0x1FFF  # a suit's 13 bits of a hand's mask, shifted by 13 * suit order
_BIT_OF = {i: 1 << i for i in range(52)}  # (a dict's __getitem__: a quick callable for map)
_SUIT_OF = tuple(i // 13 for i in range(52))
_SUIT_OF_CARD = dict(enumerate(_SUIT_OF))  # the same, as a dict for map()
_LED_BOTTOM, _LED_TOP = 50, 62  # the standings of the cards of the suit led (STANDINGS)


def plain_winners(
    cards: Sequence[int], held: Sequence[int | None], first: int, leader: int, trump: int
) -> list[int] | None:
    """The winning column of each trick of a plain play, or None when the play is not one.

    ``cards``: the card indices of whole tricks in record order (four a trick, column by
    column, at most 13 tricks), each a plain card; ``held``: a sound deal's hands as
    card masks by seat order; ``first``: the seat order of column 0; ``leader``: the
    seat order of the opening leader; ``trump``: the trump suit's order or
    ``model.outcome.NO_TRUMP``.

    Plain: each card held by the seat of its column, and every card of another suit
    than the one led played by a seat that held none of it any more (neither played
    later nor still held at the end of the record). Anything else is None: a card not
    held, a card twice, a revoke.

    The loop compares standings in plain bytecode (no call to max or min): it runs for
    every trick of every board validated.
    """
    bit = _BIT_OF.__getitem__
    columns = (cards[0::4], cards[1::4], cards[2::4], cards[3::4])
    unplayed = [0, 0, 0, 0]  # by column: the cards its seat never played
    for column, mine in enumerate(columns):
        mask = sum(map(bit, mine))  # as many bits as cards unless a card repeats
        hand = held[(first + column) & 3]
        if hand is None or mask.bit_count() != len(mine) or mask & ~hand:
            return None  # a card played twice, or one the seat does not hold
        unplayed[column] = hand & ~mask
    standings = STANDINGS[trump]  # Law 44, one table lookup a card
    suit_of = _SUIT_OF
    winners: list[int] = []
    append = winners.append
    at = (leader - first) & 3  # the column that leads
    top, bottom = _LED_TOP, _LED_BOTTOM
    for row in zip(*columns, strict=False):  # a trick, by column (whole tricks: as long)
        led = suit_of[row[at]]
        standing = standings[led]
        a = standing[row[0]]
        b = standing[row[1]]
        c = standing[row[2]]
        d = standing[row[3]]
        if a > b:
            w = 0
            best = a
        else:
            w = 1
            best = b
        if c > best:
            w = 2
            best = c
        if d > best:
            w = 3
            best = d
        if best > top or a < bottom or b < bottom or c < bottom or d < bottom:
            base = 4 * len(winners) + 4  # a card not of the suit led: did its seat hold one?
            for column in (0, 1, 2, 3):
                if row[column] // 13 != led:
                    later = map(_SUIT_OF_CARD.__getitem__, cards[base + column :: 4])
                    if led in later or unplayed[column] >> (13 * led) & _SUIT_MASK:
                        return None  # he still held one: a revoke
        at = w
        append(w)
    return winners
