"""Tag names and tag-value syntax (PBN sections 4, 5, 10 and 12.2).

Each check returns the problems it finds as ``(code, severity, message)``; the
reader adds where they are. Only syntax and ranges are judged here; whether a
value agrees with the auction, the play or the score is for the Laws and scoring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from bridgefiles.formats.pbn.dialect import dialect_contract
from bridgefiles.model.calls import Contract
from bridgefiles.model.deal import DealMasks, whole_deal_masks
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.seats import Vulnerability

Finding = tuple[str, Severity, str]

MTS_1_0 = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result",
)  # fmt: skip
MTS = (*MTS_1_0[:11], "Scoring", *MTS_1_0[11:])

TABLES = frozenset(
    {
        "ActionTable",
        "AuctionTimeTable",
        "InstantScoreTable",
        "OptimumPlayTable",
        "OptimumResultTable",
        "PlayTimeTable",
        "ScoreTable",
        "TotalScoreTable",
    }
)
SECTIONS = frozenset({"Auction", "Play", "Note"})

_SUPPLEMENTAL_TEXT = """Competition DealId Description FrenchMP Generator Hidden Room
    Termination Score ScoreIMP ScoreMP ScorePercentage ScoreRubber ScoreRubberHistory
    OptimumScore BidSystemEW BidSystemNS PairEW PairNS WestNA NorthNA EastNA SouthNA
    WestType NorthType EastType SouthType EventDate EventSponsor HomeTeam VisitTeam
    Round Section Stage Table Time UTCDate UTCTime TimeControl TimeCall TimeCard
    Annotator AnnotatorNA Application Mode"""
SUPPLEMENTAL = frozenset(_SUPPLEMENTAL_TEXT.split())
KNOWN = frozenset({*MTS, *SUPPLEMENTAL, *SECTIONS, *TABLES})
EXTENSIONS = frozenset(
    {"DoubleDummyTricks", "ParContract", "OptimumContract", "OptimumDeclarer", "BCFlags"}
)
NO_INHERITANCE = frozenset(
    {"Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note"}
)

# A tag pair, [ name "value" ], with any white space between its tokens (import format):
# group 1 the name, group 2 the value as written. The one copy (the splitter and the
# reader use it; the grammar's TAG terminal is the same shape).
TAG_PAIR = re.compile(r'\[\s*([A-Za-z0-9_]*)\s*"([^"\\\r\n]*(?:\\.[^"\\\r\n]*)*)"\s*\]')
TAG_NAME = re.compile(r"[A-Z][A-Za-z0-9_]*")
_UNESCAPE = re.compile(r"\\([\\\"])")


def unescape(raw: str) -> str:
    """Undo ``\\"`` and ``\\\\``; any other backslash is a literal character (PBN 2.6)."""
    return _UNESCAPE.sub(r"\1", raw) if "\\" in raw else raw


def escape(value: str) -> str:
    """The inverse of :func:`unescape` for a value that came without a raw form."""
    if "\\" not in value and '"' not in value:
        return value
    out = []
    i = 0
    while i < len(value):
        c = value[i]
        if c == '"' or (c == "\\" and i + 1 < len(value) and value[i + 1] in '\\"'):
            out.append("\\" + c)
        elif c == "\\" and i + 1 == len(value):
            out.append("\\\\")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def plain_value(name: str, value: str) -> str | None:
    """The one spelling export writes of a Dealer, Declarer, Vulnerable or Contract value,
    so the writer and a comparison of a board with its export agree (``None``: another tag,
    or no value); a ValueError when it does not parse."""
    if name in ("Dealer", "Declarer"):
        return value.upper()
    if value in ("", "?"):
        return None
    if name == "Vulnerable":
        return Vulnerability.parse(value).value
    if name == "Contract":
        return Contract.parse(value).text
    return None


def _err(message: str, code: str = "tag-value") -> list[Finding]:
    return [(code, Severity.ERROR, message)]


def _matcher(pattern: str, what: str, flags: int = 0) -> Callable[[str], list[Finding]]:
    rx = re.compile(pattern, flags)

    def check(value: str) -> list[Finding]:
        return [] if rx.fullmatch(value) else _err(f"{value!r} is not {what}")

    return check


