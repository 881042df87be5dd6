"""A rubber or Chicago record filled in: ScoreRubber from the deal and its history.

PBN gives the rubber's state before the deal in ``ScoreRubberHistory``; the deal's
points above and below the line go in ``ScoreRubber``, reported (and replaced only
with ``replace=True``) when the file's value disagrees.
"""

from __future__ import annotations

from bridgefiles.model.seats import Side
from bridgefiles.scoring.record import Record
from bridgefiles.scoring.rubber import DealScore, RubberState, parse_score_rubber, score_deal
from bridgefiles.scoring.settings import ScoreSettings
from bridgefiles.scoring.traveller import MISSING


def fill_rubber(w: Record, settings: ScoreSettings) -> None:
    """ScoreRubber from the deal and the ScoreRubberHistory it starts from."""
    b = w.board
    history = b.tag("ScoreRubberHistory")
    if history is None or history.strip() in MISSING or w.contract is None:
        return
    try:
        state = RubberState.parse(history)
    except ValueError:
        return  # the tag's syntax is the reader's finding
    if w.contract.passed_out:
        score = DealScore()
    elif w.declarer is None or w.tricks is None:
        return
    else:
        score, _ = score_deal(w.contract, w.declarer, w.tricks, state, deal=b.deal)
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
