"""Replay of the recorded play: who leads, following suit, trick winners, revokes.

The record lays cards out by seat column (PBN); the play order comes from the
Laws: declarer's left-hand opponent leads (Law 41; an accepted lead out of turn,
``^L``, takes its place, Law 53), and the winner of each trick leads the next
(Law 44G). Where a lead is unknown ('-') the order is lost from there on, so
later tricks are checked for cards held only, as the PBN verifier does.
"""

from __future__ import annotations

from dataclasses import dataclass

from bridgefiles.laws.claims import Settlement, settle
from bridgefiles.laws.editions import Edition
from bridgefiles.laws.revokes import Revoke, RevokeRuling
from bridgefiles.model.cards import Card, Strain, Suit
from bridgefiles.model.deal import Deal
from bridgefiles.model.diagnostic import Diagnostic, error, warning
from bridgefiles.model.play import Play, PlayedCard, PlayEnd, Slot, trick_winner
from bridgefiles.model.seats import ROTATION, Seat


@dataclass(frozen=True, slots=True)
class PlayResult:
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


def _where(slot: PlayedCard, trick: int, seat: Seat) -> dict[str, object]:
    return {"line": slot.line, "column": slot.column, "trick": trick, "seat": seat}


class _Hands:
    """What each seat still holds, as far as the deal tells."""

    def __init__(self, deal: Deal | None) -> None:
        # cards as their 0-51 index, with a count per suit: cheap to test and update
        self.known: dict[Seat, set[int]] = {}
        self.suits: dict[Seat, list[int]] = {}
        self.pool: set[int] | None = None
        if deal is not None:
            for seat in ROTATION:
                hand = deal.hand(seat)
                if hand is not None:
                    counts = [0, 0, 0, 0]
                    held: set[int] = set()
                    for c in hand.cards:
                        i = c.index
                        held.add(i)
                        counts[i // 13] += 1
                    self.known[seat], self.suits[seat] = held, counts
            if len(self.known) < 4:
                self.pool = {c.index for c in deal.unassigned()}
        self.deal_known = deal is not None
        self.played: dict[int, tuple[int, Seat]] = {}

    def take(self, seat: Seat, card: Card, trick: int) -> str | None:
        """Remove a played card; say why it could not have been played, if so."""
        i = card.index
        if i in self.played:
            number, who = self.played[i]
            return f"{card} was already played by {who.full_name} at trick {number}"
        if self.deal_known:
            hand = self.known.get(seat)
            if hand is not None:
                if i not in hand:
                    return f"{seat.full_name} does not hold {card}"
                hand.discard(i)
                self.suits[seat][i // 13] -= 1
            elif self.pool is not None:
                if i not in self.pool:
                    return f"{card} is not among the cards left for {seat.full_name}'s unknown hand"
                self.pool.discard(i)
        self.played[i] = (trick, seat)
        return None

    def holds_suit(self, seat: Seat, suit: Suit) -> bool | None:
        """Whether ``seat`` still holds ``suit`` (None: the hand is not known)."""
        counts = self.suits.get(seat)
        return None if counts is None else counts[suit.order] > 0


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
) -> PlayResult:
    """Follow the play card by card and count the tricks (Laws 41-44, 61-64, 68-69).

    ``leader`` overrides the opening leader (end positions: the Play tag's seat);
    ``marked`` says the format marks accepted irregularities (PBN ``^R``, ``^L``);
    ``result_tricks`` is declarer's total from the Result tag, used to read a
    PBN claim ('*'), which records only the outcome; ``result_disputed`` says the
    Result is marked '^' (an agreed count that differs from the tricks won);
    ``laws`` the edition whose Law 64 applies.
    """
    diags: list[Diagnostic] = []
    hands = _Hands(deal)
    if leader is None:
        leader = declarer.lho if declarer is not None else None
    dummy = declarer.partner if declarer is not None else None
    slots = play.slots
    ntricks = min(13, (len(slots) + 3) // 4)
    if len(slots) > 52:
        diags.append(error("play", "more than 13 tricks are recorded", line=play.line))
    winners: list[Seat] = []
    revokes: list[Revoke] = []
    following = leader is not None  # the play order is known
    after_next = False  # a '+' was met: nothing real may come after it
    next_at = 0  # the trick of the '+'
    last_trick_seen = 0
    for t in range(ntricks):
        number = t + 1
        trick_slots: dict[Seat, PlayedCard] = {}
        for k in range(4):
            i = 4 * t + k
            if i < len(slots):
                trick_slots[play.first.offset(k)] = slots[i]
        if any(s.slot is Slot.CARD for s in trick_slots.values()):
            last_trick_seen = number
        # who leads: the ^L card's seat, else the expected leader
        out_of_turn = [seat for seat, s in trick_slots.items() if s.lead_out_of_turn]
        if len(out_of_turn) > 1:
            diags.append(
                error(
                    "lead-out-of-turn",
                    f"more than one lead out of turn marked at trick {number}",
                    law="53",
                    **_where(trick_slots[out_of_turn[1]], number, out_of_turn[1]),
                )
            )
        for seat, s in trick_slots.items():
            if s.lead_out_of_turn and s.revoke:
                diags.append(
                    error(
                        "lead-out-of-turn",
                        "a card cannot be both a revoke and a lead out of turn",
                        **_where(s, number, seat),
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
                        **_where(trick_slots[seat], number, seat),
                    )
                )
            else:
                assert leader is not None
                diags.append(
                    warning(
                        "lead-out-of-turn",
                        f"{seat.full_name} led out of turn instead of {leader.full_name}; accepted",
                        law="53A",
                        **_where(trick_slots[seat], number, seat),
                    )
                )
                leader = seat
        order = [leader.offset(k) for k in range(4)] if following and leader else list(ROTATION)
        cards: list[Card] = []
        led: Suit | None = None
        trick_known = following
        for pos, seat in enumerate(order):
            got = trick_slots.get(seat)
            if got is None or got.slot is not Slot.CARD or got.card is None:
                if got is not None and got.slot is Slot.NEXT:
                    after_next, next_at = True, number
                trick_known = False
                if pos == 0:
                    following = False  # unknown lead: the order is lost from here
                continue
            s = got
            card = got.card
            if after_next and (following or number > next_at):
                diags.append(
                    error(
                        "play",
                        f"{card} comes after the '+' that marks the next card to play",
                        **_where(s, number, seat),
                    )
                )
            if following and trick_known and pos > 0 and led is not None and card.suit is not led:
                held = hands.holds_suit(seat, led)
                if held or (held is None and s.revoke):
                    revokes.append(
                        Revoke(
                            trick=number,
                            player=seat,
                            suit=led,
                            established=False,  # decided below (Law 63)
                            dummy=seat is dummy,
                            marked=s.revoke,
                            line=s.line,
                            column=s.column,
                        )
                    )
                elif s.revoke:
                    diags.append(
                        error(
                            "revoke",
                            f"{card} is marked as a revoke, but {seat.full_name} had no "
                            f"{led.value} left",
                            law="61A",
                            **_where(s, number, seat),
                        )
                    )
            elif s.revoke and following and trick_known:
                diags.append(
                    error(
                        "revoke",
                        f"{card} is marked as a revoke, but it "
                        + ("is the lead" if pos == 0 else "follows suit"),
                        law="61A",
                        **_where(s, number, seat),
                    )
                )
            why = hands.take(seat, card, number)
            if why is not None:
                diags.append(error("card-not-held", why, law="44", **_where(s, number, seat)))
                # the deal is not the one played: following suit and trick winners
                # cannot be judged from here on (cards held are still checked)
                trick_known = following = False
            if pos == 0:
                led = card.suit
            cards.append(card)
        if following and trick_known and leader is not None and len(cards) == 4:
            if strain is None:
                following = False
            else:
                winner = trick_winner(leader, cards, strain)
                winners.append(winner)
                leader = winner
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
            seat = play.first.offset(k)
            if i < len(slots) and seat.side is r.side and slots[i].slot is Slot.CARD:
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
    complete = len(winners) == 13
    settlement = settle(
        winners=tuple(winners),
        revokes=tuple(settled),
        declarer=declarer,
        complete=complete,
        stopped=stopped,
        claim=play.claim.tricks if play.claim is not None else None,
        result=result_tricks if play.end is PlayEnd.STOPPED else None,
        result_disputed=result_disputed,
        recorded=last_trick_seen,
        laws=laws,
    )
    diags.extend(settlement.diagnostics)
    for ruling in settlement.law64.rulings:
        diags.append(
            _revoke_diagnostic(ruling.revoke, ruling, declarer, marked, settlement.resolved)
        )
    diags.sort(key=lambda d: d.trick or 0)
    played = sum(1 for w in winners if w.side is declarer.side) if declarer is not None else None
    return PlayResult(
        winners=tuple(winners),
        played=played,
        won=settlement.won,
        law64=settlement.law64_declarer if settlement.resolved else _unknown(settlement),
        final=settlement.final,
        settlement=settlement,
        revokes=tuple(settled),
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
