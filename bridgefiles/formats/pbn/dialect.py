"""BEN's dialect of PBN: forms outside the standard whose meaning is not in doubt.

BEN (and the tools that copy its output) writes ``1N`` for 1NT and ``P`` for Pass in the
Auction, ``3N`` in the Contract, and ``Result "0"`` on a passed-out board, where PBN
writes ``""`` (pbn.md 4.2, 6.2 and 12.4). Lenient reading takes each as what it means,
with a warning (code ``dialect``) saying what was read; strict reading refuses it as an
error (:func:`refused`). Never a silent repair: the text itself is kept as written.

>>> call, problem = dialect_call("3N", 12, 5)
>>> call.text, problem[0], problem[1].value, problem[3:]
('3NT', 'dialect', 'warning', (12, 5))
>>> problem[2]
"'3N' is not a PBN call (Pass, X, XX, 1C..7NT); read as 3NT"
>>> dialect_call("3NT", 12, 5) is None
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bridgefiles.model.auction import Auction
from bridgefiles.model.calls import PASS, Call, Contract
from bridgefiles.model.diagnostic import Diagnostic, Severity
from bridgefiles.model.outcome import auction_outcome
from bridgefiles.model.tags import TagPair, Tags

DIALECT = "dialect"
Finding = tuple[str, Severity, str]  # (code, severity, message), as tags.py's checks give
Problem = tuple[str, Severity, str, int, int]  # the same with line and column

# The dialect's calls: NT as N (either case), Pass as P.
_CALLS: dict[str, Call] = {"P": PASS, "p": PASS}
for _level in range(1, 8):
    for _n in "Nn":
        _CALLS[f"{_level}{_n}"] = Call.parse(f"{_level}NT")
_CONTRACT = re.compile(r"[1-7]N(?:XX|X)?", re.IGNORECASE)
_NO_VALUE = ("", "?")


def dialect_call(token: str, line: int, column: int) -> tuple[Call, Problem] | None:
    """The call a dialect token at line:column means (``1N``: 1NT, ``P``: Pass), with the
    warning that says so; None for a token that is not one of the dialect's."""
    call = _CALLS.get(token)
    if call is None:
        return None
    message = f"{token!r} is not a PBN call (Pass, X, XX, 1C..7NT); read as {call.text}"
    return call, (DIALECT, Severity.WARNING, message, line, column)


def dialect_contract(value: str) -> list[Finding]:
    """The warning for a Contract in the dialect's spelling (``3N``, ``4NX``), read as
    its NT contract; [] for any other value (the tag's own check judges it)."""
    if not _CONTRACT.fullmatch(value):
        return []
    read = Contract.parse(value).text
    return [(DIALECT, Severity.WARNING,
             f"{value!r} is not a contract like 4HX, 3NT or Pass; read as {read}")]


def passed_out_result(
    pairs: Sequence[TagPair], places: Sequence[int], auction: Auction | None
) -> list[Problem]:
    """The warning for ``Result "0"`` on a passed-out board (the Contract tag, else the
    auction, passes it out: what the Laws go by), read as no result: no contract was
    played, so no tricks and no score. [] for any other board. ``places``: each tag's
    line and column, flat. (The values are read off the row: no TagPair is made.)"""
    tags = Tags.of(pairs)  # (a row, as a reader hands it over, is itself)
    index = tags.name_index
    at = index.get("Result")
    if at is None or tags.value(at).strip() != "0" or not places[2 * at]:
        return []
    line, column = places[2 * at], places[2 * at + 1]
    found = index.get("Contract")
    written = "" if found is None else tags.value(found).strip()
    try:
        contract = Contract.parse(written) if written not in _NO_VALUE else None
    except ValueError:  # not a contract (its own check says why): the auction decides
        contract = None
    if contract is None and auction is not None:
        contract = auction_outcome(auction, None).contract
    if contract is None or not contract.passed_out:
        return []
    message = ('a passed-out board has no result (PBN writes Result ""); Result "0" read as '
               "none: passed out, no tricks taken and no score")
    return [(DIALECT, Severity.WARNING, message, line, column or 1)]


def refused(diagnostic: Diagnostic) -> Diagnostic:
    """Strict reading's view of a finding: a dialect form is an error, saying why."""
    if diagnostic.code != DIALECT or diagnostic.severity is Severity.ERROR:
        return diagnostic
    return diagnostic.model_copy(update={
        "severity": Severity.ERROR,
        "message": f"{diagnostic.message} when reading leniently; strict reading refuses a "
                   "dialect form"})
