"""Limits on untrusted input: settings with safe defaults, so no upload can hang us.

DESIGN invariant 4 (bounded work): every count or size a hostile file could
inflate has a ceiling here. Going past one is never a crash, a hang or a memory
blow-up: the reader stops or cuts at the limit and says so with a ``limit``
diagnostic (an error), or raises :class:`~bridgefiles.errors.StrictModeError`
in strict mode.

Where each limit is enforced:

* ``max_file_size``, ``max_line_length`` (``max_board_size`` for JSON) -- the decode layer
  (:mod:`bridgefiles.formats.decode`), for every format;
* ``max_boards`` -- the api layer (:mod:`bridgefiles.api`), for every format;
* ``max_output_factor``, ``max_output_base`` -- the writing of ``bf.convert``
  (:mod:`bridgefiles.jobs.conversion`, through :class:`bridgefiles.files.output.Budget`), for
  every output format, and ``bf.write``/``bf.dumps`` given ``max_size``;
* ``max_tags_per_game``, ``max_value_length``, ``max_comment_size``,
  ``max_nesting``, ``max_commands_per_board`` -- inside the format readers, through
  :meth:`Limits.check`, which returns the diagnostic to attach (or raises in
  strict mode) when a count goes over its limit.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from bridgefiles.errors import StrictModeError
from bridgefiles.model.diagnostic import Diagnostic, error

_MiB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Ceilings on what one input may make the library do. ``None`` means no limit.

    The defaults are far above any real bridge file (the largest in the corpus is
    2.6 MB with 10,000 boards; a PBN line is at most 255 characters by the
    standard) and low enough that one read stays within a few hundred MB.

    Memory, as promised (``scripts/bench_limits.py --constant`` measures it; the
    README has the figures): reading, validating and converting stream a board at a
    time, so their peak is a fixed base (the interpreter and imports) plus a small
    constant times the bytes of the largest board, and ``max_commands_per_board``
    caps what one board may cost (about 240 MB whatever its size): past it a board
    costs what the limit lets in plus a few bytes a byte of its text, which is held as
    read for ``layout="preserve"`` (tests/unit/formats/test_pbn_bounds.py bounds it). Scoring
    (``bf.convert(score=True)``) and the preserve layout read the input twice and hold
    no board: the same base plus a somewhat larger constant per byte of the largest
    board. Scoring's records wait on disk (``scoring/store.py``): a bounded cache of
    them stays in memory, with the results of one deal (at most ``max_deal_results``)
    and the standings (at most ``max_event_pairs``). ``bf.score`` of a file loaded
    whole holds the file.
    """

    max_file_size: int | None = 512 * _MiB
    """Bytes read from one input; the rest is not read."""
    max_line_length: int | None = 256 * 1024
    """Bytes in one line (line end excluded); the rest of the line is not read. The
    longest line in the corpus is 1,368 bytes; a LIN reader holds about 1 KB of
    objects per byte of a line made only of bars, so this also bounds memory."""
    max_board_size: int | None = 16 * _MiB
    """Bytes in one line of a format that writes a whole board a line (JSON), which
    takes the place of ``max_line_length`` there: any board our reader accepted fits,
    and memory stays bounded by one board."""
    max_boards: int | None = 1_000_000
    """Boards read from one input; the boards after it are not read."""
    max_tags_per_game: int | None = 10_000
    """Tag pairs in one PBN game (or LIN commands naming a board's metadata)."""
    max_value_length: int | None = 100_000
    """Characters in one tag value (PBN) or command value (LIN)."""
    max_comment_size: int | None = 1_000_000
    """Characters in one commentary (PBN ``{...}``, LIN ``nt``); an unterminated
    comment stops being read at this size instead of swallowing the file."""
    max_nesting: int | None = 100
    """Depth of nested structures (JSON objects and lists, PBN sections in sections)."""
    max_commands_per_board: int | None = 100_000
    """Tokens in one board: LIN commands, PBN auction calls plus play cards."""
    max_multiplicity: int | None = 10_000
    """A ScoreTable row's ``Multiplicity`` (equal results it stands for); the scorer
    weighs rows rather than repeating them, and leaves a deal with a larger one unscored
    (enforced by :mod:`bridgefiles.scoring`, as is ``max_number_digits``)."""
    max_deal_results: int | None = 100_000
    """Records of one deal that scoring compares (the tables it was played at, far
    above any real event): they are held together while compared (about 1.6 KB a
    table), so a deal with more is not scored, with a ``limit`` finding."""
    max_event_pairs: int | None = 100_000
    """Pairs (or teams) in one event's standings: scoring adds up a few numbers for each
    and writes a row each, so an event with more gets no standings, with a ``limit``
    finding (its deals are still scored)."""
    max_number_digits: int | None = 30
    """Digits of a number in a score table, its exponent counted (``1E6`` has 7): a
    longer one is not used, so no cell makes the scorer's arithmetic slow."""
    max_output_factor: int | None = 32
    """Bytes written per input byte read, over ``max_output_base`` (``bf.convert``, so
    ``convert``, ``score`` and the upload service): the output budget is
    ``max_output_factor * input bytes + max_output_base``. Going over it stops the
    writing with a ``limit`` error and leaves nothing written. The largest ratio in the
    real corpus is 9.0 (``endplay__example3.pbn``, 1.9 MB of PBN to 17.6 MB of JSON);
    a file that repeats a big header on every board (a LIN vugraph ``vg``/``pn`` of
    36 KB over 32 boards: 53x to JSON) goes over it. ``None``: no output budget."""
    max_output_base: int | None = 256 * 1024
    """Bytes of output allowed whatever the input's size (a format's fixed overhead:
    a Parquet schema is 6.6 KB), added to the budget of ``max_output_factor``."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"Limits.{f.name} must be a positive int or None, not {value!r}")

    @classmethod
    def unlimited(cls) -> Limits:
        """No limit at all: for trusted input only."""
        return cls(**{f.name: None for f in fields(cls)})

    def but(self, **changes: Any) -> Limits:
        """A copy with some settings changed: ``DEFAULT_LIMITS.but(max_boards=10)``."""
        return replace(self, **changes)

    def exceeded(self, name: str, value: int) -> bool:
        """Whether ``value`` goes over the setting ``name`` (``None``: never)."""
        limit: int | None = getattr(self, name)
        return limit is not None and value > limit

    def output_budget(self, input_bytes: int) -> int | None:
        """The most bytes an output of an ``input_bytes`` input may take (``None``: no
        budget): ``max_output_factor * input_bytes + max_output_base``."""
        if self.max_output_factor is None:
            return None
        return self.max_output_factor * max(0, input_bytes) + (self.max_output_base or 0)

    def check(
        self,
        name: str,
        value: int,
        *,
        what: str,
        strict: bool = False,
        consequence: str = "the rest is not read",
        **where: Any,
    ) -> Diagnostic | None:
        """The hook the readers call: ``None`` while ``value`` is within the limit.

        Over it, a ``limit`` error diagnostic saying which setting and what was
        left unread (``where``: line, column, path, board), raised as
        StrictModeError when ``strict``.
        """
        if not self.exceeded(name, value):
            return None
        diag = limit_diagnostic(name, getattr(self, name), what, consequence, **where)
        if strict:
            raise StrictModeError(diag.format(), diag)
        return diag


def limit_diagnostic(
    name: str, limit: int, what: str, consequence: str, **where: Any
) -> Diagnostic:
    """The ``limit`` diagnostic: names the setting so a caller knows what to raise."""
    return error(
        "limit",
        f"{what} goes over the limit {name}={limit:,}; {consequence} "
        f"(raise it with Limits({name}=...))",
        **where,
    )


DEFAULT_LIMITS = Limits()
