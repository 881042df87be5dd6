"""Issue #15 in the upload service: uvicorn has no timeout for a request body, so the
service cuts off an upload that stalls (``Settings.upload_idle_s``) or trickles past
``Settings.upload_total_s`` with a 408; a conversion over its output budget is a 422;
nothing is left behind."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the upload service needs the 'web' extra")

from starlette.requests import Request

from bridgefiles.testing.fuzzing import vugraph_header as vugraph
from bridgefiles.web.app import Settings
from bridgefiles.web.upload import UploadError, receive

HEAD = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.pbn"\r\n'
        b"Content-Type: text/plain\r\n\r\n")
GAME = b'[Board "1"]\n[Dealer "N"]\n\n'


def _request(pieces: list[bytes], pause: float) -> Request:
    """A POST whose body comes in ``pieces``, ``pause`` seconds apart."""
    sent = iter(pieces)

    async def messages() -> dict[str, Any]:
        piece = next(sent, None)
        if piece is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(pause)
        return {"type": "http.request", "body": piece, "more_body": True}

    scope = {"type": "http", "method": "POST", "path": "/api/validate", "query_string": b"",
             "headers": [(b"content-type", b"multipart/form-data; boundary=b")]}
    return Request(scope, messages)


def _take(request: Request, folder: Path, idle: float, total: float) -> int | str:
    try:
        upload = asyncio.run(receive(request, str(folder), 1 << 20, idle=idle, total=total))
    except UploadError as exc:
        return exc.status
    return upload.name


def test_an_upload_that_stalls_is_cut_off(tmp_path: Path) -> None:
    request = _request([HEAD, GAME], pause=5.0)
    assert _take(request, tmp_path, idle=0.2, total=60) == 408


def test_an_upload_that_trickles_past_the_total_is_cut_off(tmp_path: Path) -> None:
    request = _request([HEAD, *[b"\n"] * 200, GAME], pause=0.05)
    assert _take(request, tmp_path, idle=1.0, total=0.5) == 408


def test_an_upload_at_a_steady_pace_is_taken(tmp_path: Path) -> None:
    request = _request([HEAD, GAME, b"\r\n--b--\r\n"], pause=0.01)
    assert _take(request, tmp_path, idle=5.0, total=60) == "a.pbn"


def test_the_settings_have_finite_timeouts() -> None:
    settings = Settings()
    assert 0 < settings.upload_idle_s <= 60 and 0 < settings.upload_total_s <= 600


def test_a_converted_upload_over_its_output_budget_is_a_422(tmp_path: Path) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient

    from bridgefiles.web.app import create_app

    app = create_app(Settings(workers=1, temp_dir=str(tmp_path)))
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post("/api/convert?to=json", files={"file": ("vg.lin", vugraph())})
        assert answer.status_code == 422, answer.text
        assert "max_output_factor" in answer.json()["error"]
        fine = client.post("/api/convert?to=json",
                           files={"file": ("vg.lin", vugraph(header=10, names=3))})
        assert fine.status_code == 200 and fine.content.startswith(b'{"bridgefiles"')
    assert list(tmp_path.iterdir()) == []
