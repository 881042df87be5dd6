"""The whole real-world corpus: every file reads, preserve gives the text back, and
export keeps the game content.

Export canonicalises some things on purpose, so the round-trip comparison first
normalises both sides (``normalise`` in tests/pbn_content.py):

* tags are compared by name (export reorders them), first occurrence only (export
  drops repeats, which the reader reported as ``duplicate-tag``); MTS tags the
  original did not have are ignored (export writes ``"?"`` or a value implied by the
  game, as the verifier does);
* Vulnerable, Contract, Dealer and Declarer compare in canonical spelling, Deal by
  its hands (export starts with the dealer and sorts ranks), Result as declarer's
  tricks (export's form);
* the auction compares from the first real call (export drops leading ``-``), with
  ``AP`` expanded to passes; an unreadable call (reported, and written ``-``)
  compares equal to ``-``;
* suffixes compare as their NAGs (export writes ``!`` as ``$1`` for a call, ``$7``
  for a card), NAGs as a sorted list;
* the play compares without trailing ``-`` slots (export fills the last trick);
* escape lines and positions are left out (export writes no ``%`` lines);
* a ``"#"`` value compares by the value it resolves to: export writes ``"#"`` only
  where a reader of the output resolves it to the same value (export fills missing
  MTS tags with ``"?"``, which ``"#"`` in a later game would otherwise find).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pbn_content import normalise
from shared import CONFORMANCE, CORPUS, REAL, REAL_PBN, needs_corpus

import bridgefiles as bf
from bridgefiles.formats.decode import LineDecoder


def corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    files = sorted((REAL_PBN).glob("*"))
    for path in sorted((REAL / "other").glob("*")):
        if b'[Deal "' in path.read_bytes()[:4096]:
            files.append(path)
    files.extend(sorted((CONFORMANCE).glob("*.pbn")))
    return files


pytestmark = needs_corpus


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_reads_and_round_trips(path: Path) -> None:
    data = path.read_bytes()
    bridge_file = bf.load(path, format="pbn")
    assert bridge_file.boards or path.stat().st_size < 100

    # preserve: the identical text, and equal models when read again
    text = LineDecoder().decode_all(data)
    preserved = bf.dumps(bridge_file, "pbn", layout="preserve")
    assert preserved == text
    again = bf.loads(preserved, format="pbn")
    assert len(again.boards) == len(bridge_file.boards)
    for a, b in zip(bridge_file.boards, again.boards, strict=True):
        assert a.model_dump(exclude={"diagnostics"}) == b.model_dump(exclude={"diagnostics"})
        assert [d.message for d in a.diagnostics if d.code != "encoding"] == [
            d.message for d in b.diagnostics if d.code != "encoding"
        ]

    # export: the same game content when read back
    exported = bf.dumps(bridge_file, "pbn")
    back = bf.loads(exported, format="pbn")
    assert len(back.boards) == len(bridge_file.boards)
    for i, (a, b) in enumerate(zip(bridge_file.boards, back.boards, strict=True)):
        present = {t.name for t in a.tags if not t.implied}
        assert normalise(b, keep=present) == normalise(a), f"board {i} ({a.label})"

    # export is idempotent: a second export gives the same bytes (an unknown call such as
    # ben's 'AC' is written back as read, never as a token of another meaning)
    assert bf.dumps(back, "pbn") == exported


def test_every_stream_read_matches_load() -> None:
    path = REAL_PBN / "pbntools__sm0807.pbn"
    streamed = list(bf.read(path))
    loaded = bf.load(path).boards
    assert [b.source for b in streamed] == [b.source for b in loaded]
