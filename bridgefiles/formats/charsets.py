"""The charsets a bridge file is read in: names checked, the lossless fallback.

Windows-1252 with its five undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) read and
written as the ISO-8859-1 controls of the same code is registered as a codec
(``x-bridgefiles-cp1252``), so a file that holds those bytes can be written back as it
was read (issue 15). Importing this module registers it and the error handlers.
"""

from __future__ import annotations

import codecs
from functools import lru_cache

SINGLE_BYTE_FALLBACK = "cp1252"
SINGLE_BYTE = frozenset(
    {"cp1252", "latin-1", "x-bridgefiles-cp1252", *(f"iso8859-{i}" for i in range(1, 17))}
)


def _keep_as_latin1(exc: UnicodeError) -> tuple[str, int]:
    """Error handler: an undecodable byte becomes the ISO-8859-1 character of the same code."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("bridgefiles-latin1", _keep_as_latin1)


@lru_cache(maxsize=64)
def normalise_charset(name: str) -> str | None:
    """The codec of a charset label, or None when it is no charset a text file can be
    in: unknown, or a codec that is not a text encoding (rot13, hex, base64, zlib) or
    cannot decode any bytes (idna, punycode)."""
    try:
        found = codecs.lookup(name).name
        "probe".encode(found)  # LookupError for bytes-to-bytes and str-to-str codecs
        bytes(range(256)).decode(found, "replace")  # UnicodeError for idna, punycode
    except (LookupError, UnicodeError, ValueError, TypeError):
        return None
    return "iso8859-1" if found in ("latin-1", "latin_1") else found


# Windows-1252 with its five undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D) read and written
# as the ISO-8859-1 controls of the same code: what the fallback reads, as a codec, so a
# file that holds those bytes can be written back as it was read (issue 15).
LOSSLESS_CP1252 = "x-bridgefiles-cp1252"
C1_KEPT = frozenset(b"\x81\x8d\x8f\x90\x9d")


def _lossless_cp1252() -> codecs.CodecInfo:
    from encodings import cp1252

    table = "".join(chr(i) if c == "\ufffe" else c for i, c in enumerate(cp1252.decoding_table))
    encoding_table = codecs.charmap_build(table)

    def to_bytes(text: str, errors: str = "strict") -> tuple[bytes, int]:
        return codecs.charmap_encode(text, errors, encoding_table)

    def to_text(data: bytes, errors: str = "strict") -> tuple[str, int]:
        return codecs.charmap_decode(data, errors, table)

    class Encoder(codecs.IncrementalEncoder):
        def encode(self, text: str, final: bool = False) -> bytes:
            return codecs.charmap_encode(text, self.errors, encoding_table)[0]

    class Decoder(codecs.IncrementalDecoder):
        def decode(self, data: bytes, final: bool = False) -> str:  # type: ignore[override]
            return codecs.charmap_decode(data, self.errors, table)[0]

    class Writer(codecs.StreamWriter):
        encode = staticmethod(to_bytes)  # type: ignore[assignment]

    class Reader(codecs.StreamReader):
        decode = staticmethod(to_text)  # type: ignore[assignment]

    return codecs.CodecInfo(
        to_bytes,
        to_text,  # type: ignore[arg-type]
        Reader,
        Writer,
        incrementalencoder=Encoder,
        incrementaldecoder=Decoder,
        name=LOSSLESS_CP1252,
    )


def _search(name: str) -> codecs.CodecInfo | None:
    return _lossless_cp1252() if name.replace("_", "-") == LOSSLESS_CP1252 else None


codecs.register(_search)


def fallback_text(raw: bytes) -> str:
    """Windows-1252, with its undefined bytes kept as ISO-8859-1 controls: never lossy."""
    return raw.decode(SINGLE_BYTE_FALLBACK, "bridgefiles-latin1")
