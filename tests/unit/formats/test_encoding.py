"""Encodings: every charset met in uploads is read correctly or reported as ``encoding``
with its exact byte offset; writing picks the charset on purpose and never writes '?'."""

from __future__ import annotations

import codecs
import importlib.util
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bridgefiles as bf
from bridgefiles.errors import StrictModeError
from bridgefiles.formats.decode import LineDecoder
from bridgefiles.model import Board, TagPair
from bridgefiles.model.diagnostic import Diagnostic


def _decode(data: bytes, **kwargs: object) -> tuple[str, LineDecoder]:
    decoder = LineDecoder(**kwargs)  # type: ignore[arg-type]
    return decoder.decode_all(data), decoder


def _offset(diag: Diagnostic) -> int:
    m = re.search(r"byte offset (\d+)", diag.message)
    assert m, diag.message
    return int(m.group(1))


# -- reading ---------------------------------------------------------------------------


def test_iso_8859_1_without_declaration() -> None:
    text, dec = _decode('[Event "Café Zürich"]\n'.encode("latin-1"))
    assert text == '[Event "Café Zürich"]\n'
    assert dec.encoding == "cp1252" and dec.diagnostics == []


def test_windows_1252_characters() -> None:
    text, dec = _decode(b'{en dash \x96 euro \x80 quotes \x93x\x94}\n')
    assert text == "{en dash – euro € quotes “x”}\n"
    # read correctly, and said: 0x80-0x9F are not ISO-8859-1, PBN's charset (pbn.md 2.2)
    [found] = dec.diagnostics
    assert found.code == "encoding" and found.severity.value == "warning"
    assert found.line == 1 and found.column == 10
    assert "0x96 at byte offset 9" in found.message and "4 such bytes" in found.message


def test_windows_1252_undefined_bytes_are_kept_not_lost() -> None:
    text, _ = _decode(b"a\x81b\x8dc\n")
    assert text == "a\x81b\x8dc\n"  # the ISO-8859-1 controls of the same codes
    assert text.encode("latin-1") == b"a\x81b\x8dc\n"


def test_utf8_without_bom() -> None:
    text, dec = _decode("[North \"Łukasz ♠\"]\n".encode())
    assert text == '[North "Łukasz ♠"]\n' and dec.encoding == "utf-8"
    assert dec.diagnostics == []


def test_utf8_with_bom() -> None:
    text, dec = _decode(codecs.BOM_UTF8 + "é\r\nü\n".encode())
    assert text == "é\r\nü\n" and dec.encoding == "utf-8"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom(codec: str) -> None:
    source = '[Event "日本 ♠ Café"]\r\n[Board "1"]\n' * 3000  # several chunks
    data = source.encode(codec)
    if codec != "utf-16":
        bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
        data = bom + data
    text, dec = _decode(data)
    assert text == source
    assert dec.encoding == "utf-16" and dec.diagnostics == []


def test_utf16_errors_have_exact_byte_offsets() -> None:
    data = codecs.BOM_UTF16_LE + "ab\n".encode("utf-16-le") + b"\x00\xd8" + "c\n".encode(
        "utf-16-le") + b"x"
    text, dec = _decode(data)
    assert text == "ab\n\ufffdc\n\ufffd"
    offsets = [_offset(d) for d in dec.diagnostics]
    assert offsets == [8, 14]
    assert all(d.code == "encoding" and d.severity.value == "error" for d in dec.diagnostics)


def test_utf8_line_then_cp1252_line_both_read_with_a_warning() -> None:
    data = "é\n".encode() + b"caf\xe9\n"
    text, dec = _decode(data)
    assert text == "é\ncafé\n"
    (diag,) = dec.diagnostics
    assert diag.code == "encoding" and diag.severity.value == "warning"
    assert _offset(diag) == 6 and diag.line == 2 and diag.column == 4


def test_declared_utf8_with_a_latin1_byte_is_an_error_at_its_offset() -> None:
    data = b"%Content-type: text/x-pbn; charset=UTF-8\n[Event \"Caf\xe9\"]\n"
    text, dec = _decode(data)
    assert text.endswith('[Event "Café"]\n')  # nothing lost: read as Windows-1252
    (diag,) = dec.diagnostics
    assert diag.severity.value == "error" and diag.line == 2 and diag.column == 12
    assert _offset(diag) == data.index(b"\xe9")


