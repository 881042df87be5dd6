"""Each LIN command of a board applied to it (lin.md 5, 6): players, deal,
vulnerability, calls and their explanations, cards, claims, table labels; any other
command is kept as an extra where it stood, so nothing is lost."""

from __future__ import annotations

from bridgefiles.formats.lin import values
from bridgefiles.formats.lin.commands import Command
from bridgefiles.formats.lin.movies import take_back
from bridgefiles.formats.lin.state import (
    BoardState,
    Entry,
    PendingCard,
    Reading,
    escape_line,
    lin_extra,
)
from bridgefiles.formats.lin.tokens import CARD_TEXT, HEADER_TAGS, KNOWN_TAGS
from bridgefiles.formats.lin.vugraph import update_header
from bridgefiles.model.calls import Call
from bridgefiles.model.cards import Card
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.play import Claim

# mb values already read to one plain call: (call, alert). Filled as values come, up to
# a bound (memory stays flat whatever the file); the same answer values.calls gives.
_MB_CACHE: dict[str, tuple[Call, bool]] = {}
_MB_CACHE_SIZE = 2048

ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def single_call(value: str) -> tuple[Call, bool] | None:
    """The one call an ``mb`` value makes, or None for anything unusual (the rest of
    :func:`on_mb`, with its diagnostics, then takes the command)."""
    found = _MB_CACHE.get(value)
    if found is not None:
        return found
    try:
        parsed = values.calls(value)
    except ValueError:
        return None
    if len(parsed) != 1 or parsed[0][0] is None:
        return None
    found = (parsed[0][0], parsed[0][1])
    if len(_MB_CACHE) < _MB_CACHE_SIZE:
        _MB_CACHE[value] = found
    return found


def keep(r: Reading, acc: BoardState, cmd: Command, key: str | None = None) -> None:
    acc.extras.append(
        lin_extra(key if key is not None else cmd.tag, cmd.value, acc.events, cmd.line, cmd.column)
    )


def bad_value(
    r: Reading, acc: BoardState, cmd: Command, why: str, severity: Severity = ERROR
) -> None:
    msg = f"{cmd.tag}|{cmd.value.strip()}|: {why}; kept as written"
    r.about(acc.diagnostics, cmd, severity, "tag-value", msg)
    keep(r, acc, cmd)


def apply(r: Reading, acc: BoardState, cmd: Command) -> None:
    """One command into the board: every pair of a LIN text comes here (runs too)."""
    tag = cmd.tag
    acc.commands += 1
    if acc.commands > r.command_cap:  # Limits.max_commands_per_board
        if not acc.over_limit:
            acc.over_limit = True
            what = "the commands of this board"
            rest = "the rest of the board is kept as text only"
            r.over_limit(
                acc.diagnostics,
                "max_commands_per_board",
                acc.commands,
                what,
                rest,
                cmd.line,
                cmd.column,
            )
        return
    if tag == "%":
        acc.escapes.append(escape_line(cmd))
        return
    if tag in KNOWN_TAGS:
        acc.known = True
    if cmd.stray:
        if len(cmd.stray) <= 2 and cmd.stray.lower() in KNOWN_TAGS:
            msg = f"{cmd.stray!r} lost its value and bar before {cmd.tag!r}"
            r.about(acc.diagnostics, cmd, WARNING, "syntax", msg)
        else:
            msg = f"free text before {cmd.tag!r} kept as a comment"
            r.about(acc.diagnostics, cmd, INFO, "syntax", msg)
        acc.extras.append(lin_extra("", cmd.stray, acc.events, cmd.line, cmd.column))
    if not cmd.closed:
        msg = f"the last command {tag}|{cmd.value}| has no closing bar"
        r.about(acc.diagnostics, cmd, INFO, "syntax", msg)
    handler = HANDLERS.get(tag)
    if handler is not None:
        handler(r, acc, cmd)
    elif tag in HEADER_TAGS:
        update_header(r, cmd, acc.diagnostics)
        keep(r, acc, cmd)
    elif tag == "":
        msg = "free text between commands kept as a comment"
        r.about(acc.diagnostics, cmd, INFO, "syntax", msg)
        keep(r, acc, cmd, key="")
    else:
        if tag not in KNOWN_TAGS:
            if len(tag) != 2:
                msg = f"command name {cmd.written!r} is not two characters"
                r.about(acc.diagnostics, cmd, WARNING, "syntax", msg)
                keep(r, acc, cmd, key=cmd.written)
                acc.last = tag
                return
            msg = f"unknown command {cmd.written!r} kept as written"
            r.about(acc.diagnostics, cmd, INFO, "unknown-tag", msg)
        keep(r, acc, cmd)
    acc.last = tag


