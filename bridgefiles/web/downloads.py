"""The uploads behind a report page's download links, kept in memory for a short while.

A report page is the answer to a POST, so its links (PBN, LIN, JSON report, CSV, scored
file, USEBIO results, dealing-machine files, RBN) need the file again. It is kept here, in
memory only (never on disk), under a random token, for ``ttl`` seconds and within a bound
on count and bytes; the oldest go first.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

# kind -> (label, what it is)
DOWNLOADS: dict[str, tuple[str, str]] = {
    "pbn": ("PBN", "PBN export format"),
    "lin": ("LIN", "LIN (BBO)"),
    "report": ("JSON report", "the validation report"),
    "csv": ("CSV", "one row per board"),
    "scored": ("Scored file", "results and scores filled in"),
    "usebio": ("USEBIO", "USEBIO 1.2 XML results of the scored event, for the national body"),
    "bri": ("BRI", "the deals for a Duplimate dealing machine"),
    "dge": ("DGE", "the deals for a dealing machine, in DOS card text"),
    "dup": ("DUP", "the deals for a Duplimate machine, with its control bytes"),
    "dlm": ("DLM", "the deals for Windows Duplimate"),
    "rbn": ("RBN", "Pavlicek's archive notation"),
}
# What the outputs that hold less than the file cannot carry, said under the links (each
# download counts its own losses in X-Lost-In-Conversion, as `convert` warns of them).
LOSSES = ("USEBIO keeps the results, the hands and the opening leads; BRI, DGE, DUP and DLM "
          "keep each deal once, alone. What a download cannot carry is a lost-in-conversion "
          "warning of bridgefiles convert, counted in its X-Lost-In-Conversion header.")
# kind -> what its file name adds to the upload's stem, so that no two downloads of one
# report share a name ("event.pbn" normalised, "event-scored.pbn" scored)
DOWNLOAD_SUFFIXES: dict[str, str] = {"report": "-report", "scored": "-scored"}


@dataclass(frozen=True)
class Kept:
    data: bytes
    name: str  # the client's name, for reports and download names
    stored_name: str  # the fixed name it is written under for the work (upload.EXT)
    options: Any
    created: float


class Store:
    """Uploads by token; bounded (``max_items``, ``max_bytes``) and expiring (``ttl``)."""

    def __init__(self, ttl: float = 900.0, max_items: int = 64, max_bytes: int = 256 << 20):
        self.ttl = ttl
        self.max_items = max_items
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, Kept] = OrderedDict()
        self._bytes = 0

    def put(self, data: bytes, name: str, stored_name: str, options: Any) -> str:
        self._expire()
        token = secrets.token_urlsafe(18)
        self._items[token] = Kept(data, name, stored_name, options, time.monotonic())
        self._bytes += len(data)
        while self._items and (len(self._items) > self.max_items or self._bytes > self.max_bytes):
            _, old = self._items.popitem(last=False)
            self._bytes -= len(old.data)
        return token

    def get(self, token: str) -> Kept | None:
        self._expire()
        return self._items.get(token)

    def _expire(self) -> None:
        now = time.monotonic()
        while self._items:
            token, oldest = next(iter(self._items.items()))
            if now - oldest.created <= self.ttl:
                return
            del self._items[token]
            self._bytes -= len(oldest.data)
