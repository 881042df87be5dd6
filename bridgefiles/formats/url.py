"""BBO handviewer links: ``handviewer.html?lin=<percent-encoded LIN>`` (lin.md 3.5).

Each line of the input may hold one link (or a ``hv_popuplin('...')`` call as
BBO's traveller pages write it). The ``lin=`` value is URL-decoded and read by
the LIN reader; the non-LIN form (``s= w= n= e= d= v= b= a= p=`` and
``sn= wn= nn= en=``) is turned into the LIN it stands for first. Written links
carry export-layout LIN in ``lin=``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from urllib.parse import parse_qs, quote, unquote, urlsplit

from bridgefiles.formats.decode import text_lines
from bridgefiles.formats.lin.reader import read as read_lin
from bridgefiles.formats.lin.writer import export_board
from bridgefiles.formats.registry import FileInfo, Format, ReadOptions, WriteOptions, register
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Diagnostic, warning

HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html"
_POPUP_RE = re.compile(r"hv_popuplin\(\s*['\"]([^'\"]*)['\"]")
_SAFE = "|,!"  # left readable in written links; BBO's own links keep them too


def lin_of_url(text: str) -> str | None:
    """The LIN text a link or ``hv_popuplin`` call carries, None when it carries none."""
    t = text.strip()
    m = _POPUP_RE.search(t)
    if m:
        return unquote(m.group(1))
    query = urlsplit(t).query if "?" in t else t
    params = parse_qs(query, keep_blank_values=True)
    if "lin" in params:
        return params["lin"][0]
    if any(k in params for k in ("n", "e", "s", "w")):
        return _lin_of_parameters({k: v[0] for k, v in params.items()})
    return None


_CALL_RE = re.compile(r"[1-7](?:NT|N|C|D|H|S)|P|D|R|X{1,2}", re.IGNORECASE)
_DEALER = {"s": "1", "w": "2", "n": "3", "e": "4"}


def _lin_of_parameters(p: dict[str, str]) -> str:
    """The handviewer's hand form (hvdoc): hands, dealer, vulnerability, board, calls, cards."""
    names = ",".join(p.get(f"{s}n", "") for s in "swne")
    hands = ",".join(p.get(s, "") for s in "swne")
    parts = []
    if names.replace(",", ""):
        parts.append(f"pn|{names}|")
    parts.append(f"md|{_DEALER.get(p.get('d', '').lower()[:1], '')}{hands}|")
    if "v" in p:
        parts.append(f"sv|{ {'-': 'o', '': 'o'}.get(p['v'].lower(), p['v'].lower()[:1]) }|")
    if p.get("b"):
        parts.append(f"ah|Board {p['b']}|")
    for call in _CALL_RE.findall(p.get("a", "")):
        up = call.upper()
        parts.append(f"mb|{ {'X': 'd', 'XX': 'r'}.get(up, up) }|")
    play = p.get("p", "")
    for i in range(0, len(play) - 1, 2):
        parts.append(f"pc|{play[i : i + 2]}|")
    return "".join(parts)


def read(lines: Iterator[str], options: ReadOptions, info: FileInfo) -> Iterator[Board]:
    """One or more boards from each line holding a link."""
    index = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        lin = lin_of_url(line)
        if lin is None:
            diag = warning(
                "syntax", "no handviewer link on this line", line=number, path=options.path
            )
            info.diagnostics.append(diag)
            continue
        inner = FileInfo(path=info.path)
        for board in read_lin(text_lines(lin), options, inner):
            diags: tuple[Diagnostic, ...] = tuple(
                d.model_copy(update={"line": number, "column": None}) for d in board.diagnostics
            )
            yield board.model_copy(
                update={
                    "format": "url",
                    "source": line,
                    "index": index,
                    "line": number,
                    "diagnostics": diags,
                }
            )
            index += 1
        info.diagnostics.extend(inner.diagnostics)


def url_of_board(board: Board) -> str:
    return f"{HANDVIEWER}?lin=" + quote(export_board(board), safe=_SAFE)


def write(boards: Iterable[Board], options: WriteOptions, info: FileInfo | None) -> Iterator[str]:
    """One link a line; ``layout="preserve"`` gives back a link as read."""
    nl = options.newline or "\n"
    for board in boards:
        if options.layout == "preserve" and board.format == "url" and board.source is not None:
            yield board.source if board.source.endswith("\n") else board.source + nl
        else:
            yield url_of_board(board) + nl


def sniff(head: str) -> int:
    text = head.lstrip("\ufeff").lstrip()
    if "hv_popuplin(" in text or (text.startswith("http") and "lin=" in text):
        return 95
    if text.startswith("http") and "handviewer" in text:
        return 80
    return 0


URL = Format(name="url", extensions=(".url",), sniff=sniff, read=read, write=write)
register(URL)