_DATE = re.compile(r"(\?{4}|\d{4})\.(\?\?|\d\d)\.(\?\?|\d\d)")


def check_date(value: str) -> list[Finding]:
    m = _DATE.fullmatch(value)
    if not m:
        return _err(f"{value!r} is not a date YYYY.MM.DD (with ? for unknown digits)")
    y, mo, d = m.groups()
    if y.isdigit() and int(y) < 1900:
        return _err(f"year {y} is before 1900")
    if mo.isdigit() and not 1 <= int(mo) <= 12:
        return _err(f"month {mo} is not 1-12")
    if d.isdigit() and not 1 <= int(d) <= 31:
        return _err(f"day {d} is not 1-31")
    return []


def check_board(value: str) -> list[Finding]:
    if value.isdecimal() and int(value) > 0:
        return []
    return _err(f"board number {value!r} is not a positive integer")


_SIDES = r"(?:NS|EW)"
_RESULT = re.compile(r"\^?\s*(?:(\d+)|(NS|EW)\s+(\d+)(?:\s+(NS|EW)\s+(\d+))?)", re.IGNORECASE)


def check_result(value: str) -> list[Finding]:
    m = _RESULT.fullmatch(value.strip())
    if not m:
        return _err(f"{value!r} is not a result (n, NS n, EW n, NS n EW m)")
    counts = [int(g) for g in (m.group(1), m.group(3), m.group(5)) if g is not None]
    if any(c > 13 for c in counts) or sum(counts) > 13:
        return _err(f"result {value!r} counts more than 13 tricks")
    if m.group(4) and m.group(4).upper() == m.group(2).upper():
        return _err(f"result {value!r} names a side twice")
    return []


def _score_forms(number: str) -> re.Pattern[str]:
    return re.compile(rf"(?:{_SIDES}\s+)?{number}(?:\s+{_SIDES}\s+{number})?")


_SCORE = _score_forms(r"[+-]?\d+")
_DECIMAL = _score_forms(r"[+-]?\d+(?:\.\d*)?")
_PERCENT = _score_forms(r"\d+(?:\.\d*)?")
_RUBBER = _score_forms(r"\d+\s*/\s*\d+")
_OPTIMUM = re.compile(rf"{_SIDES}\s+[+-]?\d+(?:\s+{_SIDES}\s+[+-]?\d+)?")
_HISTORY_SIDE = r"\d+\s+\d+\s*/\s*\d+(?:\s+\d+){0,2}"
_HISTORY = re.compile(rf"NS\s+{_HISTORY_SIDE}\s+EW\s+{_HISTORY_SIDE}")
_GAMES = re.compile(r"/\s*(\d+(?:\s+\d+)*)")  # a side's games below the line


def _number_check(rx: re.Pattern[str], what: str) -> Callable[[str], list[Finding]]:
    def check(value: str) -> list[Finding]:
        v = value.strip()
        if rx.fullmatch(v):
            return []
        if not re.search(r"\d", v):
            return _err(f"{value!r}: a number is missing ({what})")
        return _err(f"{value!r} is not {what}")

    return check


def check_rubber_history(value: str) -> list[Finding]:
    """``NS <h> EW <h>`` with the same number of games below the line for both sides."""
    found = _number_check(_HISTORY, "a rubber history NS h EW h")(value)
    if found:
        return found
    ns, ew = (side.split() for side in _GAMES.findall(value))
    if len(ns) != len(ew):
        return _err(f"{value!r} gives the two sides different numbers of games")
    return []


def check_percentage(value: str) -> list[Finding]:
    found = _number_check(_PERCENT, "a percentage 0-100")(value)
    if found:
        return found
    for number in re.findall(r"\d+(?:\.\d*)?", value):
        if float(number) > 100:
            return _err(f"percentage {number} is above 100")
    return []


