"""Seeded synthetic events for benchmarks, fuzzing and samples.

Deals are shuffled, auctions random but legal (with alerts and notes), play
random but legal (follows suit, winners computed), sometimes ending in a claim.
The text is produced here directly, not through our writers, so a benchmark or
a test reads text that our own writer did not shape.

Two content mixes, so a speed measured on one is not a speed tuned to it: ``event``
(a club session: full play, a few alerts) and ``annotated`` (a teaching or vugraph
archive: many alerts and notes, commentary on every board, half the boards with no play,
LIN written as vugraph with ``qx``, ``pg`` and ``nt`` lines).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass

from bridgefiles.model.calls import ALL_BIDS, DOUBLE, PASS, REDOUBLE, Call
from bridgefiles.model.cards import ALL_CARDS, Card, Strain
from bridgefiles.model.deal import Deal, Hand
from bridgefiles.model.play import trick_winner
from bridgefiles.model.seats import ROTATION, Seat, Vulnerability, rotation_from

_VUL_CYCLE = (
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
)


@dataclass
class SyntheticBoard:
    """One generated board: the facts, from which PBN and LIN text are written."""

    number: int
    dealer: Seat
    vulnerable: Vulnerability
    deal: Deal
    calls: list[Call]
    alerts: dict[int, str]  # call index -> explanation
    contract: str  # "Pass" or e.g. "4HX"
    declarer: Seat | None
    play: list[tuple[Seat, Card]]  # chronological
    claim: int | None  # declarer's total tricks when play stopped with a claim
    tricks: int | None  # declarer's final tricks
    players: tuple[str, str, str, str]  # N E S W
    commentary: str = ""  # a paragraph on the board ("annotated" mix)


def after_call(call: Call, doubled: int, passes: int) -> tuple[int, int]:
    """What a call other than a bid leaves: the contract's doubling (0, 1 doubled, 2
    redoubled) and the passes in a row since the last bid, double or redouble."""
    if call is DOUBLE:
        return 1, 0
    if call is REDOUBLE:
        return 2, 0
    return doubled, passes + 1


def auction_over(last_bid: Call | None, passes: int) -> bool:
    """Four passes with no bid, or three after one, end an auction (Law 22A)."""
    return passes == (4 if last_bid is None else 3)


MIXES = ("event", "annotated")

_PHRASES = (
    "North's opening was light but the shape justified it.",
    "East could have doubled for the lead; the spade ten would have beaten the contract.",
    "At the other tables most pairs stopped in game.",
    "Declarer won the opening lead in hand and drew trumps in three rounds.",
    "The defence had to cash their club tricks at once, before the diamonds ran.",
    "A squeeze against West brought home the thirteenth trick.",
    "South's jump showed a good suit and invited slam; partner had nothing extra.",
    "With the finesse wrong, the contract depended on a 3-3 break in hearts.",
)


def _auction(rng: random.Random, dealer: Seat, alert_rate: float = 0.12
             ) -> tuple[list[Call], dict[int, str]]:
    calls: list[Call] = []
    alerts: dict[int, str] = {}
    last_bid: Call | None = None
    last_bidder: Seat | None = None
    doubled = 0
    passes = 0
    seat = dealer
    while True:
        r = rng.random()
        call: Call = PASS
        if last_bid is None or last_bid.index < 34:
            start = last_bid.index + 1 if last_bid is not None else 0
            if r < (0.6 if last_bid is None else 0.45):
                top = min(34, start + rng.choice((0, 1, 2, 3, 5)))
                call = ALL_BIDS[rng.randint(start, top)]
        if call is PASS and last_bid is not None and last_bidder is not None:
            opponent = last_bidder.side is not seat.side
            if doubled == 0 and opponent and r > 0.93:
                call = DOUBLE
            elif doubled == 1 and not opponent and r > 0.9:
                call = REDOUBLE
        calls.append(call)
        if call.is_bid:
            last_bid, last_bidder, doubled, passes = call, seat, 0, 0
            if rng.random() < alert_rate:
                alerts[len(calls) - 1] = rng.choice(
                    ["transfer", "natural, 5+ cards", "Stayman", "weak", "forcing one round",
                     "splinter, short in the suit", "2 aces of 5 with trump queen"]
                )
        else:
            doubled, passes = after_call(call, doubled, passes)
        if auction_over(last_bid, passes):
            return calls, alerts
        seat = seat.lho


def _declarer(calls: list[Call], dealer: Seat) -> tuple[str, Seat | None, Strain | None]:
    last = None
    risk = ""
    for i, call in enumerate(calls):
        if call.is_bid:
            last = (i, call)
            risk = ""
        elif call is DOUBLE:
            risk = "X"
        elif call is REDOUBLE:
            risk = "XX"
    if last is None:
        return "Pass", None, None
    index, bid = last
    side = dealer.offset(index).side
    for i, call in enumerate(calls):
        seat = dealer.offset(i)
        if call.is_bid and call.strain is bid.strain and seat.side is side:
            return f"{bid.text}{risk}", seat, bid.strain
    raise AssertionError("unreachable")


def _play(
    rng: random.Random, deal: Deal, declarer: Seat, strain: Strain
) -> tuple[list[tuple[Seat, Card]], int | None, int]:
    hands = {s: list(h.cards) for s, h in deal.hands.items() if h is not None}
    leader = declarer.lho
    played: list[tuple[Seat, Card]] = []
    won = 0
    claim_at = rng.choice([None, None, None, rng.randint(6, 12)])
    for trick in range(13):
        if claim_at is not None and trick == claim_at:
            rest = 13 - trick
            return played, won + rng.randint(0, rest), 0
        cards: list[Card] = []
        for seat in rotation_from(leader):
            hand = hands[seat]
            follow = [c for c in hand if cards and c.suit is cards[0].suit]
            card = rng.choice(follow or hand)
            hand.remove(card)
            cards.append(card)
            played.append((seat, card))
        leader = trick_winner(leader, cards, strain)
        if leader.side is declarer.side:
            won += 1
    return played, None, won


def generate(count: int, seed: int = 1, tables: int = 1, mix: str = "event"
             ) -> Iterator[SyntheticBoard]:
    """``count`` boards (each played at ``tables`` tables), reproducible from ``seed``, of
    one of the :data:`MIXES`."""
    if mix not in MIXES:
        raise ValueError(f"unknown mix {mix!r} (choose: {', '.join(MIXES)})")
    annotated = mix == "annotated"
    rng = random.Random(seed)
    surnames = ["Smith", "Jones", "Garcia", "Müller", "Rossi", "Dubois", "Novak", "Kowalski",
                "Andersen", "Okafor", "Tanaka", "Silva", "O'Brien", "Nagy", "Haddad", "Ivanova"]
    for number in range(1, count + 1):
        pack = list(ALL_CARDS)
        rng.shuffle(pack)
        hands: dict[Seat, Hand | None] = {
            seat: Hand.of(pack[13 * i : 13 * i + 13]) for i, seat in enumerate(ROTATION)
        }
        board_no = (number - 1) % 32 + 1
        dealer = ROTATION[(board_no - 1) % 4]
        vul = Vulnerability.parse(_VUL_CYCLE[(board_no - 1) % 16])
        deal = Deal(hands=hands, first=dealer)
        for _table in range(tables):
            calls, alerts = _auction(rng, dealer, 0.45 if annotated else 0.12)
            contract, declarer, strain = _declarer(calls, dealer)
            play: list[tuple[Seat, Card]] = []
            claim = None
            tricks = None
            if declarer is not None and strain is not None:
                play, claim, won = _play(rng, deal, declarer, strain)
                tricks = claim if claim is not None else won
                if annotated and rng.random() < 0.5:  # a hand record: the result, no play
                    play, claim = [], None
            players = tuple(rng.choice(surnames) for _ in range(4))
            commentary = ""
            if annotated:
                commentary = " ".join(rng.choice(_PHRASES) for _ in range(rng.randint(3, 9)))
            yield SyntheticBoard(number, dealer, vul, deal, calls, alerts, contract, declarer,
                                 play, claim, tricks, players,  # type: ignore[arg-type]
                                 commentary)


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?]) ", text)


def to_pbn(boards: Iterator[SyntheticBoard] | list[SyntheticBoard], event: str = "Synthetic Pairs"
           ) -> Iterator[str]:
    """PBN import-format text, a game at a time."""
    first = True
    for b in boards:
        out = [] if first else ["\n"]
        if first:
            out.append("% PBN 2.1\n")
        first = False
        n, e, s, w = b.players
        out.append(f'[Event "{event}"]\n[Site "Utrecht"]\n[Date "2026.11.30"]\n'
                   f'[Board "{b.number}"]\n[West "{w}"]\n[North "{n}"]\n[East "{e}"]\n'
                   f'[South "{s}"]\n[Dealer "{b.dealer.value}"]\n'
                   f'[Vulnerable "{b.vulnerable.value}"]\n[Deal "{b.deal.pbn(b.dealer)}"]\n'
                   f'[Scoring "MP"]\n[Declarer "{b.declarer.value if b.declarer else ""}"]\n'
                   f'[Contract "{b.contract}"]\n'
                   f'[Result "{"" if b.tricks is None else b.tricks}"]\n')
        if b.commentary:  # a sentence a line: PBN lines hold at most 255 characters
            out.append("{" + "\n".join(_sentences(b.commentary)) + "}\n")
        out.append(f'[Auction "{b.dealer.value}"]\n')
        notes = []
        line: list[str] = []
        for i, call in enumerate(b.calls):
            token = call.text
            if i in b.alerts:
                notes.append(b.alerts[i])
                token += f" ={len(notes)}="
            line.append(token)
            if len(line) == 4:
                out.append(" ".join(line) + "\n")
                line = []
        if line:
            out.append(" ".join(line) + "\n")
        for i, text in enumerate(notes, start=1):
            out.append(f'[Note "{i}:{text}"]\n')
        if b.declarer is not None and b.play:
            leader = b.declarer.lho
            out.append(f'[Play "{leader.value}"]\n')
            for t in range(0, len(b.play), 4):
                trick = dict(b.play[t : t + 4])
                out.append(" ".join(trick[s].code for s in rotation_from(leader)) + "\n")
            if b.claim is not None:
                out.append("*\n")
        yield "".join(out)


def to_lin(boards: Iterator[SyntheticBoard] | list[SyntheticBoard], *, vugraph: bool = False
           ) -> Iterator[str]:
    """BBO LIN, one board a line; ``vugraph``: as BBO's vugraph archives write it, a ``vg``
    header, each board named by ``qx``, commentary in ``nt`` lines, ``pg`` pauses."""
    lin_seat = {Seat.S: 0, Seat.W: 1, Seat.N: 2, Seat.E: 3}
    first = True
    for b in boards:
        if vugraph and first:
            yield "vg|Synthetic Teams,Round 1,I,1,32,Home,0,Away,0|\n"
        first = False
        n, e, s, w = b.players
        dealer_digit = (lin_seat[b.dealer] % 4) + 1
        hands = []
        for seat in (Seat.S, Seat.W, Seat.N):
            hand = b.deal.hand(seat)
            assert hand is not None
            hands.append("".join(
                suit + "".join(c.rank.char for c in hand.cards if c.suit.value == suit)
                for suit in "SHDC"))
        sv = {"None": "o", "NS": "n", "EW": "e", "All": "b"}[b.vulnerable.value]
        parts = [f"qx|o{b.number}|"] if vugraph else []
        parts.append(f"pn|{s},{w},{n},{e}|st||md|{dealer_digit}{','.join(hands)},|rh||"
                     f"ah|Board {b.number}|sv|{sv}|")
        for i, call in enumerate(b.calls):
            text = {"Pass": "p", "X": "d", "XX": "r"}.get(call.text, call.text.replace("NT", "N"))
            if i in b.alerts:
                parts.append(f"mb|{text}!|an|{b.alerts[i]}|")
            else:
                parts.append(f"mb|{text}|")
        for i, (_seat, card) in enumerate(b.play):
            if i % 4 == 0:
                parts.append("pg||")
            parts.append(f"pc|{card.code}|")
        if b.claim is not None:
            parts.append(f"mc|{b.claim}|")
        if vugraph and b.commentary:  # chat lines, as a vugraph commentator types them
            parts.append("pg||\n" + "".join(f"nt|{text}|pg||\n"
                                             for text in _sentences(b.commentary)))
        parts.append("pg||\n")
        yield "".join(parts)
