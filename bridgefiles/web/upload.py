"""Receiving an upload: the multipart body streamed into a request's own temporary folder.

The size limit is enforced while the body arrives (a 413 as soon as it is passed; nothing
past it is stored, and :class:`~bridgefiles.web.guard.Guard` reads the rest to the void so
that the client reads the answer); the body must keep its pace (a 408) and end with its
closing boundary (a 400: an interrupted upload is never checked as if whole); the file is
stored under a fixed name (``upload`` plus a known extension), never under a name taken
from the request; the folder goes when the request is done.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import unicodedata
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import IO

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import ClientDisconnect, Request

from bridgefiles.web.guard import Pace, TooSlow

KNOWN_EXTENSIONS = (".pbn", ".lin", ".json")
MAX_FIELD = 1024  # bytes of a form field other than the file
MAX_PARTS = 16
MULTIPART_SLACK = 64 * 1024  # boundaries and part headers on top of the file itself


class UploadError(Exception):
    """A request whose body cannot be taken: the status and a message for the client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Upload:
    """The file (path in the temporary folder, the client's name, size) and the form fields."""

    folder: str
    path: str | None = None
    name: str = "upload"
    size: int = 0
    fields: dict[str, str] = field(default_factory=dict)

    def field(self, key: str, default: str = "") -> str:
        return self.fields.get(key, default)


_UNSAFE = re.compile(r"[^\w.\- ()+,@]+")


def display_name(raw: str) -> str:
    """The client's file name as reports show it: its last part, printable, at most 100
    characters, its extension kept (never used to name anything on disk)."""
    name = raw.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if unicodedata.category(ch)[0] != "C").strip()
    if len(name) > 100:  # shortened in its stem: the extension tells the format
        stem, ext = os.path.splitext(name)
        name = stem[:100 - len(ext[:10])] + ext[:10]
    return name or "upload"


def download_name(stem: str, extension: str) -> str:
    """A file name safe in a Content-Disposition header: ASCII letters, digits, ``._-``."""
    ascii_stem = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", ascii_stem).strip("._") or "bridgefiles"
    return f"{safe[:80]}{extension}"


def _stored_name(client_name: str) -> str:
    """``upload`` plus the client's extension when it is one we read, so the format is
    detected as the command line would from the name; else the content decides."""
    ext = os.path.splitext(client_name)[1].lower()
    return "upload" + ext if ext in KNOWN_EXTENSIONS else "upload"


