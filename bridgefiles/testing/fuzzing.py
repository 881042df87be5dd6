"""Fuzzing inputs and the check every input must pass (DESIGN invariant 3).

Plain ``random.Random`` only, so the long harness (``scripts/fuzz``) needs no
extra dependency and every input is reproducible from ``(seed, index)``; the
hypothesis strategies of the tests draw their randomness and call the same
mutators. :func:`exercise` is the contract under test: whatever the bytes,
reading them as each format, validating each board and writing the result back
raises nothing but :class:`~bridgefiles.errors.BridgeFileError`, and never an
:class:`~bridgefiles.errors.InternalError` (nor a diagnostic with code ``internal``):
those are our own bugs, counted as crashes, never as refused input.
"""

from __future__ import annotations

import copy
import hashlib
import random
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bridgefiles.errors import BridgeFileError, InternalError
from bridgefiles.limits import Limits
from bridgefiles.model.diagnostic import Diagnostic
from bridgefiles.testing import synthetic

FORMATS = ("pbn", "lin", "json")

# Tokens that steer a mutated file into the readers' less common paths.
DICTIONARY: tuple[bytes, ...] = (
    b'[Event "', b'[Board "1"]', b'[Deal "N:', b'[Auction "N"]\n', b'[Play "W"]\n',
    b'[Note "1:', b'[Result "', b'[Contract "', b'[Declarer "^', b'[ScoreTable "',
    b'[OptimumResultTable "', b'[Score "NS ', b'"]\n', b"\\\"", b"\\\\", b"##", b"#", b"^I",
    b"^S", b"^R", b"^L", b" AP ", b" * ", b" + ", b" - ", b"=1=", b"$12", b"!", b"?", b"{",
    b"}", b";", b"%", b"% PBN 2.1\n", b"% EXPORT\n", b"%Content-type: text/x-pbn; charset=",
    b"UTF-8", b"ISO-8859-1", b"\n\n", b"\r\n", b"\r", b"\t", b"\x00", b"\xff", b"\xc3",
    b"\xef\xbb\xbf", b"\xe2\x99\xa0", b"\xa0", b"pn|", b"md|", b"md|0", b"mb|", b"mb|p!|",
    b"an|", b"pc|", b"pc|S", b"mc|", b"mc|14|", b"nt|", b"at|", b"qx|o1|", b"qx|c1|", b"st||",
    b"rh||", b"ah|Board 1|", b"sv|", b"pg||", b"up|", b"lb|", b"vg|", b"rs|", b"pw|", b"bn|",
    b"mn|", b"hc|", b"|", b"||", b",", b"%7C", b"%2C", b"+", b"lin=", b"http://x/?lin=",
    b"1NT", b"7NTXX", b"Pass", b"X", b"XX", b"SA", b"HT", b"D2", b"C", b"13", b"0", b"-1",
    b"99999999999999999999", b'{"bridgefiles": 1, "boards": [\n', b'{"tags":[', b"]}", b"null",
)
INTERESTING_BYTES = b'\x00\x09\x0a\x0d\x1a\x22\x23\x25\x2a\x2b\x2c\x2d\x3b\x3d\x5b\x5c\x5d\x5e' \
    b"\x7b\x7c\x7d\x7f\x80\x81\x9f\xa0\xc0\xc3\xe2\xef\xfe\xff"


def _pos(rng: random.Random, data: bytes) -> int:
    return rng.randint(0, len(data))


def _span(rng: random.Random, data: bytes, most: int = 256) -> tuple[int, int]:
    start = _pos(rng, data)
    return start, min(len(data), start + rng.randint(0, most))


def flip_bit(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]


