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
from bridgefiles.laws.revokes import Revoke, RevokeRuling
from bridgefiles.model.cards import ALL_CARDS, SUITS_BY_ORDER, Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.outcome import NO_TRUMP, STANDINGS
from bridgefiles.model.play import (
    CARDLESS,
    NEXT_CARD,
    NO_CARD,
    Play,
    PlayEnd,
    Slot,
    slot_codes,
)
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
_SUITS = tuple(0x1FFF << 13 * suit for suit in range(4))  # a suit's 13 bits of a hand
_SUIT_OF = tuple(i // 13 for i in range(52))
_INDEX = attrgetter("index")
# the seats of a trick in playing order, each with its place in the trick and its column
# in the record, by the order of the seat of the record's first column and the leader's
_PLACES = tuple(
    tuple(
        tuple((pos, (lead + pos) & 3, (lead + pos - first) & 3) for pos in range(4))
        for lead in range(4)
    )
    for first in range(4)
)


class _Hands:
    """What each seat still holds, as far as the deal tells: per seat (by order) a bit
    mask of card indices, cheap to test and update, and the cards it held twice."""

    __slots__ = ("extra", "held", "played", "pool")

    def __init__(self, deal: Deal | None, masks: tuple[int, int, int, int] | None = None) -> None:
        self.held: list[int | None] = [None, None, None, None]
        # by seat: the cards its hand holds more than once (the reader said so); a copy
        # can never be played, but it counts as a card of its suit still held (Law 61)
        self.extra = [0, 0, 0, 0]
        self.pool: int | None = None  # the cards left for the hands not given
        # card index -> 4 * (trick - 1) + the seat's order, for each card taken
        self.played: dict[int, int] = {}
        if masks is not None:  # a whole, sound deal (model.deal.whole_deal_masks)
            self.held = list(masks)
            return
        if deal is None:
            return
        hands = deal.hands
        union = 0
        known = 0
        for s, seat in enumerate(ROTATION):
            hand = hands.get(seat)
            if hand is None:
                continue
            cards = hand.cards
            mask = sum(map(_BIT.__getitem__, map(_INDEX, cards)))
            if mask.bit_count() != len(cards):  # a card twice in the hand
                mask = reduce(or_, map(_BIT.__getitem__, map(_INDEX, cards)), 0)
                seen = 0
                for c in cards:
                    if seen & _BIT[c.index]:
                        self.extra[s] |= _BIT[c.index]
                    seen |= _BIT[c.index]
            self.held[s] = mask
            union |= mask
            known += 1
        if known < 4:
            self.pool = _FULL & ~union

    def take(self, seat: int, index: int, trick: int) -> str | None:
        """Remove a played card; say why it could not have been played, if so."""
        card = ALL_CARDS[index]
        who = ROTATION[seat]
        if index in self.played:
            earlier = self.played[index]
            by = ROTATION[earlier & 3]
            return f"{card} was already played by {by.full_name} at trick {(earlier >> 2) + 1}"
        bit = _BIT[index]
        mask = self.held[seat]
        if mask is not None:
            if not mask & bit:
                return f"{who.full_name} does not hold {card}"
            self.held[seat] = mask ^ bit
        elif self.pool is not None:
            if not self.pool & bit:
                return f"{card} is not among the cards left for {who.full_name}'s unknown hand"
            self.pool ^= bit
        self.played[index] = 4 * (trick - 1) + seat
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
    standings = STANDINGS[trump]  # Law 44, one table lookup a card
    lead = SEAT_ORDER[leader] if leader is not None else 0  # the leader, by order
    hands = _Hands(deal, masks)
    held, extra, played = hands.held, hands.extra, hands.played
    codes, marks = slot_codes(play)
    codes.extend([NO_CARD] * (-nslots % 4))  # a last trick cut short: its missing cards
    bits, suit_of, suits, no_card = _BIT, _SUIT_OF, _SUITS, NO_CARD  # (locals: a quicker loop)
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
    for t in range(ntricks):
        number = t + 1
        base = 4 * t  # the trick's first slot
        if marks and any(s.lead_out_of_turn for s in slots[base : base + 4]):
            # who leads: the ^L card's seat, else the expected leader
            seat_led = _marked_leads(
                play, number, following, ROTATION[lead] if following else None, diags
            )
            if seat_led is not None:
                lead = SEAT_ORDER[seat_led]
        places = _PLACES[first][lead if following else 0]
        led = -1
        standing = standings[0]
        best = -1  # the standing of the best card so far, and its seat
        win = 0
        count = 0  # cards of the trick taken
        trick_known = following
        for pos, seat, offset in places:
            at = base + offset  # its slot
            code = codes[at]
            if code >= no_card:  # no card here
                if code == NEXT_CARD:
                    after_next, next_at = True, number
                trick_known = False
                if pos == 0:
                    following = False  # unknown lead: the order is lost from here
                continue
            suit = suit_of[code]
            if after_next and (following or number > next_at):
                diags.append(
                    error(
                        "play",
                        f"{ALL_CARDS[code]} comes after the '+' that marks the next card to play",
                        **_where(play, at, number, ROTATION[seat]),
                    )
                )
            revoke = marks and slots[at].revoke
            if following and trick_known and pos > 0 and suit != led:
                mask = held[seat]
                held_led = None if mask is None else bool((mask | extra[seat]) & suits[led])
                if held_led or (held_led is None and revoke):
                    line, column = play.where(at)
                    revokes.append(
                        Revoke(
                            trick=number,
                            player=ROTATION[seat],
                            suit=SUITS_BY_ORDER[led],
                            established=False,  # decided below (Law 63)
                            dummy=seat == dummy,
                            marked=revoke,
                            line=line,
                            column=column,
                        )
                    )
                elif revoke:
                    diags.append(
                        error(
                            "revoke",
                            f"{ALL_CARDS[code]} is marked as a revoke, but "
                            f"{ROTATION[seat].full_name} had no {SUITS_BY_ORDER[led].value} left",
                            law="61A",
                            **_where(play, at, number, ROTATION[seat]),
                        )
                    )
            elif revoke and following and trick_known:
                diags.append(
                    error(
                        "revoke",
                        f"{ALL_CARDS[code]} is marked as a revoke, but it "
                        + ("is the lead" if pos == 0 else "follows suit"),
                        law="61A",
                        **_where(play, at, number, ROTATION[seat]),
                    )
                )
            # the common case of hands.take inline: a card of a known hand, not played yet
            mask = held[seat]
            if mask is not None and mask & bits[code] and code not in played:
                held[seat] = mask ^ bits[code]
                played[code] = base + seat
            else:
                why = hands.take(seat, code, number)
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
                standing = standings[suit]
            if standing[code] > best:  # Law 44: of two equal cards the first wins
                best, win = standing[code], seat
            count += 1
        if following and trick_known and count == 4:
            if strain is None:
                following = False
            else:
                lead = win
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
    ours = None
    if declarer is not None:
        d = SEAT_ORDER[declarer]
        ours = winners.count(d) + winners.count(d ^ 2)
    return _ending(
        play,
        won_by,
        tuple(settled),
        diags,
        ours,
        _last_trick_seen(codes),
        declarer,
        marked,
        result_tricks,
        result_disputed,
        laws,
    )


def _last_trick_seen(codes: list[int]) -> int:
    """The last trick (of the first 13) with a slot recorded as a card."""
    for i in range(min(len(codes), 52) - 1, -1, -1):
        if codes[i] < NO_CARD or codes[i] == CARDLESS:
            return i // 4 + 1
    return 0


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
    """How a replay ends: the tricks settled with any claim and Law 64
    (``claims.settle``), the findings in trick order.

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