@asynccontextmanager
async def temporary_folder(parent: str | None = None) -> AsyncIterator[str]:
    """A private folder for one request, removed with everything in it afterwards."""
    folder = tempfile.mkdtemp(prefix="bridgefiles-web-", dir=parent)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _Receiver:
    """The parser callbacks: headers of each part, the file part to disk, fields to memory."""

    def __init__(self, upload: Upload, limit: int) -> None:
        self.upload = upload
        self.limit = limit
        self.parts = 0
        self.header_field = b""
        self.header_value = b""
        self.headers: dict[bytes, bytes] = {}
        self.name: str | None = None
        self.out: IO[bytes] | None = None
        self.value = bytearray()
        self.seen_file = False
        self.ended = False  # the closing boundary was read

    def callbacks(self) -> dict[str, object]:
        return {
            "on_part_begin": self.part_begin,
            "on_header_field": self.header_field_data,
            "on_header_value": self.header_value_data,
            "on_header_end": self.header_end,
            "on_headers_finished": self.headers_finished,
            "on_part_data": self.part_data,
            "on_part_end": self.part_end,
            "on_end": self.end,
        }

    def part_begin(self) -> None:
        self.parts += 1
        if self.parts > MAX_PARTS:
            raise UploadError(400, f"too many form fields (at most {MAX_PARTS})")
        self.headers = {}
        self.header_field = self.header_value = b""
        self.name = None
        self.value = bytearray()

    def header_field_data(self, data: bytes, start: int, end: int) -> None:
        self.header_field += data[start:end]

    def header_value_data(self, data: bytes, start: int, end: int) -> None:
        self.header_value += data[start:end]

    def header_end(self) -> None:
        self.headers[self.header_field.strip().lower()] = self.header_value.strip()
        self.header_field = self.header_value = b""

    def headers_finished(self) -> None:
        _, params = parse_options_header(self.headers.get(b"content-disposition", b""))
        self.name = params.get(b"name", b"").decode("utf-8", "replace")
        if self.name == "file" and b"filename" in params:
            if self.seen_file:
                raise UploadError(400, "send one file per request (form field 'file')")
            self.seen_file = True
            client = params[b"filename"].decode("utf-8", "replace")
            self.upload.name = display_name(client)
            self.upload.path = os.path.join(self.upload.folder, _stored_name(self.upload.name))
            self.out = open(self.upload.path, "xb")  # noqa: SIM115 - closed in part_end/close

    def part_data(self, data: bytes, start: int, end: int) -> None:
        if self.out is not None:
            self.upload.size += end - start
            if self.upload.size > self.limit:
                raise UploadError(413, _too_large(self.limit))
            self.out.write(data[start:end])
        else:
            self.value += data[start:end]
            if len(self.value) > MAX_FIELD:
                raise UploadError(400, f"form field {self.name!r} is too long")

    def part_end(self) -> None:
        if self.out is not None:
            self.out.close()
            self.out = None
        elif self.name:
            self.upload.fields[self.name] = self.value.decode("utf-8", "replace")

    def end(self) -> None:
        self.ended = True

    def close(self) -> None:
        if self.out is not None:
            self.out.close()
            self.out = None


def _too_large(limit: int) -> str:
    return (
        f"the file is larger than this service accepts ({limit / (1 << 20):g} MB); "
        "split it, or ask the service's operator to raise --max-upload-mb"
    )


async def receive(request: Request, folder: str, limit: int, *, pace: Pace | None = None,
                  idle: float | None = None, total: float | None = None) -> Upload:
    """Stream a ``multipart/form-data`` body with a ``file`` field into ``folder``; an
    upload that does not keep ``pace`` (``idle``, ``total`` override its fields) is
    refused (408), one without its closing boundary too (400: it is not whole)."""
    pace = pace or Pace()
    if idle is not None:
        pace = replace(pace, idle=idle)
    if total is not None:
        pace = replace(pace, total=total)
    content_type, params = parse_options_header(request.headers.get("content-type", ""))
    if content_type != b"multipart/form-data" or b"boundary" not in params:
        raise UploadError(
            415, "send the file as multipart/form-data in a field named 'file'"
        )
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdecimal() and int(declared) > limit + MULTIPART_SLACK:
        raise UploadError(413, _too_large(limit))
    upload = Upload(folder=folder)
    receiver = _Receiver(upload, limit)
    parser = MultipartParser(params[b"boundary"], receiver.callbacks())  # type: ignore[arg-type]
    received = 0
    clock = pace.clock()
    chunks = request.stream().__aiter__()
    try:
        while True:
            try:
                chunk = await clock.next(chunks.__anext__())
            except StopAsyncIteration:
                break
            clock.got(len(chunk))
            received += len(chunk)
            if received > limit + MULTIPART_SLACK:
                raise UploadError(413, _too_large(limit))
            parser.write(chunk)
        parser.finalize()
    except TooSlow as exc:
        raise UploadError(408, str(exc)) from None
    except MultipartParseError as exc:
        raise UploadError(400, f"the form data is malformed: {exc}") from exc
    except ClientDisconnect as exc:
        raise UploadError(400, "the upload was interrupted") from exc
    finally:
        receiver.close()
    if not receiver.ended:
        raise UploadError(400, "the form data ends before its closing boundary: the upload "
                               "is not whole (interrupted?); send it again")
    if upload.path is None:
        raise UploadError(400, "no file: send it in a form field named 'file'")
    if upload.size == 0:
        raise UploadError(400, f"{upload.name} is empty: there is nothing to check")
    return upload