def test_declared_latin1_but_utf8_bytes_is_a_warning() -> None:
    data = b"%Content-type: text/x-pbn; charset=ISO-8859-1\n" + '[Event "Café"]\n'.encode()
    text, dec = _decode(data)
    assert text.endswith('[Event "CafÃ©"]\n')  # as declared
    (diag,) = dec.diagnostics
    assert diag.severity.value == "warning" and _offset(diag) == data.index(b"\xc3")


def test_unknown_charset_is_a_warning_and_the_text_still_reads() -> None:
    text, dec = _decode(b"%charset=klingon-8\nd\xe9j\xe0\n")
    assert text.endswith("déjà\n")
    assert [d.code for d in dec.diagnostics] == ["encoding"]
    assert "klingon" in dec.diagnostics[0].message


def test_bom_and_a_contradicting_declaration() -> None:
    text, dec = _decode(codecs.BOM_UTF8 + b"%charset=ISO-8859-1\n" + "é\n".encode())
    assert text.endswith("é\n") and dec.encoding == "utf-8"
    assert [d.severity.value for d in dec.diagnostics] == ["warning"]
    assert "byte order mark" in dec.diagnostics[0].message


def test_caller_declared_encoding_wins() -> None:
    text, dec = _decode("Ωμέγα\n".encode("iso8859-7"), declared="iso8859-7")
    assert text == "Ωμέγα\n" and dec.encoding == "iso8859-7"


def test_encoding_error_in_strict_mode_raises() -> None:
    with pytest.raises(StrictModeError):
        LineDecoder(strict=True).decode_all(b"%charset=UTF-8\n\xff\n")


@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFF,
                             exclude_categories=["Cs"]), max_size=40),
       st.integers(0, 40), st.sampled_from([b"\xff", b"\xc0", b"\x80", b"\xed\xa0\x80"]))
@settings(max_examples=200, deadline=None)
def test_the_byte_offset_is_exact(text: str, at: int, bad: bytes) -> None:
    """A bad byte put anywhere in a UTF-8 (BOM) file is reported at its own offset."""
    body = text.encode()
    cut = min(at, len(body))
    while cut and (body[cut] & 0xC0) == 0x80 if cut < len(body) else False:
        cut -= 1  # put it between characters
    data = codecs.BOM_UTF8 + b"line\n" + body[:cut] + bad + body[cut:] + b"\n"
    _, dec = _decode(data)
    assert dec.diagnostics, data
    assert _offset(dec.diagnostics[0]) == 3 + 5 + cut


_LINE_KINDS = st.sampled_from(["ascii", "utf-8", "latin-1", "percent"])


@given(st.lists(st.tuples(_LINE_KINDS, st.text(st.characters(min_codepoint=0xA0,
                                                              max_codepoint=0xFF),
                                                min_size=1, max_size=6)),
                min_size=1, max_size=60),
       st.integers(1, 300), st.booleans())
@settings(max_examples=200, deadline=None)
def test_a_file_of_mixed_lines_reads_each_line_and_reports_each_bad_byte_at_its_offset(
        kinds: list[tuple[str, str]], chunk: int, bom: bool) -> None:
    """However the bytes come in chunks, a UTF-8 file (BOM or declared) reads every
    valid line as UTF-8 and every Latin-1 line as Windows-1252, each with one
    error at the offset of its first bad byte: the common lines take no other path."""
    head = codecs.BOM_UTF8 if bom else b"%charset=UTF-8\n"
    data, expected, bad = bytearray(head), ["" if bom else "%charset=UTF-8\n"], []
    for kind, word in kinds:
        if kind == "ascii":
            raw = b"1S Pass 2C Pass\n"
        elif kind == "percent":
            raw = b"% a comment\n"
        elif kind == "utf-8":
            raw = f'[Event "{word}"]\n'.encode()
        else:  # (its bytes may happen to be valid UTF-8: then they are read so)
            raw = f'{{{word}}}\n'.encode("latin-1")
        try:
            expected.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            expected.append(raw.decode("cp1252"))
            bad.append(len(data) + exc.start)
        data += raw
    pieces = [bytes(data[i : i + chunk]) for i in range(0, len(data), chunk)]
    decoder = LineDecoder()
    assert "".join(decoder.read(pieces)) == "".join(expected)
    assert decoder.encoding == "utf-8"
    assert [(d.severity.value, _offset(d)) for d in decoder.diagnostics] == [
        ("error", at) for at in bad
    ]