def on_pn(r: Reading, acc: BoardState, cmd: Command) -> None:
    names = cmd.value.split(",")
    if len(names) == 4 and acc.names is None:
        acc.names = names
        return
    if len(names) == 8 and not acc.has_body and acc.names is None:
        acc.names = names[4:] if acc.room == "Closed" else names[:4]
        keep(r, acc, cmd)
        return
    bad_value(
        r,
        acc,
        cmd,
        f"{len(names)} names where 4 are expected" if len(names) != 4 else "players already given",
        WARNING,
    )


def on_md(r: Reading, acc: BoardState, cmd: Command) -> None:
    whole = values.whole_deal(cmd.value)
    if whole is not None:  # the usual md: a whole deal, nothing to say about it
        acc.dealer, acc.dealer_given, acc.hands = whole.dealer, True, whole.hands
        acc.md_line, acc.md_column, acc.deal_text = cmd.line, cmd.column, whole.pbn
        return
    try:
        dealer, digit, hands = values.deal(cmd.value)
    except ValueError as exc:
        bad_value(r, acc, cmd, str(exc))
        return
    why = None
    if not digit and all(h is None for h in hands.values()):
        why = "md with no dealer and no hand kept as a display command"  # a movie's clear
    elif digit == "0" or (acc.hands is not None and not digit):
        why = "md that edits the deal shown (a movie step) kept as a display command"
    if why is not None:
        r.about(acc.diagnostics, cmd, INFO, "deal", why)
        keep(r, acc, cmd)
        return
    acc.dealer, acc.dealer_given = dealer, bool(digit)
    acc.hands, acc.deal_text = hands, None
    acc.md_line, acc.md_column = cmd.line, cmd.column
    given = [h for h in hands.values() if h is not None]
    if len(given) == 3 and any(len(h) != 13 for h in given):
        msg = "three hands given, not of 13 cards each: the fourth is left unknown"
        r.about(acc.diagnostics, cmd, INFO, "deal", msg)
    elif len(given) < 3:
        r.about(acc.diagnostics, cmd, INFO, "deal", "incomplete deal: fewer than three hands")
    if not digit:
        r.about(acc.diagnostics, cmd, WARNING, "deal", "md has no dealer digit")


def on_sv(r: Reading, acc: BoardState, cmd: Command) -> None:
    if not cmd.value.strip():
        bad_value(r, acc, cmd, "empty vulnerability", WARNING)
        return
    try:
        acc.vulnerability = values.vulnerability(cmd.value)
    except ValueError as exc:
        bad_value(r, acc, cmd, str(exc))


def on_mb(r: Reading, acc: BoardState, cmd: Command) -> None:
    single = single_call(cmd.value)
    if single is not None:  # the usual case: one plain call, alerted or not
        acc.entries.append(Entry(single[0], single[1], None, cmd.line, cmd.column))
        acc.events += 1
        return
    try:
        parsed = values.calls(cmd.value)
    except ValueError as exc:
        bad_value(r, acc, cmd, str(exc))
        acc.unknown_calls += 1
        return
    if len(parsed) > 1 or parsed[0][0] is None:
        # movie forms: keep the command as written, and the calls it makes
        msg = f"mb|{cmd.value}| holds {len(parsed)} calls or a placeholder"
        r.about(acc.diagnostics, cmd, INFO, "tag-value", msg)
        keep(r, acc, cmd)
        acc.unknown_calls += 1
        return
    call, alert, _ = parsed[0]
    assert call is not None
    acc.entries.append(Entry(call, alert, None, cmd.line, cmd.column))
    acc.events += 1


