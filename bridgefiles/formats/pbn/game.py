"""Reads one PBN game's tokens into a Board: the tags in file order (identification
tags, ``#``/``##`` inheritance, limits), then the sections' data, then the checks.

``#`` and ``##`` policy (PBN 2.9; we follow the reference verifier):

* ``"##text"``: the value is ``text`` and becomes the default of the tag for the
  games that follow. A later game without the tag gets it as an *implied*
  TagPair (``implied=True``, no line), which writers leave out.
* ``"#"``: the value is the current default if one is active, else the value of
  the same tag in the nearest earlier game that had one, else ``""`` (with an
  info). It also ends the default, as the verifier's ``[Hidden "#"]`` shows.
* A plain value ends the default: later games no longer inherit it.

``TagPair.value`` is always the resolved value; ``TagPair.raw`` keeps what was
written. ``#`` or ``##`` on Dealer, Vulnerable, Deal, Declarer, Contract,
Auction, Play or Note is a ``tag-value`` error and is not resolved.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import chain

from lark import Token

from bridgefiles.formats.pbn.game_end import EndPart
from bridgefiles.formats.pbn.game_sections import SectionsPart
from bridgefiles.formats.pbn.parser import ParsedGame, parse
from bridgefiles.formats.pbn.tags import (
    EXTENSIONS,
    KNOWN,
    NO_INHERITANCE,
    TABLES,
    TAG_NAME,
    Finding,
    check_deal,
    check_deal_masks,
    check_value,
    unescape,
)
from bridgefiles.model.board import Board
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.shared import SharedTable

# Known tags that are not plain identification tags: the general path reads them.
_PLAIN_TAGS = KNOWN - {"Auction", "Play", "Note", *TABLES}
# A pair of a row of tag pairs (the grammar's TAGS: blanks only inside a pair, a value
# with no escape), its name and value.
_ROW_PAIR = re.compile(r'\[[ \t]*([A-Za-z0-9_]+)[ \t]*"([^"]*)"[ \t]*\]')
# what is said of a value: code, severity, message
_Said = tuple[str, Severity, str]
# a tag pair: name, raw value, line, column, the value's line and column, what follows
_Pair = tuple[str, str, int, int, int, int, list[Token]]


# A plain identification tag's shared value and what is to say of its value (names
# prefixed), by name and value as written: one look-up for the tags a file repeats.
_Plain = tuple[str, tuple[_Said, ...]]
_PLAIN: SharedTable[tuple[str, str], _Plain] = SharedTable(4096)


def _plain(name: str, raw: str) -> _Plain | None:
    """The shared value of ``[name "raw"]`` and its findings (without a place) when it is a
    known identification tag with a plain value (no ``#``, no escape); else None: the
    general path reads it. A Deal, which seldom repeats, is not kept."""
    if name not in _PLAIN_TAGS or raw[:1] == "#" or "\\" in raw:
        return None
    said: list[_Said] = []
    if "\t" in raw:
        said.append(("syntax", Severity.ERROR, "tab inside a string"))
    if raw not in ("", "?"):
        found: Sequence[Finding]
        if name == "Deal":
            found = check_deal_masks(raw)[0]  # (the quick check of a whole deal)
        else:
            found = check_value(name, raw)
        said += [(code, sev, f"{name}: {msg}") for code, sev, msg in found]
    plain = (raw, tuple(said))
    return plain if name == "Deal" else _PLAIN.share((name, raw), plain)


class GameReader(SectionsPart, EndPart):
    """Reads one game's tokens into a Board."""

    # -- the game ---------------------------------------------------------------------
    def board(self) -> Board:
        """The whole board (or its headers only, if the reader was made for that)."""
        self.read_headers()
        return self.headers_board() if self.headers_only else self.rest()

    def headers_board(self) -> Board:
        """The board with its tags (and what the tags' pass found), no section built."""
        return self.build()

    def rest(self) -> Board:
        """Read the sections the headers' pass left, and build the whole board."""
        for step in self.deferred:
            step()
        self.deferred = []
        self.finish()
        return self.build()

    def read_headers(self) -> None:
        """The tags of the game, in file order; the sections' data is left for later."""
        text = self.game.text
        parse_text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
        self.parse_text = parse_text
        most = self.limits.max_tags_per_game
        parsed = ParsedGame(None if most is None else most + 1)
        parse(parse_text, parsed, budget=self.limits.max_commands_per_board)
        if parsed.stopped is not None:
            self.problem(
                "limit",
                "the game's tokens (tags, comments, escape lines, calls, cards, elements) go "
                f"over the limit max_commands_per_board={self.limits.max_commands_per_board:,};"
                " the rest of the game is not read "
                "(raise it with Limits(max_commands_per_board=...))",
                self.offset + parsed.stopped[0],
                parsed.stopped[1],
            )
        for tok in parsed.leading:
            self.lead_item(tok)
        for rejection in parsed.rejections:
            self.rejected(*rejection)
        sections = parsed.sections
        if sections:
            self.first_tag_line = self.pos(sections[0][0])[0]
        limits = self.limits
        max_tags = limits.max_tags_per_game or 0
        max_value = limits.max_value_length or 0
        bounded = limits.max_tags_per_game is not None and limits.max_value_length is not None
        state = self.state
        export = state.export
        seen, last_values, problems = self.seen, state.last, self.problems
        tags, names, places = self.tags, self.tag_names, self.tag_places
        for name, written, line, col, vline, vcol, items in self.tag_pairs(sections):
            if col != 1 and export:
                self.not_in_column_one(f"tag {name}", line, col)
            if bounded and self.tag_count < max_tags and len(written) <= max_value:
                self.tag_count += 1  # within both limits: what within_limits would say
                raw = written
            else:
                kept = self.within_limits(name, written, line, col, vline, vcol)
                if kept is None:
                    continue
                raw = kept
            if items or name in seen:
                self.section(name, raw, line, col, vline, vcol, items)
                continue
            plain = _PLAIN.get((name, raw))
            if plain is None:
                plain = _plain(name, raw)
                if plain is None:
                    self.section(name, raw, line, col, vline, vcol, items)
                    continue
            # the common case, done here: a known identification tag seen for the first
            # time, with a plain value and nothing after it
            seen.add(name)
            if state.defaults:
                state.defaults.pop(name, None)
            last_values[name] = raw
            value, found = plain
            for code, sev, msg in found:
                problems.append((code, sev, msg, vline, vcol))
            tags.append(value)  # (a plain tag kept as its value, model/tags.py)
            names.append(name)
            places += (line, col)
        self.add_implied()

    def lead_item(self, tok: Token) -> None:
        """Commentary or an escape line before the game's first tag."""
        if tok.type == "ESCAPE":
            self.escape(tok)
        else:
            self.comments.append(self.comment(tok))

    # -- a tag and what follows it ------------------------------------------------------
    def tag_pairs(self, sections: list[list[Token]]) -> Iterator[_Pair]:
        """Each tag pair of the game's sections with what follows it: its name, raw value,
        line, column, its value's line and column, and the section's tokens after it. A
        row of pairs (the grammar's TAGS) gives each of its pairs, what follows the row
        going with the last."""
        for section in sections:
            first = section[0]
            if first.type != "TAGS":
                yield (*self.tag_pair_of(first), section[1:])
                continue
            text = str(first)
            line, col = self.pos(first)
            pairs = _ROW_PAIR.findall(text)
            n = len(pairs)
            if text.count("\n") == n - 1 and len(text) == sum(map(len, chain(*pairs))) + 6 * n - 1:
                # the usual header: each pair alone on its line, written [Name "value"]
                after: list[Token] = []
                for i, (name, value) in enumerate(pairs):
                    column = col if i == 0 else 1
                    if i == n - 1:
                        after = section[1:]
                    yield name, value, line + i, column, line + i, column + len(name) + 2, after
                continue
            line_start = 1 - col  # where the row's first line starts, in the row's text
            end = 0
            last = len(text)
            for m in _ROW_PAIR.finditer(text):
                start = m.start()
                if text.find("\n", end, start) >= 0:  # (one line break at most, by the grammar)
                    line += 1
                    line_start = text.rindex("\n", end, start) + 1
                end = m.end()
                column = start - line_start + 1
                vcol = m.start(2) - line_start  # the opening quote's column
                yield m[1], m[2], line, column, line, vcol, section[1:] if end == last else []

    def tag_pair_of(self, tok: Token) -> tuple[str, str, int, int, int, int]:
        """A tag pair's name, raw value, line, column, and its value's line and column
        (the grammar lets one line break stand between a pair's parts)."""
        # the grammar's TAG is '[' name '"value"' ']' with blanks between: the name ends
        # at the first quote, and the value at the last
        text = str(tok)
        quote = text.index('"')
        name, value = text[1:quote].strip(), text[quote + 1 : text.rindex('"')]
        line, col = self.pos(tok)
        breaks = text.count("\n", 0, quote)
        if breaks:
            return name, value, line, col, line + breaks, quote - text.rfind("\n", 0, quote)
        return name, value, line, col, line, col + quote

    def within_limits(
        self, name: str, raw: str, line: int, col: int, vline: int, vcol: int
    ) -> str | None:
        """The value to read (cut at max_value_length), or None past max_tags_per_game."""
        limits = self.limits
        self.tag_count += 1
        if limits.exceeded("max_tags_per_game", self.tag_count):
            if self.tag_count == (limits.max_tags_per_game or 0) + 1:
                d = limits.check(
                    "max_tags_per_game",
                    self.tag_count,
                    what="a game's tag count",
                    consequence="the tags after it are not read",
                )
                if d is not None:
                    self.problem(d.code, d.message, line, col)
            return None
        if limits.exceeded("max_value_length", len(raw)):
            d = limits.check(
                "max_value_length",
                len(raw),
                what=f"the value of tag {name}",
                consequence="the rest of it is not read",
            )
            if d is not None:
                self.problem(d.code, d.message, vline, vcol)
            raw = raw[: limits.max_value_length]
        return raw

    def section(
        self, name: str, raw: str, line: int, col: int, vline: int, vcol: int, items: list[Token]
    ) -> None:
        name_col = col + 1
        if not name:
            self.problem("syntax", "tag pair has no name", line, col)
            self.other_items(items, None)
            return
        if name not in KNOWN and not TAG_NAME.fullmatch(name):
            self.problem(
                "syntax", f"tag name {name!r} must start with a capital letter", line, name_col
            )
        if "\t" in raw:
            self.problem("syntax", "tab inside a string", vline, vcol)
        where = (vline, vcol)
        if name == "Play" and raw == "" and name not in self.seen:
            # [Play ""]: no play recorded, as the verifier reads it (not a section)
            self.seen.add(name)
            self.other_items(items, self.tag_pair(name, raw, raw, line, col))
            return
        if name in ("Auction", "Play") and name not in self.seen:
            self.seen.add(name)
            if self.open_section(name, raw, line, col, where, items):
                return
            pair = self.tag_pair(name, raw, raw, line, col)
            self.other_items(items, pair, data_error="section not read: its tag is unreadable")
            return
        if name == "Note":
            self.note(raw, line, col, where, items)
            return
        if name in self.seen:
            self.problem(
                "duplicate-tag",
                f"tag {name} repeated; the first one is used",
                line,
                name_col,
                Severity.WARNING,
            )
            pair = self.tag_pair(name, raw, unescape(raw), line, col)
            self.other_items(items, pair, keep_quiet=True)
            return
        self.seen.add(name)
        value = self.resolve(name, raw, where)
        if name in TABLES:
            self.table(name, raw, value, line, col, where, items)
            return
        if name not in KNOWN:
            what = "a known extension, not" if name in EXTENSIONS else "not"
            self.problem(
                "unknown-tag", f"tag {name} is {what} part of PBN", line, name_col, Severity.INFO
            )
        elif not (raw.startswith("#") and name in NO_INHERITANCE):
            self.check(name, value, where)
        pair = self.tag_pair(name, raw, value, line, col)
        self.other_items(items, pair, keep_quiet=name not in KNOWN)

    def check(self, name: str, value: str, where: tuple[int, int]) -> None:
        if name == "Deal" and value not in ("", "?"):
            found = tuple(check_deal(value))
        else:
            found = check_value(name, value)
        for code, sev, msg in found:
            self.problem(code, f"{name}: {msg}", where[0], where[1], sev)

    def resolve(self, name: str, raw: str, where: tuple[int, int]) -> str:
        """The value in use, with ``#``/``##`` resolved (see the module docstring)."""
        if not raw.startswith("#"):
            value = unescape(raw)
            self.state.defaults.pop(name, None)
            self.state.last[name] = value
            return value
        if name in NO_INHERITANCE:
            self.problem("tag-value", f"{name} may not inherit a value with '#' or '##'", *where)
            return unescape(raw)
        if raw.startswith("##"):
            value = unescape(raw[2:])
            self.state.defaults[name] = value
        elif raw == "#":
            if name in self.state.defaults:
                value = self.state.defaults.pop(name)
            elif name in self.state.last:
                value = self.state.last[name]
            else:
                value = ""
                self.problem(
                    "tag-value", f'{name} "#": no earlier game gives a value', *where, Severity.INFO
                )
        else:
            value = unescape(raw)
        self.state.last[name] = value
        return value
