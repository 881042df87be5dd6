"""Checking an output: read it back and compare, board by board, with what was written.

``bf.convert(..., verify=True)`` records a digest of each board as the target format
expresses it (:func:`recording`), and reads the written file back before it replaces
anything (:func:`verify_output`): nothing lost, cut short, garbled or out of place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from typing import Any

from bridgefiles.api import dumps, loads, read
from bridgefiles.errors import BridgeFileError
from bridgefiles.model.auction import AuctionEntry
from bridgefiles.model.board import Board
from bridgefiles.model.calls import PASS
from bridgefiles.model.content import game_content
from bridgefiles.model.seats import Seat


def content(board: Board) -> dict[str, Any]:
    """Game content less what a writer may normalise as layout (DESIGN invariant 1): the
    order of tags, tags that only say "unknown" (``?``, which export format adds), how a
    value is spelled (inherited, another spelling of the same deal), ``AP`` written out."""
    found: dict[str, Any] = game_content(board)
    canonical = canonical_values(board)
    tags = [t for t in found.get("tags", []) if t.get("value") not in ("?", "")]
    for t in tags:
        t.pop("raw", None)  # "#" and "##" inheritance are spelling; the value is the content
        t.pop("implied", None)  # so is leaving out a value an earlier game's "##" gives
        if t.get("name") in canonical:
            t["value"] = canonical[t["name"]]
    auction = found.get("auction")
    if isinstance(auction, dict) and auction.get("end") == "AP":
        expand_all_pass(auction)
    found["tags"] = sorted(tags, key=lambda t: json.dumps(t, sort_keys=True))
    return found


_PASS_ENTRY = AuctionEntry(call=PASS).model_dump(mode="json", exclude={"line", "column"})


def expand_all_pass(auction: dict[str, Any]) -> None:
    """``AP`` as the passes it stands for (export format writes them out)."""
    entries = auction.get("entries") or []
    trailing = 0
    for entry in reversed(entries):
        if entry.get("call") != "Pass":
            break
        trailing += 1
    bids = len(entries) > trailing
    missing = (3 - trailing) if bids else (4 - trailing)
    auction["entries"] = [*entries, *(dict(_PASS_ENTRY) for _ in range(max(0, missing)))]
    auction["end"] = ""


def canonical_values(board: Board) -> dict[str, str]:
    """Tags whose spelling export format may normalise, as the values they stand for."""
    out: dict[str, str] = {}
    if board.deal is not None:
        out["Deal"] = board.deal.pbn(Seat.N)
    if board.vulnerable is not None:
        out["Vulnerable"] = board.vulnerable.value
    if board.dealer is not None:
        out["Dealer"] = board.dealer.value
    if board.contract is not None:
        out["Contract"] = board.contract.text
    return out


def digest(board: Board) -> bytes:
    """A short hash of a board's content, so an output can be checked without holding it."""
    data = json.dumps(content(board), sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(data.encode("utf-8"), digest_size=16).digest()


def expressed(board: Board, to: str) -> Board:
    """The board as the target format says it (written alone and read back in memory):
    what reading the output file must give back. Normalisations of the writer (export
    format, what a format cannot carry) are in it, so verification checks the file that
    was written, board by board: nothing lost, cut short, garbled or out of place."""
    if to == "json":
        return board
    # Written alone, a board has no earlier game to inherit from: write its inherited
    # values out (the content compared leaves the spelling of inheritance out).
    if any(t.implied for t in board.tags):
        board = board.model_copy(
            update={"tags": tuple(t.model_copy(update={"implied": False}) for t in board.tags)}
        )
    again = list(loads(dumps([board], to), to).boards)
    return again[0] if len(again) == 1 else board


def verify_output(target: str, to: str, digests: list[bytes]) -> str | None:
    """Read the written file back; None when every board has the content written."""
    n = 0
    try:
        for n, board in enumerate(read(target, to), start=1):
            if n > len(digests):
                return f"verify: {target} has more boards than were written ({n})"
            if digest(board) != digests[n - 1]:
                return f"verify: board {n} read back from the output differs from what was written"
    except BridgeFileError as exc:
        return f"verify: cannot read the output back: {exc}"
    if n != len(digests):
        return f"verify: {len(digests)} board(s) written, {n} read back"
    return None


def recording(boards: Iterable[Board], digests: list[bytes], to: str) -> Iterator[Board]:
    """Pass boards through, keeping the digest of each as ``to`` expresses it."""
    for board in boards:
        digests.append(digest(expressed(board, to)))
        yield board