def explain(entries: list[Entry], value: str) -> bool:
    """An ``an`` right after an ``mb``: the call's alert (``!``) or its explanation.
    False when the last call has one already (the ``an`` is then kept as written)."""
    if not entries or entries[-1].explanation is not None:
        return False
    entry = entries[-1]
    if value == "!" and not entry.alert:
        entry.alert = True
    else:
        entry.explanation = value
    return True


def on_an(r: Reading, acc: BoardState, cmd: Command) -> None:
    if acc.last == "mb" and explain(acc.entries, cmd.value):
        return
    r.about(acc.diagnostics, cmd, INFO, "note", "an that does not follow a call kept as written")
    keep(r, acc, cmd)


def on_pc(r: Reading, acc: BoardState, cmd: Command) -> None:
    card = CARD_TEXT.get(cmd.value)
    if card is not None:  # the usual case: one card, as BBO writes it
        acc.cards.append(
            PendingCard(card, None, cmd.value, cmd.line, cmd.column, acc.events, len(acc.extras))
        )
        acc.events += 1
        return
    try:
        items = values.cards(cmd.value)
    except ValueError as exc:
        bad_value(r, acc, cmd, str(exc))
        return
    if any(unknown for _, _, unknown in items):
        msg = f"pc|{cmd.value}| shows an unknown card; kept as a display command"
        r.about(acc.diagnostics, cmd, INFO, "tag-value", msg)
        keep(r, acc, cmd)
        return
    if len(items) > 1 or items[0][1] is None:
        msg = f"pc|{cmd.value}|: movie form (several cards or a suit alone), read as cards"
        r.about(acc.diagnostics, cmd, INFO, "tag-value", msg)
    for suit, rank, _ in items:
        card = Card.of(suit, rank) if rank is not None else None
        acc.cards.append(
            PendingCard(
                card,
                suit if card is None else None,
                cmd.value,
                cmd.line,
                cmd.column,
                acc.events,
                len(acc.extras),
            )
        )
        acc.events += 1


def on_up(r: Reading, acc: BoardState, cmd: Command) -> None:
    t = cmd.value.strip()
    n = int(t) if t.isdecimal() else (1 if not t else -1)
    if n < 0:
        bad_value(r, acc, cmd, "not a number of cards to take back", WARNING)
        return
    if n and acc.cards:
        take_back(acc, max(0, len(acc.cards) - n))
    r.about(acc.diagnostics, cmd, INFO, "play", f"up|{t}|: {n} card(s) taken back (movie undo)")
    keep(r, acc, cmd)


def on_mc(r: Reading, acc: BoardState, cmd: Command) -> None:
    try:
        tricks = values.claim(cmd.value)
    except ValueError as exc:
        bad_value(r, acc, cmd, str(exc))
        return
    if acc.claim is not None:
        bad_value(r, acc, cmd, "a second claim", WARNING)
        return
    acc.claim = Claim(
        tricks=tricks,
        raw=None if cmd.value == str(tricks) else cmd.value,
        line=cmd.line,
        column=cmd.column,
    )


def on_qx(r: Reading, acc: BoardState, cmd: Command) -> None:
    room, number = values.table_label(cmd.value)
    acc.has_qx = True
    acc.room = room or acc.room
    acc.number = number or acc.number
    canonical = (
        room is not None and number is not None and cmd.value == (f"{room[0].lower()}{number}")
    )
    if not canonical:
        keep(r, acc, cmd)


def on_ah(r: Reading, acc: BoardState, cmd: Command) -> None:
    number = values.heading_number(cmd.value)
    if acc.number is None:
        acc.number = number
    if number is None or cmd.value != f"Board {number}" or number != acc.number:
        keep(r, acc, cmd)


def on_layout(r: Reading, acc: BoardState, cmd: Command) -> None:
    """``st``, ``rh``, ``pg``: no data when empty; kept when they carry text."""
    if cmd.value:
        keep(r, acc, cmd)


HANDLERS = {
    "pn": on_pn,
    "md": on_md,
    "sv": on_sv,
    "mb": on_mb,
    "an": on_an,
    "pc": on_pc,
    "up": on_up,
    "mc": on_mc,
    "qx": on_qx,
    "ah": on_ah,
    "st": on_layout,
    "rh": on_layout,
    "pg": on_layout,
}
