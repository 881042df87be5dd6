"""The header of a vugraph file (lin.md 7): ``vg rs pw mp bn`` and the 8 names of
``pn`` before the first board, kept on every board after it, and the ``rs`` entry for
a table checked against what the board itself says."""

from __future__ import annotations

from bridgefiles.formats.lin import values
from bridgefiles.formats.lin.commands import Command
from bridgefiles.formats.lin.state import (
    BoardState,
    Reading,
    VugraphHeader,
    escape_line,
    lin_extra,
)
from bridgefiles.formats.lin.tokens import HEADER_POSITION, HEADER_TAGS
from bridgefiles.model.diagnostic import Diagnostic, Severity, error, warning
from bridgefiles.model.outcome import AuctionOutcome


def header_like(cmd: Command) -> bool:
    """What a vugraph header holds besides vg/rs/pw/mp/bn: pauses, chat, 8 names."""
    if cmd.tag in HEADER_TAGS or cmd.tag in ("pg", "nt", "", "%"):
        return True
    return cmd.tag == "pn" and len(cmd.value.split(",")) != 4


def apply_header(r: Reading, cmd: Command, file_level: bool = True) -> None:
    """A header command: file level, and carried onto every board after it. Past
    ``max_commands_per_board`` header commands, the rest stay in the file's text only
    (a header is held in memory and carried onto every board)."""
    r.header_commands += 1
    limits = r.options.limits
    if limits.exceeded("max_commands_per_board", r.header_commands):
        if r.header_commands == (limits.max_commands_per_board or 0) + 1:
            what = "the commands and comment lines before the first board"
            rest = "the rest are kept as text only"
            r.over_limit(
                r.info.diagnostics,
                "max_commands_per_board",
                r.header_commands,
                what,
                rest,
                cmd.line,
            )
        return
    if cmd.tag == "%":
        if file_level:
            r.info.directives.append(escape_line(cmd))
        return
    update_header(r, cmd, r.info.diagnostics)
    key = cmd.written if cmd.tag == "" else cmd.tag
    r.header.extras.append(lin_extra(key, cmd.value, HEADER_POSITION, cmd.line, cmd.column))


def update_header(r: Reading, cmd: Command, diags: list[Diagnostic]) -> None:
    tag = cmd.tag
    h = r.header
    fields = cmd.value.split(",")
    if tag == "vg":
        h.vg = fields
        if len(fields) != 9:
            r.about(
                diags,
                cmd,
                Severity.WARNING,
                "tag-value",
                f"vg has {len(fields)} fields, 9 expected",
            )
    elif tag == "rs":
        h.rs = fields
    elif tag == "pw":
        h.pw = fields
    elif tag == "bn":
        h.bn = [f.strip() for f in fields]
    elif tag == "pn":
        h.pn = fields
        if len(fields) != 8:
            msg = f"pn in the header has {len(fields)} names, 8 expected"
            r.about(diags, cmd, Severity.WARNING, "tag-value", msg)
    elif tag == "" and cmd.value:
        r.about(diags, cmd, Severity.INFO, "syntax", "free text between commands kept as a comment")


def check_rs(
    r: Reading, acc: BoardState, outcome: AuctionOutcome | None, result: int | None
) -> None:
    """The header's ``rs`` entry for this table against what the board itself says
    (lin.md 7: the entries run open, closed for each board from vg's first board)."""
    h = acc.header
    if not h.rs or not h.vg or len(h.vg) < 4 or acc.room not in ("Open", "Closed"):
        return
    first, number = h.vg[3].strip(), acc.number
    if not first.isdecimal() or number is None or not number.isdecimal():
        return
    i = 2 * (int(number) - int(first)) + (acc.room == "Closed")
    if not 0 <= i < len(h.rs):
        return
    try:
        entry = values.table_result(h.rs[i])
    except ValueError as exc:
        r.report(acc.diagnostics, warning("tag-value", f"rs: {exc}", line=acc.line))
        return
    if entry is None:
        return
    contract, declarer, tricks = entry
    where = f"the rs entry {h.rs[i].strip()!r} for this table says"
    made = outcome.contract.text if outcome is not None and outcome.contract else None
    if made is not None and made != contract.text:
        r.report(
            acc.diagnostics,
            warning(
                "contract-mismatch",
                f"the auction ends in {made}; {where} {contract.text}",
                line=acc.line,
            ),
        )
    elif outcome is not None and declarer is not None and outcome.declarer is not declarer:
        d = outcome.declarer.value if outcome.declarer else "nobody"
        r.report(
            acc.diagnostics,
            warning(
                "declarer-mismatch",
                f"the auction makes {d} declarer; {where} {declarer.value}",
                line=acc.line,
            ),
        )
    elif result is not None and tricks is not None and result != tricks:
        r.report(
            acc.diagnostics,
            warning(
                "result-mismatch",
                f"the board gives {result} tricks; {where} {tricks}",
                line=acc.line,
            ),
        )


def headerless_file(h: VugraphHeader) -> Diagnostic:
    """The finding for a file that is a vugraph header and no board (a match's file
    fetched before its first board was played, or cut after the header). An error, as
    for any file with no board (report.no_board): the header announces boards that are
    not there. It points at the ``vg`` command, and counts the boards from its first and
    last board fields (lin.md 5.2)."""
    line = column = None
    for _, key, _, _, at_line, at_column in h.extras:
        if key == "vg":
            line, column = at_line, at_column
            break
    vg = h.vg or []
    first, last = (vg[3].strip(), vg[4].strip()) if len(vg) > 4 else ("", "")
    what = "a vugraph header"
    if first.isdecimal() and last.isdecimal() and int(last) >= int(first):
        count = int(last) - int(first) + 1
        what += f" for {count} board{'s' if count != 1 else ''}"
    return error("syntax", f"{what} and no board in it", line=line or 1, column=column)
