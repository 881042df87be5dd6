"""The referee's entry points answer wrong types and values with UsageError (issue 24,
point 4): only BridgeFileError leaves the library, and a wrong value is never taken.

Each argument is tried with the cases the issue names and, by hypothesis, with arbitrary
Python values; a value of the right type must be taken (or refused by the Laws, also as
UsageError), any other refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from referee_helpers import c

from bridgefiles.errors import BridgeFileError, UsageError
from bridgefiles.laws import Option, Referee, tricks_after_claim
from bridgefiles.model import Call, Seat, Strain

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

# arbitrary values, among them the right types and the texts that look like them
ANYTHING = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.complex_numbers(),
    st.text(max_size=6),
    st.binary(max_size=4),
    st.lists(st.one_of(st.integers(), st.text(max_size=2)), max_size=3),
    st.tuples(st.integers()),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    st.frozensets(st.sampled_from(list(Strain)), max_size=2),
    st.sampled_from(
        [*Seat, *Strain, *Option, c("1S"), c("P"), c("X"), "N", "1S", "reject", object(), type]
    ),
)


def _refused(action: Callable[[], Any]) -> bool:
    """True when ``action`` raised UsageError; anything else but success fails the test."""
    try:
        action()
    except UsageError:
        return True
    return False


# -- the cases the issue names ---------------------------------------------------------------


# untyped handles: the calls below are wrong on purpose
Ref: Any = Referee


class Parse:
    call: Any = Call.parse
    seat: Any = Seat.parse


MISUSE: dict[str, Callable[[], object]] = {
    'Referee("N")': lambda: Ref("N"),
    "Referee(None)": lambda: Ref(None),
    "Referee(5)": lambda: Ref(5),
    'Referee(N, laws="1997")': lambda: Ref(N, laws="1997"),
    "Referee(N, laws=None)": lambda: Ref(N, laws=None),
    'call("N", 1S)': lambda: Ref(N).call("N", c("1S")),
    'call(N, "1S")': lambda: Ref(N).call(N, "1S"),
    'comparable="yes"': lambda: Ref(N).call(N, c("1S"), comparable="yes"),
    "artificial=1": lambda: Ref(N).call(N, c("1S"), artificial=1),
    "unintended=None": lambda: Ref(N).call(N, c("1S"), unintended=None),
    "shows=None, artificial": lambda: Ref(N).call(N, c("1S"), artificial=True, shows=None),
    'shows="S"': lambda: Ref(N).call(N, c("1S"), artificial=True, shows="S"),
    "shows=[1]": lambda: Ref(N).call(N, c("1S"), artificial=True, shows=[1]),
    "shows=None": lambda: Ref(N).call(N, c("1S"), shows=None),
    "choose(None)": lambda: Ref(N).choose(None),
    'choose("reject")': lambda: Ref(N).choose("reject"),
    "choose, nothing pending": lambda: Ref(N).choose(Option.REJECT),
    'legal_calls("Q")': lambda: Ref(N).legal_calls("Q"),
    'legal_calls("N")': lambda: Ref(N).legal_calls("N"),
    "obligations_of(None)": lambda: Ref(N).obligations_of(None),
    "comparable_by_rule(0)": lambda: Ref(N).comparable_by_rule(0),
    'Call.parse("Q")': lambda: Parse.call("Q"),
    "Call.parse(None)": lambda: Parse.call(None),
    "Call.parse([])": lambda: Parse.call([]),
    'Seat.parse("Q")': lambda: Parse.seat("Q"),
    "Seat.parse(None)": lambda: Parse.seat(None),
    "Seat.parse(5)": lambda: Parse.seat(5),
    "tricks_after_claim(9, 5, 9)": lambda: tricks_after_claim(9, 5, 9),  # 8 to play
}


@pytest.mark.parametrize("name", sorted(MISUSE))
def test_misuse_is_a_usage_error(name: str) -> None:
    with pytest.raises(UsageError) as raised:
        MISUSE[name]()
    assert isinstance(raised.value, BridgeFileError) and str(raised.value)


def test_parse_errors_stay_value_errors_for_the_readers() -> None:
    """Readers and validators catch ValueError around Call.parse and Seat.parse."""
    for action in (lambda: Call.parse("8NT"), lambda: Seat.parse("Z")):
        with pytest.raises(ValueError, match="not a"):
            action()


def test_the_laws_refuse_a_forbidden_call_as_usage() -> None:
    ref = Referee(N)
    ref.call(E, c("1S"))
    ref.choose(Option.REJECT)
    ref.call(N, c("P"))  # RHO passes: East must repeat 1S (31A1)
    with pytest.raises(UsageError, match="must repeat"):
        ref.call(E, c("2S"))
    ref = Referee(N)
    ref.call(E, c("1S"))
    with pytest.raises(UsageError, match="pending"):
        ref.call(W, c("1H"))
    ref = Referee(N)
    ref.call(N, c("1H"))
    ref.call(E, c("P"))
    ref.call(S, c("X"))  # partner's bid: inadmissible (36), never acceptable
    with pytest.raises(UsageError, match="not open"):
        ref.choose(Option.ACCEPT)


def test_right_types_are_taken() -> None:
    ref = Referee(N, laws="2007")
    assert ref.call(N, c("1C"), comparable=None, artificial=True, shows=iter([Strain.D])) is None
    assert ref.call(E, c("P"), comparable=False, unintended=False) is None
    assert ref.legal_calls(S)[0] == c("P") and ref.obligations_of(S) == ()
    assert ref.comparable_by_rule(S) is None


# -- arbitrary values, one argument at a time ------------------------------------------------


def _is_seat(value: object) -> bool:
    return isinstance(value, Seat)


@given(ANYTHING)
def test_referee_dealer(value: object) -> None:
    assert _refused(lambda: Referee(value)) is not _is_seat(value)  # type: ignore[arg-type]


@given(ANYTHING)
def test_referee_laws(value: object) -> None:
    refused = _refused(lambda: Referee(N, laws=value))  # type: ignore[arg-type]
    assert refused is not (isinstance(value, str) and value in ("2017", "2007"))


@given(ANYTHING)
def test_call_seat(value: object) -> None:
    assert _refused(lambda: Referee(N).call(value, c("1S"))) is not _is_seat(value)  # type: ignore[arg-type]


@given(ANYTHING)
def test_call_call(value: object) -> None:
    # North is due, so any Call is taken or ruled (a pending ruling, no exception)
    assert _refused(lambda: Referee(N).call(N, value)) is not isinstance(value, Call)  # type: ignore[arg-type]


@given(ANYTHING)
def test_call_comparable(value: object) -> None:
    right = value is None or isinstance(value, bool)
    assert _refused(lambda: Referee(N).call(N, c("1S"), comparable=value)) is not right  # type: ignore[arg-type]


@given(ANYTHING, st.sampled_from(["artificial", "unintended"]))
def test_call_flags(value: object, name: str) -> None:
    refused = _refused(lambda: Referee(N).call(N, c("1S"), **{name: value}))  # type: ignore[arg-type]
    assert refused is not isinstance(value, bool)


@given(ANYTHING)
def test_call_shows(value: object) -> None:
    right = (
        not isinstance(value, (str, bytes))
        and isinstance(value, (list, tuple, frozenset, set, dict))
        and all(isinstance(x, Strain) for x in value)
    )
    refused = _refused(lambda: Referee(N).call(N, c("1S"), artificial=True, shows=value))  # type: ignore[arg-type]
    assert refused is not right


@given(ANYTHING)
def test_choose(value: object) -> None:
    def action() -> None:
        ref = Referee(N)
        ref.call(E, c("1S"))  # pending: accept or reject open
        ref.choose(value)  # type: ignore[arg-type]

    assert _refused(action) is not isinstance(value, Option)


@given(ANYTHING, st.sampled_from(["legal_calls", "obligations_of", "comparable_by_rule"]))
def test_seat_questions(value: object, method: str) -> None:
    assert _refused(lambda: getattr(Referee(N), method)(value)) is not _is_seat(value)


@given(ANYTHING)
def test_parse(value: object) -> None:
    """Call.parse and Seat.parse give a value or a UsageError, whatever they are given."""
    for parse in (Call.parse, Seat.parse):
        try:
            parsed = parse(value)  # type: ignore[arg-type]
        except UsageError:
            continue
        assert isinstance(value, str) and isinstance(parsed, (Call, Seat))


@given(st.text(max_size=6))
def test_parse_text(text: str) -> None:
    for parse in (Call.parse, Seat.parse):
        try:
            parsed = parse(text)
        except UsageError as exc:
            assert repr(text) in str(exc)
            continue
        assert parsed.value if isinstance(parsed, Seat) else parsed.text
