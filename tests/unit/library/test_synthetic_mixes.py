"""The benchmark's second content mix: a teaching or vugraph archive, not a club session.

``scripts/bench --mix annotated`` measures on it so that no speed is tuned to one generator:
it must read clean (a benchmark of text full of findings measures the findings), and hold
what makes it other: many alerts, commentary on every board, half the boards without play,
LIN as a vugraph (``vg``, ``qx``, ``nt``).
"""

from __future__ import annotations

import pytest

import bridgefiles as bf
from bridgefiles.testing.synthetic import MIXES, generate, to_lin, to_pbn


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_the_annotated_mix_reads_clean_in_both_formats(fmt: str) -> None:
    boards = list(generate(60, seed=3, mix="annotated"))
    text = "".join(to_pbn(boards) if fmt == "pbn" else to_lin(boards, vugraph=True))
    read = bf.loads(text, format=fmt)
    assert len(read.boards) == 60
    assert [str(d) for b in read.boards for d in b.diagnostics] == []
    played = [b for b in read.boards if b.play is not None]
    assert 15 <= len(played) <= 45  # about half the boards have their play
    assert all(b.auction is not None for b in read.boards)


def test_the_annotated_mix_is_other_content() -> None:
    annotated = list(generate(200, seed=3, mix="annotated"))
    event = list(generate(200, seed=3))
    alerts = sum(len(b.alerts) for b in annotated) / sum(len(b.calls) for b in annotated)
    assert alerts > 2 * sum(len(b.alerts) for b in event) / sum(len(b.calls) for b in event)
    assert all(b.commentary for b in annotated) and not any(b.commentary for b in event)
    pbn = "".join(to_pbn(annotated))
    assert max(len(line) for line in pbn.splitlines()) < 255  # PBN's line limit
    lin = "".join(to_lin(annotated, vugraph=True))
    assert lin.startswith("vg|") and "qx|o1|" in lin and "nt|" in lin
    assert "vg|" not in "".join(to_lin(event))


def test_an_unknown_mix_is_refused() -> None:
    assert MIXES == ("event", "annotated")
    with pytest.raises(ValueError, match="unknown mix"):
        next(generate(1, mix="club"))
