"""Replay of the recorded play: who leads, following suit, trick winners, revokes.

The record lays cards out by seat column (PBN); the play order comes from the
Laws: declarer's left-hand opponent leads (Law 41; an accepted lead out of turn,
``^L``, takes its place, Law 53), and the winner of each trick leads the next
(Law 44G). Where a lead is unknown ('-') the order is lost from there on, so
later tricks are checked for cards held only, as the PBN verifier does.
"""

from __future__ import annotations

from functools import reduce
from operator import attrgetter, or_
from typing import NamedTuple

from bridgefiles.laws.claims import Settlement, settle
from bridgefiles.laws.editions import Edition
from bridgefiles.laws.plain import plain_winners
from bridgefiles.laws.revokes import Revoke, RevokeRuling
from bridgefiles.model.cards import ALL_CARDS, SUITS_BY_ORDER, Card, Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.outcome import NO_TRUMP, winning_position
from bridgefiles.model.play import Play, PlayedCard, PlayEnd, Slot, card_indices
from bridgefiles.model.seats import ROTATION, SEAT_ORDER, Seat


class PlayResult(NamedTuple):
    """The play as the Laws count it. Trick counts are declarer's side's.

    ``won`` is as played and claimed; ``law64`` the signed transfer of Law 64
    (negative when declarer's side revoked); ``final`` what is scored.
    """

    winners: tuple[Seat, ...]  # winners of the tricks followed to the end, in order
    played: int | None  # declarer's side's tricks among ``winners``
    won: int | None
    law64: int | None  # None: the record does not fix the transfer
    final: int | None
    settlement: Settlement
    revokes: tuple[Revoke, ...]
    diagnostics: tuple[Diagnostic, ...]
    complete: bool  # 13 tricks followed
    stopped: bool  # a claim or concession ('*', LIN mc)


def _where(play: Play, index: int, trick: int, seat: Seat) -> dict[str, object]:
    """Where slot ``index`` stood, for a finding about it."""
    line, column = play.where(index)
    return {"line": line, "column": column, "trick": trick, "seat": seat}


_FULL = (1 << 52) - 1
_BIT = tuple(1 << i for i in range(52))
_SUIT_MASK = 0x1FFF  # a suit's 13 bits, shifted by 13 * suit order
_INDEX = attrgetter("index")
_CARD, _NEXT = Slot.CARD, Slot.NEXT
# the seats of a trick in playing order, by the leader's order
_ORDERS = tuple(tuple((lead + k) & 3 for k in range(4)) for lead in range(4))
# the seats of the record's columns, by the order of the seat of its first column
_SEATS = tuple(tuple(ROTATION[(first + k) & 3] for k in range(4)) for first in range(4))


