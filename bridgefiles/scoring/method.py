"""The ``Scoring`` tag (PBN 10): one basic system and any number of modifiers.

The list is open, so unknown fields are kept (the validator may remark on them),
and matching is case-insensitive (``Matchpoints`` is seen in the wild).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bridgefiles.model.shared import SharedTable

BASIC = {
    "mp": "MP",
    "matchpoints": "MP",
    "imp": "IMP",
    "cavendish": "Cavendish",
    "chicago": "Chicago",
    "rubber": "Rubber",
    "bam": "BAM",
    "instant": "Instant",
}
MODIFIERS = {
    m.lower(): m
    for m in (
        "Butler", "Butler-2", "Experts", "Cross", "Cross1", "Cross2", "Mean", "Median",
        "MP1", "MP2", "OldMP", "Mitchell2", "Mitchell3", "Mitchell4", "Ascherman",
        "Bastille", "EMP", "IMP_1948", "IMP_1961",
    )
}  # fmt: skip


# Modifiers the standard names whose scales bridgefiles does not implement (pbn.md 10):
# a board naming one is scored on the scale in use today, and told so.
UNIMPLEMENTED = {
    "EMP": "European matchpoints",
    "IMP_1948": "the IMP scale of 1948-1960",
    "IMP_1961": "the IMP scale of 1961",
}


class ScoringMethod(BaseModel):
    """What a ``Scoring`` tag says: ``base`` (``MP``, ``IMP``, ...), modifiers, the rest."""

    model_config = ConfigDict(frozen=True)

    base: str | None = None
    modifiers: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    extra_bases: tuple[str, ...] = ()  # more than one basic system: the file is wrong

    def has(self, modifier: str) -> bool:
        return modifier.lower() in (m.lower() for m in self.modifiers)

    @property
    def is_rubber(self) -> bool:
        """Rubber and Chicago scores are not Law 77 duplicate scores."""
        return self.base in ("Rubber", "Chicago")

    @property
    def unimplemented(self) -> tuple[str, ...]:
        """The modifiers named whose scale is not implemented (``UNIMPLEMENTED``)."""
        return tuple(m for m in self.modifiers if m in UNIMPLEMENTED)

    @property
    def is_imps(self) -> bool:
        return self.base == "IMP" or any(m.lower() in _IMP_MODIFIERS for m in self.modifiers)


# The modifiers that score in IMPs (``ScoringMethod.is_imps``), in lower case.
_IMP_MODIFIERS = frozenset({"butler", "butler-2", "cross", "cross1", "cross2", "experts"})


def scale_warnings(method: ScoringMethod, named: str = "Scoring") -> list[str]:
    """What to tell for each scale ``method`` names that is not implemented (EMP,
    IMP_1948, IMP_1961): its IMPs or matchpoints are those of today's scales. One
    wording for the scorer and the validator; ``named`` is where the method came from."""
    unimplemented = method.unimplemented
    if not unimplemented:  # (nearly every board)
        return []
    if method.is_imps:
        scale = "on the current IMP scale"
    elif method.base is not None:
        scale = "as ordinary matchpoints"
    else:  # no basic system: IMPed in a team match, matchpointed in a pairs event
        scale = "on today's scales (IMPs on the current IMP scale, matchpoints as ordinary ones)"
    return [
        f"{named} names {modifier} ({UNIMPLEMENTED[modifier]}), which is not "
        f"implemented: the board is scored {scale}"
        for modifier in unimplemented
    ]


def parse_scoring(text: str | None) -> ScoringMethod:
    """Split a Scoring value at ``;`` into base, modifiers and unknown fields. A file
    says the same few values on every board: each is read once (``_READ``), as the
    method is an immutable value."""
    if not text:
        return _NONE
    found = _READ.get(text)
    if found is None:
        found = _READ.share(text, _parse_scoring(text))
    return found


_NONE = ScoringMethod()
_READ: SharedTable[str, ScoringMethod] = SharedTable(256)


def _parse_scoring(text: str) -> ScoringMethod:
    """:func:`parse_scoring`, worked out."""
    base: str | None = None
    extra: list[str] = []
    modifiers: list[str] = []
    unknown: list[str] = []
    for field in (f.strip() for f in text.split(";")):
        if not field:
            continue
        key = field.lower()
        if key in BASIC:
            if base is None:
                base = BASIC[key]
            else:
                extra.append(BASIC[key])
        elif key in MODIFIERS:
            modifiers.append(MODIFIERS[key])
        else:
            unknown.append(field)
    return ScoringMethod(
        base=base, modifiers=tuple(modifiers), unknown=tuple(unknown), extra_bases=tuple(extra)
    )
