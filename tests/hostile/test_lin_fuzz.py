"""Any text at all: the LIN reader raises nothing but our error, and preserve gives it back."""

from __future__ import annotations

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bridgefiles as bf
from bridgefiles.errors import BridgeFileError

# LIN-ish alphabet so that commands, bars, line ends and movie forms all turn up
PIECES = st.sampled_from(
    [
        "|",
        "||",
        "\n",
        "\r\n",
        "%",
        " ",
        ",",
        "!",
        "pn",
        "md",
        "mb",
        "an",
        "pc",
        "mc",
        "qx",
        "sv",
        "pg",
        "nt",
        "vg",
        "rs",
        "up",
        "ah",
        "st",
        "Board 3",
        "1",
        "3",
        "0",
        "SAKQ",
        "H2",
        "dT",
        "c",
        "1N",
        "p",
        "d",
        "r",
        "7S",
        "o1",
        "c1",
        "13",
        "x",
        "S2345H2345D2345C2",
        "1SAKQJHAKQDAKQCAKQ,S2345H2345D2345C2,S6789H6789D6789C3,",
    ]
)
TEXTS = st.lists(PIECES, max_size=60).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_any_text_reads_and_is_given_back(text: str) -> None:
    try:
        loaded = bf.loads(text, format="lin")
    except BridgeFileError:  # pragma: no cover - lenient reading should not raise
        raise AssertionError("lenient reading raised") from None
    assert bf.dumps(loaded, format="lin", layout="preserve") == text
    exported = bf.dumps(loaded, format="lin")
    bf.loads(exported, format="lin")  # export layout reads back


@settings(max_examples=200, deadline=None)
@given(TEXTS)
def test_strict_raises_only_our_error(text: str) -> None:
    with contextlib.suppress(BridgeFileError):
        bf.loads(text, format="lin", strict=True)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_unicode(text: str) -> None:
    loaded = bf.loads(text, format="lin")
    assert bf.dumps(loaded, format="lin", layout="preserve") == text