def check_note(value: str) -> list[Finding]:
    head, colon, _ = value.partition(":")
    if not colon or not head.strip().isdecimal():
        return _err(f"note {value!r} does not start with 'n:' (n from 1 to 32)", "note")
    if not 1 <= int(head) <= 32:
        return _err(f"note index {head.strip()} is not 1-32", "note")
    return []


_OPEN_LISTS = {
    "Competition": {"Cavendish", "Chicago", "Individuals", "Pairs", "Rubber", "Teams"},
    "Mode": {"EM", "EMB", "IBS", "OKB", "TABLE", "TC"},
    "Termination": {
        "abandoned",
        "adjudication",
        "death",
        "emergency",
        "normal",
        "rules infraction",
        "time forfeit",
        "unterminated",
    },
}
_TYPES = {"human", "program"}
SCORING_BASIC = {"MP", "MatchPoints", "IMP", "Cavendish", "Chicago", "Rubber", "BAM", "Instant"}
SCORING_MODIFIERS = {
    "Butler", "Butler-2", "Experts", "Cross", "Cross1", "Cross2", "Mean", "Median",
    "MP1", "MP2", "OldMP", "Mitchell2", "Mitchell3", "Mitchell4", "Ascherman",
    "Bastille", "EMP", "IMP_1948", "IMP_1961",
}  # fmt: skip


def _remark(name: str, value: str) -> list[Finding]:
    return [("tag-value", Severity.INFO, f"{value!r} is not one of the {name} values PBN names")]


def check_open_list(name: str, value: str) -> list[Finding]:
    if name == "Scoring":
        fields = value.split(";")
        basics = [f for f in fields if f in SCORING_BASIC]
        if len(basics) > 1:
            return _err(f"scoring {value!r} names more than one basic system")
        if any(f not in SCORING_BASIC and f not in SCORING_MODIFIERS for f in fields):
            return _remark(name, value)
        return []
    allowed = _TYPES if name.endswith("Type") else _OPEN_LISTS[name]
    return [] if value in allowed else _remark(name, value)


def check_hidden(value: str) -> list[Finding]:
    if all(c in "WNESwnes" for c in value) and len(set(value.upper())) == len(value):
        return []
    return _err(f"hidden {value!r} is not a set of seats from WNES")


_contract_form = _matcher(
    r"pass|[1-7](?:nt|[cdhs])(?:xx|x)?|nt|[cdhs]", "a contract like 4HX, 3NT or Pass", re.IGNORECASE
)