class _Hands:
    """What each seat still holds, as far as the deal tells: per seat (by order) a bit
    mask of card indices and (once ``count_suits`` is called) a count per suit, cheap to
    test and update."""

    __slots__ = ("cards", "held", "played", "pool", "sound", "suits")

    def __init__(self, deal: Deal | None, masks: tuple[int, int, int, int] | None = None) -> None:
        self.held: list[int | None] = [None, None, None, None]
        self.cards: list[tuple[Card, ...]] = [(), (), (), ()]
        self.suits: list[list[int] | None] = [None, None, None, None]
        self.pool: int | None = None  # the cards left for the hands not given
        self.played: dict[int, tuple[int, Seat]] = {}
        self.sound = False  # four hands, no card twice: each card has one holder
        if masks is not None:  # a whole, sound deal (model.deal.whole_deal_masks)
            self.held = list(masks)
            self.sound = True
            return
        if deal is None:
            return
        hands = deal.hands
        union = 0
        known = 0
        sound = True
        for s, seat in enumerate(ROTATION):
            hand = hands.get(seat)
            if hand is None:
                continue
            cards = hand.cards
            mask = sum(map(_BIT.__getitem__, map(_INDEX, cards)))
            if mask.bit_count() != len(cards):  # a card twice in the hand (the reader said so)
                mask = reduce(or_, map(_BIT.__getitem__, map(_INDEX, cards)), 0)
                sound = False
            sound = sound and not union & mask  # and no card in two hands
            self.held[s], self.cards[s] = mask, cards
            union |= mask
            known += 1
        if known < 4:
            self.pool = _FULL & ~union
        self.sound = sound and known == 4

    def count_suits(self) -> None:
        """The count per suit of each known hand, for following suit card by card."""
        for s, mask in enumerate(self.held):
            if mask is None:
                continue
            cards = self.cards[s]
            if self.sound or mask.bit_count() == len(cards):  # each card once
                counts = [(mask >> shift & _SUIT_MASK).bit_count() for shift in (0, 13, 26, 39)]
            else:  # a card twice in the hand: count each copy
                counts = [0, 0, 0, 0]
                for c in cards:
                    counts[c.index // 13] += 1
            self.suits[s] = counts

    def take(self, seat: int, index: int, trick: int) -> str | None:
        """Remove a played card; say why it could not have been played, if so."""
        card = ALL_CARDS[index]
        who = ROTATION[seat]
        if index in self.played:
            number, by = self.played[index]
            return f"{card} was already played by {by.full_name} at trick {number}"
        bit = _BIT[index]
        mask = self.held[seat]
        if mask is not None:
            if not mask & bit:
                return f"{who.full_name} does not hold {card}"
            self.held[seat] = mask ^ bit
            counts = self.suits[seat]
            assert counts is not None
            counts[index // 13] -= 1
        elif self.pool is not None:
            if not self.pool & bit:
                return f"{card} is not among the cards left for {who.full_name}'s unknown hand"
            self.pool ^= bit
        self.played[index] = (trick, who)
        return None


def _marked_leads(
    play: Play,
    number: int,
    following: bool,
    leader: Seat | None,
    diags: list[Diagnostic],
) -> Seat | None:
    """A trick with a card marked '^L' (Law 53): its findings, and who leads the trick."""
    base = 4 * (number - 1)  # the trick's first slot
    first = play.first
    trick_slots = {first.offset(k): s for k, s in enumerate(play.slots[base : base + 4])}
    column = {seat: base + k for k, seat in enumerate(trick_slots)}

    def where(seat: Seat) -> dict[str, object]:
        return _where(play, column[seat], number, seat)

    out_of_turn = [seat for seat, s in trick_slots.items() if s.lead_out_of_turn]
    if len(out_of_turn) > 1:
        diags.append(
            error(
                "lead-out-of-turn",
                f"more than one lead out of turn marked at trick {number}",
                law="53",
                **where(out_of_turn[1]),
            )
        )
    for seat, s in trick_slots.items():
        if s.lead_out_of_turn and s.revoke:
            diags.append(
                error(
                    "lead-out-of-turn",
                    "a card cannot be both a revoke and a lead out of turn",
                    **where(seat),
                )
            )
    if following and out_of_turn:
        seat = out_of_turn[0]
        if seat is leader:
            diags.append(
                error(
                    "lead-out-of-turn",
                    f"{seat.full_name}'s lead is marked out of turn but it was his lead",
                    law="53",
                    **where(seat),
                )
            )
        else:
            assert leader is not None
            diags.append(
                warning(
                    "lead-out-of-turn",
                    f"{seat.full_name} led out of turn instead of {leader.full_name}; accepted",
                    law="53A",
                    **where(seat),
                )
            )
            return seat
    return leader


def replay_play(
    play: Play,
    deal: Deal | None,
    strain: Strain | None,
    declarer: Seat | None,
    *,
    leader: Seat | None = None,
    marked: bool = True,
    result_tricks: int | None = None,
    result_disputed: bool = False,
    laws: Edition = "2017",
    masks: tuple[int, int, int, int] | None = None,
) -> PlayResult:
    """Follow the play card by card and count the tricks (Laws 41-44, 61-64, 68-69).

    ``leader`` overrides the opening leader (end positions: the Play tag's seat);
    ``marked`` says the format marks accepted irregularities (PBN ``^R``, ``^L``);
    ``result_tricks`` is declarer's total from the Result tag, used to read a
    PBN claim ('*'), which records only the outcome; ``result_disputed`` says the
    Result is marked '^' (an agreed count that differs from the tricks won);
    ``laws`` the edition whose Law 64 applies; ``masks``, given for a whole, sound deal
    (``bridgefiles.model.deal.whole_deal_masks`` of its text), stand for ``deal``.

    Seats are counted as their order (0-3) and cards as their index (0-51) inside
    the loop: it runs for every card of every board validated.
    """
    if leader is None:
        leader = declarer.lho if declarer is not None else None
    slots = play.slots
    nslots = len(slots)
    first = SEAT_ORDER[play.first]
    trump = strain.order if strain is not None else NO_TRUMP
    lead = SEAT_ORDER[leader] if leader is not None else 0  # the leader, by order
    hands = None if masks is not None else _Hands(deal)
    sound = masks if hands is None else hands.held if hands.sound else None  # by seat order
    if sound is not None and leader is not None and strain is not None:
        indices = card_indices(play) if nslots and nslots <= 52 and not nslots & 3 else None
        columns = plain_winners(indices, sound, first, lead, trump) if indices else None
        if columns is not None:  # nothing for the Laws to say card by card
            won_by = tuple(map(_SEATS[first].__getitem__, columns))
            played = None
            if declarer is not None:
                d = (SEAT_ORDER[declarer] - first) & 3  # declarer's column
                played = columns.count(d) + columns.count(d ^ 2)
            return _ending(
                play,
                won_by,
                (),
                [],
                played,
                nslots >> 2,
                declarer,
                marked,
                result_tricks,
                result_disputed,
                laws,
            )
    if hands is None:
        hands = _Hands(deal, masks)
    held, suits = hands.held, hands.suits
    hands.count_suits()
    diags: list[Diagnostic] = []
    dummy = SEAT_ORDER[declarer.partner] if declarer is not None else -1
    ntricks = min(13, (nslots + 3) // 4)
    if nslots > 52:
        diags.append(error("play", "more than 13 tricks are recorded", line=play.line))
    winners: list[int] = []
    revokes: list[Revoke] = []
    following = leader is not None  # the play order is known
    after_next = False  # a '+' was met: nothing real may come after it
    next_at = 0  # the trick of the '+'
    last_trick_seen = 0
    for t in range(ntricks):
        number = t + 1
        tslots = slots[4 * t : 4 * t + 4]
        by_seat: list[PlayedCard | None] = [None, None, None, None]
        marked_lead = False
        for k, s in enumerate(tslots):
            by_seat[(first + k) & 3] = s
            if s.slot is _CARD:
                last_trick_seen = number
            if s.lead_out_of_turn:
                marked_lead = True
        if marked_lead:  # who leads: the ^L card's seat, else the expected leader
            seat_led = _marked_leads(
                play, number, following, ROTATION[lead] if following else None, diags
            )
            if seat_led is not None:
                lead = SEAT_ORDER[seat_led]
        order = _ORDERS[lead] if following else _ORDERS[0]
        cards: list[int] = []
        led = -1
        trick_known = following
        for pos in range(4):
            seat = order[pos]
            got = by_seat[seat]
            at = 4 * t + ((seat - first) & 3)  # its slot
            if got is None or got.slot is not _CARD or got.card is None:
                if got is not None and got.slot is _NEXT:
                    after_next, next_at = True, number
                trick_known = False
                if pos == 0:
                    following = False  # unknown lead: the order is lost from here
                continue
            index = got.card.index
            suit = index // 13
            if after_next and (following or number > next_at):
                diags.append(
                    error(
                        "play",
                        f"{got.card} comes after the '+' that marks the next card to play",
                        **_where(play, at, number, ROTATION[seat]),
                    )
                )
            if following and trick_known and pos > 0 and led >= 0 and suit != led:
                counts = suits[seat]
                held_led = None if counts is None else counts[led] > 0
                if held_led or (held_led is None and got.revoke):
                    line, column = play.where(at)
                    revokes.append(
                        Revoke(
                            trick=number,
                            player=ROTATION[seat],
                            suit=SUITS_BY_ORDER[led],
                            established=False,  # decided below (Law 63)
                            dummy=seat == dummy,
                            marked=got.revoke,
                            line=line,
                            column=column,
                        )
                    )
                elif got.revoke:
                    diags.append(
                        error(
                            "revoke",
                            f"{got.card} is marked as a revoke, but {ROTATION[seat].full_name} "
                            f"had no {SUITS_BY_ORDER[led].value} left",
                            law="61A",
                            **_where(play, at, number, ROTATION[seat]),
                        )
                    )
            elif got.revoke and following and trick_known:
                diags.append(
                    error(
                        "revoke",
                        f"{got.card} is marked as a revoke, but it "
                        + ("is the lead" if pos == 0 else "follows suit"),
                        law="61A",
                        **_where(play, at, number, ROTATION[seat]),
                    )
                )
            # the common case of hands.take inline: a card of a known hand, not played yet
            mask = held[seat]
            if mask is not None and mask & _BIT[index] and index not in hands.played:
                held[seat] = mask ^ _BIT[index]
                suits[seat][suit] -= 1  # type: ignore[index]  # set with held
                hands.played[index] = (number, ROTATION[seat])
            else:
                why = hands.take(seat, index, number)
                if why is not None:
                    diags.append(
                        error(
                            "card-not-held",
                            why,
                            law="44",
                            **_where(play, at, number, ROTATION[seat]),
                        )
                    )
                    # the deal is not the one played: following suit and trick winners
                    # cannot be judged from here on (cards held are still checked)
                    trick_known = following = False
            if pos == 0:
                led = suit
            cards.append(index)
        if following and trick_known and len(cards) == 4:
            if strain is None:
                following = False
            else:
                lead = (lead + winning_position(cards, trump)) & 3
                winners.append(lead)
        elif following:
            following = False
    stopped = play.end is PlayEnd.STOPPED or play.claim is not None
    # Law 63: established once the offending side plays to the next trick or claims
    settled: list[Revoke] = []
    for r in revokes:
        nxt = r.trick  # index of the next trick's slots
        established = r.marked or stopped
        for k in range(4):
            i = 4 * nxt + k
            seat_k = play.first.offset(k)
            if i < nslots and seat_k.side is r.side and slots[i].slot is Slot.CARD:
                established = True
        settled.append(
            Revoke(
                trick=r.trick,
                player=r.player,
                suit=r.suit,
                established=established,
                dummy=r.dummy,
                marked=r.marked,
                line=r.line,
                column=r.column,
            )
        )
    won_by = tuple(map(ROTATION.__getitem__, winners))
    played = None
    if declarer is not None:
        d = SEAT_ORDER[declarer]
        played = winners.count(d) + winners.count(d ^ 2)
    return _ending(
        play,
        won_by,
        tuple(settled),
        diags,
        played,
        last_trick_seen,
        declarer,
        marked,
        result_tricks,
        result_disputed,
        laws,
    )


def _ending(
    play: Play,
    won_by: tuple[Seat, ...],
    revokes: tuple[Revoke, ...],
    diags: list[Diagnostic],
    played: int | None,
    recorded: int,
    declarer: Seat | None,
    marked: bool,
    result_tricks: int | None,
    result_disputed: bool,
    laws: Edition,
) -> PlayResult:
    """How a replay ends, for a plain play as for one followed card by card: the tricks
    settled with any claim and Law 64 (``claims.settle``), the findings in trick order.

    ``won_by``: the winners of the tricks followed to the end; ``played``: declarer's
    side's among them; ``recorded``: the last trick with a card recorded.
    """
    stopped = play.end is PlayEnd.STOPPED or play.claim is not None
    complete = len(won_by) == 13
    settlement = settle(
        winners=won_by,
        revokes=revokes,
        declarer=declarer,
        complete=complete,
        stopped=stopped,
        claim=play.claim.tricks if play.claim is not None else None,
        result=result_tricks if play.end is PlayEnd.STOPPED else None,
        result_disputed=result_disputed,
        recorded=recorded,
        laws=laws,
    )
    diags.extend(settlement.diagnostics)
    resolved = settlement.resolved
    for ruling in settlement.law64.rulings:
        diags.append(_revoke_diagnostic(ruling.revoke, ruling, declarer, marked, resolved))
    if len(diags) > 1:
        diags.sort(key=lambda d: d.trick or 0)
    return PlayResult(
        winners=won_by,
        played=played,
        won=settlement.won,
        law64=settlement.law64_declarer if resolved else _unknown(settlement),
        final=settlement.final,
        settlement=settlement,
        revokes=revokes,
        diagnostics=tuple(diags),
        complete=complete,
        stopped=stopped,
    )


def _unknown(settlement: Settlement) -> int | None:
    """The transfer when the tricks after a claim are unknown: 0 if no revoke could move one."""
    if any(r.rule in ("64A1", "64A2", "64B1") for r in settlement.law64.rulings):
        return None
    return 0


def _revoke_diagnostic(
    r: Revoke, ruling: RevokeRuling, declarer: Seat | None, marked: bool, resolved: bool
) -> Diagnostic:
    """The revoke as a diagnostic: established or not, and what Law 64 does with it."""
    who = r.player.full_name
    text = f"{who} revoked at trick {r.trick} (failed to follow {r.suit.value})"
    if not r.established:
        text += ", not established: it must be corrected (Law 62A)"
        law = "62A"
    elif not resolved and ruling.rule in ("64A1", "64A2", "64B1"):
        law = "64"
        text += (
            ", established; the record does not fix its Law 64 transfer (who won the "
            "tricks after the claim is not shown): law64 unknown"
        )
    else:
        law = ruling.rule
        if ruling.transferred:
            to = "declarer" if declarer is not None and r.side is not declarer.side else "defenders"
            if declarer is None:
                to = "the non-offending side"
            s = "s" if ruling.transferred != 1 else ""
            text += f", established (Law {law}: {ruling.transferred} trick{s} to {to})"
        else:
            text += f", established (Law {law}: no trick transferred)"
        if ruling.director:
            text += "; the Director may adjust (Law 64C)"
    where = {"line": r.line, "column": r.column, "trick": r.trick, "seat": r.player}
    if marked and not r.marked:
        return error("revoke", text + "; not marked '^R'", law=law, **where)
    return warning("revoke", text, law=law, **where)
