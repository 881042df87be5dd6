"""A rubber or Chicago record filled in: ScoreRubber from the deal and its history.

PBN gives the rubber's state before the deal in ``ScoreRubberHistory``; the deal's
points above and below the line go in ``ScoreRubber``, reported (and replaced only
with ``replace=True``) when the file's value disagrees. Deals of one rubber follow each
other: the history of a deal must be the state its predecessor left
(:func:`check_history`).
"""

from __future__ import annotations

from bridgefiles.model.seats import Side
from bridgefiles.scoring.record import Record
from bridgefiles.scoring.rubber import DealScore, RubberState, parse_score_rubber, score_deal
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.traveller import MISSING, parsed


def _history(w: Record) -> RubberState | None:
    return parsed(w.board.tag("ScoreRubberHistory"), RubberState.parse)


def _deal(w: Record, state: RubberState) -> tuple[DealScore, RubberState] | None:
    """The deal's points and the state after it, when the record fixes them."""
    if w.contract is None:
        return None
    if w.contract.passed_out:
        return DealScore(), state
    if w.declarer is None or w.tricks is None:
        return None
    return score_deal(w.contract, w.declarer, w.tricks, state, deal=w.board.deal)


def fill_rubber(w: Record, settings: ScoreSettings) -> None:
    """ScoreRubber from the deal and the ScoreRubberHistory it starts from."""
    b = w.board
    state = _history(w)
    played = _deal(w, state) if state is not None else None
    if played is None:
        return
    score = played[0]
    text = score.text()
    written = b.tag("ScoreRubber")
    if written is None or written.strip() in MISSING:
        w.set_tag("ScoreRubber", text)
        return
    try:
        given = parse_score_rubber(written, w.declarer)
    except ValueError:
        return
    ours = {Side.NS: (score.ns_above, score.ns_below), Side.EW: (score.ew_above, score.ew_below)}
    if any(ours[side] != value for side, value in given.items()):
        w.disagree("score-mismatch", "ScoreRubber", written, text, settings.replace)
        if settings.replace:
            w.set_tag("ScoreRubber", text)


def check_history(before: Record, after: Record) -> None:
    """A deal's ScoreRubberHistory against the state the deal before it left.

    ``before`` and ``after`` are consecutive deals of a rubber session (same Event,
    Site, Date and Table/Room). A history that does not follow is a ``score-mismatch``
    on the later deal (Law 77 and PBN 10.1: the history is the state at the deal's start).
    """
    state = _history(before)
    played = _deal(before, state) if state is not None else None
    given = _history(after)
    if played is None or given is None or given == played[1]:
        return
    pair = after.board.tag_pair("ScoreRubberHistory")
    written = pair.value if pair is not None else ""
    message = (
        f'ScoreRubberHistory "{written}" does not follow from the deal before it, '
        f'which leaves "{played[1].text()}"'
    )
    after.report("score-mismatch", message, law="77", tag="ScoreRubberHistory")