def set_byte(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    if not data:
        return bytes([rng.choice(INTERESTING_BYTES)])
    i = rng.randrange(len(data))
    value = rng.choice(INTERESTING_BYTES) if rng.random() < 0.7 else rng.randrange(256)
    return data[:i] + bytes([value]) + data[i + 1 :]


def insert_token(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    i = _pos(rng, data)
    return data[:i] + rng.choice(DICTIONARY) + data[i:]


def delete_span(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    a, b = _span(rng, data)
    return data[:a] + data[b:]


def truncate(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    return data[: _pos(rng, data)]


def splice(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    """A piece of another input put into this one (the formats mixed, boards cut)."""
    if not pool:
        return data
    other = rng.choice(pool)
    a, b = _span(rng, other, 2048)
    i = _pos(rng, data)
    cut = _pos(rng, data) if rng.random() < 0.5 else i
    lo, hi = sorted((i, cut))
    return data[:lo] + other[a:b] + data[hi:]


def repeat_section(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    """A run of the input repeated: many tags, many boards, deep repetition."""
    a, b = _span(rng, data, 512)
    times = rng.choice((2, 3, 10, 10, 100, 1000))
    piece = data[a:b][: max(1, (100_000 if rng.random() < 0.02 else 10_000) // times)]
    return data[:b] + piece * times + data[b:]


def huge_value(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    """A very long value, string or comment, maybe never closed."""
    i = _pos(rng, data)
    r = rng.random()
    size = rng.choice((200, 300, 1_000, 2_000)) if r < 0.95 else 20_000 if r < 0.99 else 300_000
    fill = rng.choice((b"A", b"x ", b"{", b"[", b'"', b"\\", b"|", b"\xe9", b"S2 ", b"Pass "))
    opener = rng.choice((b"", b'"', b"{", b"nt|", b'[Event "', b";"))
    closer = rng.choice((b"", b"", b'"]', b"}", b"|"))
    body = (fill * (size // len(fill) + 1))[:size]
    return data[:i] + opener + body + closer + data[i:]


def shuffle_lines(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    lines = data.splitlines(keepends=True)
    if len(lines) < 2:
        return data
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    action = rng.random()
    if action < 0.4:
        lines[i], lines[j] = lines[j], lines[i]
    elif action < 0.7:
        lines.insert(j, lines[i])
    else:
        del lines[i]
    return b"".join(lines)


def line_ends(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    new = rng.choice((b"\r", b"\r\n", b"\n", b"\n\r", b""))
    return data.replace(b"\r\n", b"\n").replace(b"\n", new)


def recode(rng: random.Random, data: bytes, pool: Sequence[bytes]) -> bytes:
    """The same text in another encoding: UTF-16, a BOM, Latin-1, or a wrong declaration."""
    text = data.decode("utf-8", "replace")
    choice = rng.randrange(6)
    if choice == 0:
        return text.encode("utf-16", "replace")
    if choice == 1:
        return b"\xef\xbb\xbf" + data
    if choice == 2:
        return text.encode("latin-1", "replace")
    if choice == 3:
        label = rng.choice((b"UTF-8", b"ISO-8859-1", b"windows-1252", b"utf-16", b"bogus-42"))
        return b"%Content-type: text/x-pbn; charset=" + label + b"\n" + data
    if choice == 4:
        return text.encode("utf-16-le", "replace")  # no BOM
    return text.encode("cp1252", "replace")


MUTATORS: tuple[Callable[[random.Random, bytes, Sequence[bytes]], bytes], ...] = (
    flip_bit, set_byte, set_byte, insert_token, insert_token, insert_token, delete_span,
    truncate, splice, splice, repeat_section, huge_value, shuffle_lines, shuffle_lines,
    line_ends, recode,
)


def mutate(rng: random.Random, data: bytes, pool: Sequence[bytes] = (), rounds: int = 0) -> bytes:
    """``data`` changed by 1-4 (or ``rounds``) random mutators."""
    for _ in range(rounds or rng.choice((1, 1, 1, 2, 2, 3, 4))):
        data = rng.choice(MUTATORS)(rng, data, pool)
    return data


def window(rng: random.Random, data: bytes, most: int = 4096) -> bytes:
    """A piece of a large file starting at a line start, so mutating it stays quick."""
    if len(data) <= most:
        return data
    start = rng.randrange(len(data) - most)
    nl = data.find(b"\n", start)
    start = nl + 1 if 0 <= nl < start + most // 2 else start
    return data[start : start + most]


# -- generated valid inputs ------------------------------------------------------------


def generated(rng: random.Random) -> tuple[bytes, str]:
    """A valid synthetic event as PBN or LIN text (with alerts, notes, play, claims)."""
    boards = list(synthetic.generate(rng.choice((1, 1, 2, 3)), seed=rng.randrange(1 << 30),
                                     tables=rng.choice((1, 1, 2))))
    fmt = rng.choice(("pbn", "lin"))
    text = "".join(synthetic.to_pbn(boards) if fmt == "pbn" else synthetic.to_lin(boards))
    return text.encode("utf-8"), fmt


@dataclass
class Input:
    """One fuzz input: where it came from and the bytes."""

    data: bytes
    origin: str  # "corpus:<name>", "generated:<fmt>" and "+mutated"
    hint: str | None = None  # the format it was before mutation, if known


def make_input(
    rng: random.Random, corpus: Sequence[tuple[str, bytes]], pool: Sequence[bytes]
) -> Input:
    """A mutated corpus file, a generated event, or a mutated generated event."""
    r = rng.random()
    if corpus and r < 0.55:
        name, data = rng.choice(corpus)
        hint = name.rsplit(".", 1)[-1].lower()
        most = 1024 if rng.random() < 0.9 else 8192
        piece = window(rng, data, most)
        return Input(mutate(rng, piece, pool), f"corpus:{name}+mutated", hint)
    data, fmt = generated(rng)
    if r < 0.7:
        return Input(data, f"generated:{fmt}", fmt)
    return Input(mutate(rng, data, pool), f"generated:{fmt}+mutated", fmt)


# -- JSON structure ---------------------------------------------------------------------

_JSON_VALUES: tuple[object, ...] = (
    None, True, False, 0, -1, 13, 14, 10**30, 1.5, float("nan"), float("inf"), "", "?", "N",
    "Q", "9ZZ", "99", "\ud800", "\udfff\ud800", "x" * 300, [], {}, [[[[[]]]]], {"a": {"b": {}}},
    "N:AKQJT98765432.A.. - - -", "1NT", "Pass", "AP", "*", "SA", "card", "call", "skip", "none",
    {"code": "revoke", "severity": "error", "message": "forged"}, [{"name": "Deal", "value": "x"}],
)


_JSON_DEPTH = 900  # nesting kept under Python's recursion limit, so json.dumps can write it
_JSON_NODES = 200_000  # repeated items kept a document's nodes near this (no 17 GB input)


def _json_paths(node: object) -> list[tuple[object, ...]]:
    """Every path in a document, in document order (a loop, not recursion: mutations
    nest hundreds deep)."""
    out: list[tuple[object, ...]] = []
    stack: list[tuple[object, tuple[object, ...]]] = [(node, ())]
    while stack:
        here, path = stack.pop()
        out.append(path)
        if isinstance(here, dict):
            stack.extend((v, (*path, k)) for k, v in reversed(list(here.items())))
        elif isinstance(here, list):
            stack.extend((v, (*path, i)) for i, v in reversed(list(enumerate(here))))
    return out


def _json_mutate(rng: random.Random, doc: object) -> object:
    """One change to the structure: a value replaced, a key dropped or added (forged
    ``diagnostics``/``source`` among them), a list item repeated, a node nested deep."""
    paths = _json_paths(doc)
    path = rng.choice(paths[1:] or paths)
    if not path:
        return _fresh(rng)
    parent: object = doc
    for key in path[:-1]:
        parent = parent[key]  # type: ignore[index]
    last = path[-1]
    action = rng.randrange(6)
    if action == 0 and isinstance(parent, dict):
        parent.pop(last, None)
    elif action == 1 and isinstance(parent, dict):
        parent[rng.choice(("diagnostics", "source", "index", "format", "x", "tags"))] = (
            _fresh(rng)
        )
    elif action == 2 and isinstance(parent, list):
        assert isinstance(last, int)
        size = len(_json_paths(parent[last]))  # copies, never shared: no cycle, no blow-up
        times = min(rng.choice((1, 10, 1000)), max(1, (_JSON_NODES - len(paths)) // size))
        parent[last:last] = [copy.deepcopy(parent[last]) for _ in range(times)]
    elif action == 3:
        value: object = parent[last]  # type: ignore[index]
        room = _JSON_DEPTH - max(len(p) for p in paths)
        for _ in range(max(0, min(rng.choice((1, 10, 200)), room))):
            value = [value] if rng.random() < 0.5 else {"k": value}
        parent[last] = value  # type: ignore[index]
    else:
        parent[last] = _fresh(rng)  # type: ignore[index]
    return doc


def _fresh(rng: random.Random) -> object:
    """A value to put in a document: a copy, so mutations never reach the constants."""
    return copy.deepcopy(rng.choice(_JSON_VALUES))


def json_structure(rng: random.Random) -> Input:
    """A generated event in our JSON layout with its structure changed 1-6 times."""
    import json

    from bridgefiles import api as bf

    boards = list(synthetic.generate(rng.choice((1, 1, 2)), seed=rng.randrange(1 << 30)))
    text = bf.dumps(bf.loads("".join(synthetic.to_pbn(boards)), format="pbn"), format="json")
    doc: object = json.loads(text)
    for _ in range(rng.choice((1, 1, 2, 3, 6))):
        doc = _json_mutate(rng, doc)
    layout = rng.random()
    if layout < 0.5 and isinstance(doc, dict) and isinstance(doc.get("boards"), list):
        lines = [json.dumps(b, ensure_ascii=rng.random() < 0.5) for b in doc["boards"]]
        data = HEADER_LINE + ",\n".join(lines) + "\n]}\n"  # the line-a-board layout
    else:
        data = json.dumps(doc, ensure_ascii=layout < 0.8)
    return Input(data.encode("utf-8", "surrogatepass"), "json-structure", "json")


HEADER_LINE = '{"bridgefiles": 1, "boards": [\n'


# -- the check --------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one input did: work counts, and the crash if there was one."""

    boards: int = 0
    diagnostics: int = 0
    refused: int = 0  # BridgeFileError raised (allowed)
    operations: int = 0
    crash: Crash | None = None


@dataclass
class Crash:
    """An exception other than BridgeFileError, an InternalError, or an ``internal``
    diagnostic: a bug to fix."""

    operation: str
    format: str
    exception: str
    traceback: str
    signature: str = ""
    data: bytes = field(default=b"", repr=False)


FUZZ_LIMITS = Limits(max_file_size=4 << 20, max_line_length=400_000, max_boards=10_000)


def _signature(exc: BaseException) -> str:
    """Exception type and the innermost frame of ours: one crash, one fixture
    (for an InternalError, those of the exception it wraps)."""
    if isinstance(exc, BridgeFileError) and exc.__cause__ is not None:
        exc = exc.__cause__
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "bridgefiles" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__}@{where}"


def exercise(
    data: bytes,
    formats: Sequence[str] = FORMATS,
    strict: bool = False,
    write_back: Sequence[str] | None = None,
    reload: bool = True,
) -> Outcome:
    """Read ``data`` as each format, validate every board, write it out in each format
    and read that back: only BridgeFileError may come out. The first other exception
    is returned as a Crash. ``write_back`` limits the writing to the reads of these
    formats (the format the input was before mutation), to spend the time on reading;
    every read is validated."""
    from bridgefiles import api as bf
    from bridgefiles.checks.validate import validate_board

    out = Outcome()
    for fmt in formats:
        step = f"loads(format={fmt!r}, strict={strict})"
        try:
            out.operations += 1
            loaded = bf.loads(data, format=fmt, strict=strict, limits=FUZZ_LIMITS)
            out.boards += len(loaded.boards)
            found = loaded.all_diagnostics()
            out.diagnostics += len(found)
            _no_internal(found)
            for board in loaded.boards:
                step = f"validate(board {board.index}) after loads(format={fmt!r})"
                out.operations += 1
                _no_internal(validate_board(board).diagnostics)
            if write_back is not None and fmt not in write_back:
                continue
            for target in ("pbn", "lin", "json"):
                step = f"dumps(format={target!r}) after loads(format={fmt!r})"
                out.operations += 1
                text = bf.dumps(loaded, format=target)
                if reload and target == fmt:
                    step = f"loads(dumps(format={target!r})) after loads(format={fmt!r})"
                    out.operations += 1
                    bf.loads(text, format=target, limits=FUZZ_LIMITS)
        except BridgeFileError as exc:
            if is_internal(exc):
                out.crash = _crash(step, fmt, exc, data)
                return out
            out.refused += 1
        except Exception as exc:
            out.crash = _crash(step, fmt, exc, data)
            return out
    return out


# How the library's guards worded our own bugs before they raised InternalError and gave
# diagnostics the code ``internal``; counted as bugs too, so none slips through as input.
_OLD_WORDING = "internal error"


def is_internal(exc: BridgeFileError) -> bool:
    """Whether a BridgeFileError stands for a bug of ours rather than bad input."""
    if isinstance(exc, InternalError):
        return True
    return exc.__cause__ is not None and str(exc).startswith(_OLD_WORDING)


class InternalFinding(Exception):
    """A diagnostic with code ``internal`` among the findings: our bug, reported as one."""


def _no_internal(diagnostics: Sequence[Diagnostic]) -> None:
    for d in diagnostics:
        if d.code == "internal" or d.message.startswith(_OLD_WORDING):
            raise InternalFinding(d.message)


def _crash(step: str, fmt: str, exc: Exception, data: bytes) -> Crash:
    return Crash(
        operation=step,
        format=fmt,
        exception=f"{type(exc).__name__}: {str(exc)[:500]}",
        traceback="".join(traceback.format_exception(exc))[-6000:],
        signature=_signature(exc),
        data=data,
    )


def shrink(data: bytes, still_crashes: Callable[[bytes], bool], budget: int = 300) -> bytes:
    """A smaller input that still crashes the same way: lines, then byte runs, dropped."""
    tries = 0
    for unit in ("lines", "bytes"):
        pieces = data.splitlines(keepends=True) if unit == "lines" else [bytes([b]) for b in data]
        if unit == "bytes" and len(pieces) > 4096:
            break
        chunk = max(1, len(pieces) // 2)
        while chunk >= 1 and tries < budget:
            i = 0
            changed = False
            while i < len(pieces) and tries < budget:
                candidate = b"".join(pieces[:i] + pieces[i + chunk :])
                tries += 1
                if candidate != data and still_crashes(candidate):
                    pieces = pieces[:i] + pieces[i + chunk :]
                    data = candidate
                    changed = True
                else:
                    i += chunk
            if not changed:
                chunk //= 2
    return data


def fixture_name(crash: Crash) -> str:
    """``fuzz-<hash>.<format>``: the replay test reads it as that format."""
    digest = hashlib.sha1(crash.data).hexdigest()[:12]
    return f"fuzz-{digest}.{crash.format}"


VALID_LIN_DEAL = "3SAKQJHAKQJDAKQCAK,S2345H2345D2345C3,S6789H6789D6789C4,"


def vugraph_header(header: int = 20_000, names: int = 2_000, boards: int = 32) -> bytes:
    """Issue 15's output bomb: a LIN vugraph file whose header (a ``header``-character
    event name, eight ``names``-character players) the reader copies into every one of
    its ``boards`` tiny boards. The defaults grow more than ``Limits.max_output_factor``
from LIN to JSON, so they reach the output budget."""
    head = f"vg|{'x' * header},Seg,I,1,{boards},A,0,B,0|\n"
    players = ",".join(f"n{i}{'y' * names}" for i in range(8))
    body = "".join(f"qx|o{i}|md|{VALID_LIN_DEAL}|mb|p|mb|p|mb|p|mb|p|pg||\n"
                   for i in range(1, boards + 1))
    return (head + f"pn|{players}|\n" + body).encode()
