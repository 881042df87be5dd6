"""Hostile bytes read as each dealing-machine or archive format: findings, never a crash
(only BridgeFileError may leave, and only in strict mode), within the limits."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.exchange.cards import records
from bridgefiles.limits import Limits

SEEDS = {
    "rbn": (FIXTURES / "rbn-sample.rbn").read_bytes(),
    "bri": (b"01040615192324262940414551" b"02161721222832333435384749"
            b"03050910111214183031444852" + b" " * 32 + b"\0" * 18),
}
SEEDS["dup"] = SEEDS["bri"][:78] + b" " * 68 + b"YN1  0 1  "
SEEDS["dge"] = (b"\x06AJ9\x03K9542\x04Q\x05AK93\x06K\x03QJ76\x04K98763\x0575"
                b"\x06QT6543\x03AT\x04JT\x05T62\x06872\x0383\x04A542\x05QJ84" + b"\0" * 60)
SEEDS["dlm"] = (b"[Document]\r\nStatus=Show\r\nDuplicates=0\r\nFrom board=1\r\nTo board=1\r\n"
                b"Crypto key=0\r\nChecksum=1\r\nDuplicates 01=0\r\n"
                b"Board 01=biipkkobgdfamncjfhnmdodghc030\r\n")


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        what = draw(st.sampled_from(["flip", "cut", "insert", "repeat"]))
        if what == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif what == "cut":
            del data[at : at + draw(st.integers(1, 40))]
        elif what == "insert":
            data[at:at] = draw(st.binary(max_size=20))
        else:
            data[at:at] = data[at : at + draw(st.integers(1, 60))] * 2
    return bytes(data)


@pytest.mark.parametrize("fmt", sorted(SEEDS))
@given(data=st.data())
def test_mutated_input_gives_findings_not_crashes(fmt: str, data: st.DataObject) -> None:
    raw = data.draw(mutated(SEEDS[fmt]) | st.binary(max_size=300))
    try:
        read = bf.loads(raw, format=fmt)  # lenient: findings, not exceptions ...
    except bf.UnreadableInputError as exc:
        # ... unless the bytes begin as compressed data that cannot be unpacked: then
        # nothing can be read, in either mode (as for PBN: tests/cli/test_cli_compressed)
        assert raw.startswith(_COMPRESSED_HEADS), exc
        assert "cannot be unpacked" in str(exc), exc
        with pytest.raises(bf.UnreadableInputError):
            bf.loads(raw, format=fmt, strict=True)
        return
    for board in read.boards:
        assert all(d.code != "internal" for d in board.diagnostics)
        for target in ("pbn", fmt):
            bf.dumps([board], target)
    with pytest.raises(bf.BridgeFileError) if _has_error(read) else _nothing():
        bf.loads(raw, format=fmt, strict=True)


_COMPRESSED_HEADS = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00")


@pytest.mark.parametrize("head", [b"\xfd7zXZ\x00", b"\x1f\x8b\x08\x00", b"BZh9"])
def test_damaged_compressed_bytes_are_unreadable_in_either_mode(head: bytes) -> None:
    """Bytes that begin as xz, gzip or bzip2 but do not unpack: nothing to read, said as
    UnreadableInputError whatever format was named (found by the fuzzer above)."""
    for strict in (False, True):
        with pytest.raises(bf.UnreadableInputError, match="cannot be unpacked"):
            bf.loads(head, format="dlm", strict=strict)


def _has_error(read: bf.BridgeFile) -> bool:
    found = [*read.diagnostics, *(d for b in read.boards for d in b.diagnostics)]
    return any(d.severity.value == "error" for d in found)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_record_over_the_board_size_limit_is_cut_with_a_finding() -> None:
    seed = SEEDS["rbn"].split(b"\n\n")[0]
    big = seed + b"\n" + b"{" + b"x" * 5000 + b"}\n"
    read = bf.loads(big, format="rbn", limits=Limits(max_board_size=1000))
    assert [d.code for d in read.diagnostics] == ["limit"]
    assert read.boards[0].tag("Board") == "1"  # what came before the limit is read


@given(
    text=st.text(alphabet="01 \n\x00", max_size=400),
    cuts=st.lists(st.integers(0, 400), max_size=6),
    size=st.integers(1, 160),
)
def test_records_are_the_text_cut_every_size_characters_however_it_comes(
    text: str, cuts: list[int], size: int
) -> None:
    edges = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    pieces = [text[a:b] for a, b in pairwise(edges)]
    assert list(records(iter(pieces), size)) == [
        (i, text[i : i + size]) for i in range(0, len(text), size)
    ]


def test_a_dlm_header_of_endless_keys_is_cut_once() -> None:
    keys = b"".join(b"K%d=v\r\n" % i for i in range(500))
    data = SEEDS["dlm"].replace(b"Status=Show\r\n", b"Status=Show\r\n" + keys)
    read = bf.loads(data, format="dlm")
    limits = [d for d in read.diagnostics if d.code == "limit"]
    assert len(limits) == 1 and "from 'K" in limits[0].message
    assert read.boards[0].tag("Board") == "1" and len(read.boards[0].extras) <= 100
