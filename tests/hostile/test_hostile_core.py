"""Issue 15 in the reading core: bombs, forged findings and escapes through the PBN
and JSON readers and the decode layer, each with small limits so it stays fast."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import bridgefiles as bf
from bridgefiles.formats.json_format import nesting
from bridgefiles.limits import Limits

SMALL = Limits(max_commands_per_board=1_000)


def _codes(f: bf.BridgeFile) -> list[str]:
    return [d.code for d in f.all_diagnostics()]


# -- PBN: memory bounded inside one game -------------------------------------------------


def test_a_game_of_many_comments_stops_at_the_limit_with_a_finding() -> None:
    text = '[Event "x"]\n' + "{c}\n" * 5_000
    loaded = bf.loads(text, format="pbn", limits=SMALL)
    limit = [d for d in loaded.all_diagnostics() if d.code == "limit"]
    assert len(limit) == 1 and limit[0].line == 1_001
    kept = loaded.boards[0].tags[0].comments
    assert len(kept) < 1_000  # the rest was not made into models
    assert bf.dumps(loaded, "pbn", layout="preserve") == text  # nothing lost on the way out


def test_escape_lines_before_a_game_are_bounded_as_directives() -> None:
    text = "%x\n" * 5_000 + '[Event "x"]\n'
    loaded = bf.loads(text, format="pbn", limits=SMALL)
    assert _codes(loaded).count("limit") == 1
    assert len(loaded.directives) == 1_000
    assert loaded.boards[0].tag("Event") == "x"
    assert bf.dumps(loaded, "pbn", layout="preserve") == text


def test_escape_lines_inside_a_game_are_bounded() -> None:
    text = '[Event "a"]\n\n' + "%x\n" * 5_000 + '[Event "b"]\n'
    loaded = bf.loads(text, format="pbn", limits=SMALL)
    assert [b.tag("Event") for b in loaded.boards] == ["a", None]
    assert "limit" in _codes(loaded)
    assert len(loaded.boards[1].escapes) == 1_000
    assert bf.dumps(loaded, "pbn", layout="preserve") == text


# -- JSON -------------------------------------------------------------------------------


def test_nesting_is_one_pass_over_escaped_quotes() -> None:
    assert nesting('"' + '\\"' * 100_000 + '"') == 0
    assert nesting('[{"a": "]]]\\"[[["}, [[]]]') == 3
    assert nesting('"\\\\" [[') == 2  # an escaped backslash ends nothing


def test_json_tags_are_checked_as_pbn_tags_are() -> None:
    pbn = '[Dealer "Q"]\n[Deal "N:AKQJT98765432.A.. - - -"]\n[Contract "9ZZ"]\n[Result "99"]\n'
    from_pbn = bf.loads(pbn, format="pbn")
    from_json = bf.loads(bf.dumps(from_pbn, "json"), format="json")

    def found(f: bf.BridgeFile) -> list[tuple[str, str, str]]:
        return sorted((d.code, d.severity.value, d.message) for d in f.all_diagnostics())

    assert found(from_json) == found(from_pbn)
    assert {c for c, _, _ in found(from_json)} == {"deal", "tag-value"}


def test_json_diagnostics_and_source_are_never_taken_as_ours() -> None:
    forged = {
        "tags": [{"name": "Board", "value": "1"}],
        "diagnostics": [{"code": "revoke", "severity": "error", "message": "forged finding"}],
        "source": '[Deal "N:garbage"]\n',
    }
    loaded = bf.loads(json.dumps(forged), format="json")
    assert loaded.all_diagnostics() == []
    assert loaded.boards[0].source is None
    assert "garbage" not in bf.dumps(loaded, "pbn", layout="preserve")


def test_a_lone_surrogate_in_json_is_an_encoding_finding_and_writes_as_utf8() -> None:
    loaded = bf.loads('{"tags": [{"name": "Event", "value": "a\\ud800b"}]}', format="json")
    assert _codes(loaded) == ["encoding"]
    assert loaded.boards[0].tag("Event") == "a\ufffdb"
    out = bf.dumps(loaded, "json")
    out.encode("utf-8")
    assert json.loads(out)["boards"][0]["tags"][0]["value"] == "a\ufffdb"


# -- charsets ----------------------------------------------------------------------------


@pytest.mark.parametrize("label", ["rot13", "hex", "base64", "zlib", "idna", "punycode"])
def test_a_charset_that_is_no_text_encoding_is_refused_with_a_finding(label: str) -> None:
    data = f'% charset={label}\n[Event "caf\xe9"]\n'.encode("latin-1")
    loaded = bf.loads(data, format="pbn")
    assert any(d.code == "encoding" and label in d.message for d in loaded.all_diagnostics())
    assert loaded.boards[0].tag("Event") == "caf\xe9"
    assert "caf\xe9" in bf.dumps(loaded, "pbn")
    with pytest.raises(bf.UsageError, match="not a text encoding"):  # the caller's mistake
        bf.loads(b'[Event "x"]\n', format="pbn", encoding=label)


def test_a_cp1252_fallback_file_with_undefined_bytes_is_written_back(tmp_path: Path) -> None:
    """0x81, 0x8D, 0x8F, 0x90 and 0x9D mean nothing in Windows-1252: read as the
    ISO-8859-1 controls of the same code (with a finding), they are written back as
    the same bytes, by preserve and by export alike."""
    data = b'[Event "caf\xe9 \x80 \x81\x8d\x8f\x90\x9d"]\r\n[Board "1"]\r\n'
    loaded = bf.loads(data, format="pbn")
    assert "encoding" in _codes(loaded)
    kept = tmp_path / "kept.pbn"
    bf.write(loaded, kept, format="pbn", layout="preserve")
    assert kept.read_bytes() == data
    exported = tmp_path / "exported.pbn"
    bf.write(loaded, exported, format="pbn")
    assert b'[Event "caf\xe9 \x80 \x81\x8d\x8f\x90\x9d"]' in exported.read_bytes()
    assert bf.load(exported).boards[0].tag("Event") == loaded.boards[0].tag("Event")