_CHECKS: dict[str, Callable[[str], list[Finding]]] = {
    "Date": check_date,
    "EventDate": check_date,
    "UTCDate": check_date,
    "Time": _matcher(r"\d\d:\d\d:\d\d", "a time HH:MM:SS"),
    "UTCTime": _matcher(r"\d\d:\d\d:\d\d", "a time HH:MM:SS"),
    "Board": check_board,
    "Dealer": _matcher(r"[WNESwnes]", "a seat (W, N, E or S)"),
    "Vulnerable": _matcher(r"none|love|-|ns|ew|all|both", "a vulnerability", re.IGNORECASE),
    "Declarer": _matcher(r"\^?[WNESwnes]", "a seat, ^seat or empty"),
    "Contract": lambda value: dialect_contract(value) or _contract_form(value),  # 3N: 3NT
    "Result": check_result,
    "Score": _number_check(_SCORE, "a score"),
    "ScoreIMP": _number_check(_DECIMAL, "an IMP score"),
    "ScoreMP": _number_check(_DECIMAL, "a matchpoint score"),
    "ScorePercentage": check_percentage,
    "ScoreRubber": _number_check(_RUBBER, "a rubber score above/below"),
    "ScoreRubberHistory": check_rubber_history,
    "OptimumScore": _number_check(_OPTIMUM, "an optimum score NS n or EW n"),
    "Room": _matcher(r"Open|Closed", "Open or Closed"),
    "FrenchMP": _matcher(r"Yes|No", "Yes or No"),
    "Hidden": check_hidden,
    "Round": _matcher(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*", "a round like 1.A.2"),
    "TimeCall": _matcher(r"\d+", "a number of seconds"),
    "TimeCard": _matcher(r"\d+", "a number of seconds"),
    "TimeControl": _matcher(r"\d+/\d+|-", "NrGames/NrMinutes"),
    "Note": check_note,
}


def check_value(name: str, value: str) -> tuple[Finding, ...]:
    """Problems with ``value`` for tag ``name``; ``?`` and ``""`` are always allowed.

    Values repeat from game to game (Event, Scoring, Dealer...): the findings of the
    most recent ones are remembered (a bounded cache, so memory stays flat)."""
    if value in ("", "?") and name != "Note":
        return ()
    if len(value) > 200:
        return tuple(_check_value(name, value))
    return _cached_check(name, value)


@lru_cache(maxsize=4096)
def _cached_check(name: str, value: str) -> tuple[Finding, ...]:
    return tuple(_check_value(name, value))


def _check_value(name: str, value: str) -> list[Finding]:
    check = _CHECKS.get(name)
    if check is not None:
        return check(value)
    if name == "Table":
        if value.isdecimal():
            return []
        return [("tag-value", Severity.INFO, f"table {value!r} is not a number")]
    if name in _OPEN_LISTS or name == "Scoring" or (name.endswith("Type") and name in KNOWN):
        return check_open_list(name, value)
    return []


# -- Deal ---------------------------------------------------------------------------

_SUIT = r"[AKQJT2-9akqjt]*"
_HAND = rf"-|{_SUIT}\.{_SUIT}\.{_SUIT}\.{_SUIT}"
_DEAL = re.compile(rf"[WNESwnes]:({_HAND}) ({_HAND}) ({_HAND}) ({_HAND})")


def check_deal(value: str) -> list[Finding]:
    """Syntax (``tag-value``) and card counts and repeats (``deal``) of a Deal value."""
    m = _DEAL.fullmatch(value)
    if m is None:
        return _deal_syntax(value)
    hands = [h.upper() for h in m.groups() if h != "-"]
    if not hands:
        return [("deal", Severity.ERROR, "no hand is given")]
    out: list[Finding] = []
    counts = [len(h) - 3 for h in hands]
    if max(counts) > 13:
        out.append(("deal", Severity.ERROR, "a hand holds more than 13 cards"))
    elif min(counts) != max(counts):
        out.append(("deal", Severity.ERROR, f"hands hold different numbers of cards {counts}"))
    suits = [h.split(".") for h in hands]
    for i, suit in enumerate("SHDC"):
        ranks = "".join(s[i] for s in suits)
        if len(set(ranks)) != len(ranks):
            twice = sorted({r for r in ranks if ranks.count(r) > 1})
            out.append(("deal", Severity.ERROR, f"card {suit}{twice[0]} appears twice"))
    return out


def check_deal_masks(value: str) -> tuple[list[Finding], DealMasks | None]:
    """:func:`check_deal`, and for a whole, sound deal its hands as card masks: the quick
    check of the usual deal (its masks show nothing to say), the slow one otherwise."""
    if _DEAL.fullmatch(value) is not None:
        masks = whole_deal_masks(value)
        if masks is not None:  # 52 different cards, 13 a hand: nothing to say
            return [], masks
    return check_deal(value), None


def _deal_syntax(value: str) -> list[Finding]:
    """What makes ``value`` not a deal (the slow path, for a value that is wrong)."""
    if len(value) < 2 or value[1] != ":" or value[0] not in "WNESwnes":
        return _err(f"deal {value!r} does not start with a seat and ':'")
    hands = value[2:].split(" ")
    if len(hands) != 4 or any(h == "" for h in hands):
        return _err(f"deal {value!r} is not four hands separated by single spaces")
    for hand in hands:
        if hand == "-":
            continue
        suits = hand.split(".")
        if len(suits) != 4:
            return _err(f"hand {hand!r} does not have four suits separated by dots")
        for ranks in suits:
            for r in ranks:
                if r.upper() not in "AKQJT98765432":
                    return _err(f"{r!r} in hand {hand!r} is not a rank (AKQJT98765432)")
    return _err(f"deal {value!r} is not readable")