def test_through_the_api_the_diagnostic_rides_on_the_board() -> None:
    board = Board(tags=(TagPair(name="Event", value="x"),))
    data = codecs.BOM_UTF8 + bf.dumps([board], "json").encode().replace(b'"x"', b'"\xff"')
    f = bf.loads(data, "json")
    codes = [d.code for d in f.all_diagnostics()]
    assert "encoding" in codes
    assert f.boards[0].tag("Event") == "ÿ"


@pytest.mark.parametrize(
    "data, expected",
    [
        ('[Event "Café"]\n[Board "1"]\n\n'.encode("latin-1"), "Café"),
        ('[Event "Café ♠"]\n[Board "1"]\n\n'.encode(), "Café ♠"),
        (codecs.BOM_UTF8 + '[Event "Café ♠"]\n[Board "1"]\n\n'.encode(), "Café ♠"),
        ('[Event "Café ♠"]\r\n[Board "1"]\r\n\r\n'.encode("utf-16"), "Café ♠"),
        (b"%Content-type: text/x-pbn; charset=ISO-8859-1\n[Event \"Caf\xe9\"]\n\n", "Café"),
    ],
)
def test_pbn_reads_each_encoding(data: bytes, expected: str) -> None:
    f = bf.loads(data, "pbn")
    assert f.boards[0].tag("Event") == expected
    assert not [d for d in f.all_diagnostics() if d.code == "encoding"]


# -- writing ---------------------------------------------------------------------------


def _event(value: str) -> bf.BridgeFile:
    """A board whose Event and North (LIN carries players, not events) hold ``value``."""
    tags = (TagPair(name="Event", value=value), TagPair(name="Board", value="1"),
            TagPair(name="North", value=value))
    return bf.BridgeFile(format="json", boards=(Board(tags=tags),))


def test_pbn_is_written_in_iso_8859_1_by_default(tmp_path: Path) -> None:
    out = tmp_path / "o.pbn"
    bf.write(_event("Café"), out)
    assert b'"Caf\xe9"' in out.read_bytes()


def test_pbn_character_latin1_cannot_carry_is_an_error_not_a_question_mark(
    tmp_path: Path,
) -> None:
    out = tmp_path / "o.pbn"
    with pytest.raises(bf.BridgeFileError, match=r"U\+2660"):
        bf.write(_event("4♠ made"), out)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_pbn_in_utf8_when_asked(tmp_path: Path) -> None:
    out = tmp_path / "o.pbn"
    bf.write(_event("4♠ made"), out, encoding="utf-8")
    assert "4♠ made".encode() in out.read_bytes()


def test_pbn_read_as_utf8_is_written_back_as_utf8(tmp_path: Path) -> None:
    f = bf.loads('[Event "4♠"]\n[Board "1"]\n\n'.encode(), "pbn")
    out = tmp_path / "o.pbn"
    bf.write(f, out)
    assert "4♠".encode() in out.read_bytes()


def test_pbn_read_from_a_str_can_be_written(tmp_path: Path) -> None:
    f = bf.loads('[Event "Café"]\n[Board "1"]\n\n', "pbn")
    out = tmp_path / "o.pbn"
    bf.write(f, out)
    assert b"Caf\xe9" in out.read_bytes()


@pytest.mark.parametrize("fmt", ["json", pytest.param("lin", marks=pytest.mark.skipif(
    importlib.util.find_spec("bridgefiles.formats.lin") is None, reason="no LIN reader yet"))])
def test_lin_and_json_are_written_in_utf8(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"o.{fmt}"
    bf.write(_event("日本 ♠"), out)
    assert "日本 ♠".encode() in out.read_bytes()


def test_unknown_output_encoding_is_a_bridge_file_error(tmp_path: Path) -> None:
    with pytest.raises(bf.BridgeFileError, match="unknown output encoding"):
        bf.write(_event("x"), tmp_path / "o.json", encoding="klingon-8")
