"""Untrusted uploads: too large, binary, empty, malformed and hostile files get clear 4xx
answers (JSON from the API, a page from the form), nothing from a file is rendered
unescaped, no temporary file is left behind, and the service keeps serving."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the upload service needs the 'web' extra")

with warnings.catch_warnings():  # starlette's note about httpx's successor, at import
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from shared import FIXTURES

from bridgefiles.web.app import Settings, create_app

SAMPLE = FIXTURES / "sample-event.pbn"

# Values that end an HTML attribute or open an element wherever they land.
ATTACKS = {
    "event": "<script>alert('event')</script>",
    "site": '" onmouseover="alert(\'site\')" x="',
    "west": "<img src=x onerror=alert('west')>",
    "north": '"><script>alert(\'north\')</script>',
    "east": "' onfocus='alert(`east`)' autofocus='",
    "south": "</td></tr></table><script>alert('south')</script>",
    "note": '"><svg onload=alert(\'note\')>',
    "commentary": "</blockquote><script>alert('commentary')</script>",
}
HOSTILE_PBN = f"""[Event "{ATTACKS['event']}"]
[Site "{ATTACKS['site'].replace('"', "'")}"]
[Date "2024.01.01"]
[Board "1"]
[West "{ATTACKS['west']}"]
[North "{ATTACKS['north'].replace('"', "'")}"]
[East "{ATTACKS['east']}"]
[South "{ATTACKS['south']}"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Declarer "S"]
[Contract "7NT"]
[Result "13"]
{{{ATTACKS['commentary']}}}
[Auction "N"]
1C =1= Pass 1H Pass
1S Pass 2NT Pass
3NT Pass Pass Pass
[Note "1:{ATTACKS['note'].replace('"', "'")}"]
"""
# in a PBN tag value a '"' must be escaped; the file keeps the attack with single quotes


class _Elements(HTMLParser):
    """Every element and attribute of a page, as a browser's tokenizer sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def _elements(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Elements()
    parser.feed(page)
    return parser.tags


@pytest.fixture
def uploads(tmp_path: Path) -> Path:
    folder = tmp_path / "uploads"
    folder.mkdir()
    return folder


@pytest.fixture
def client(uploads: Path) -> Iterator[TestClient]:
    app = create_app(Settings(workers=1, max_upload_mb=0.25, temp_dir=str(uploads)))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c
    assert os.listdir(uploads) == [], "a request left files in its temporary folder"


def _still_serving(client: TestClient) -> None:
    assert client.get("/healthz").json()["status"] == "ok"
    with open(SAMPLE, "rb") as f:
        r = client.post("/api/validate", files={"file": ("sample.pbn", f)})
    assert r.status_code == 200 and r.json()["summary"]["boards"] == 12


def test_hostile_text_is_escaped_everywhere_on_the_report(client: TestClient) -> None:
    name = "<img src=x onerror=alert('name')>.pbn"
    r = client.post("/report", files={"file": (name, HOSTILE_PBN.encode("latin-1"))})
    assert r.status_code == 200, r.text
    page = r.text
    elements = _elements(page)
    # no element or attribute came from the file: one script (ours), no handlers, no media
    assert [a for t, a in elements if t == "script"] == [{"src": "/static/report.js",
                                                           "defer": None}]
    assert not [t for t, _ in elements if t in ("img", "svg", "iframe", "object")]
    assert not [(t, k) for t, a in elements for k in a if k.startswith("on")]
    assert not [(t, a) for t, a in elements if t in ("table", "td") and "autofocus" in a]
    # the values are there, escaped: names in the diagram, the note, commentary, event
    assert "&lt;img src=x onerror=alert(&#39;west&#39;)&gt;" in page
    assert "&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;&lt;script&gt;alert(&#39;south&#39;)" in page
    assert "&lt;/blockquote&gt;&lt;script&gt;alert(&#39;commentary&#39;)" in page
    assert "&lt;svg onload=alert(&#39;note&#39;)&gt;" in page
    assert "&lt;script&gt;alert(&#39;event&#39;)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(&#39;name&#39;)&gt;.pbn" in page
    # the only script is the page's own file
    assert page.count("<script") == 1 and '<script src="/static/report.js" defer>' in page
    # and the finding that put the board on the page is there
    assert "contract-mismatch" in page
    _still_serving(client)


def test_hostile_text_in_the_api_is_json_escaped(client: TestClient) -> None:
    r = client.post("/api/validate", files={"file": ("x.pbn", HOSTILE_PBN.encode("latin-1"))})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.json()["summary"]["boards"] == 1


def test_too_large_is_413_with_a_clear_message(client: TestClient) -> None:
    big = b'[Board "1"]\n' + b"{" + b"x" * (300 * 1024) + b"}\n"
    for url in ("/api/validate", "/api/convert?to=lin", "/api/score"):
        r = client.post(url, files={"file": ("big.pbn", big)})
        assert r.status_code == 413
        assert "larger than this service accepts (0.25 MB)" in r.json()["error"]
    page = client.post("/report", files={"file": ("big.pbn", big)})
    assert page.status_code == 413 and "File too large" in page.text
    assert "Traceback" not in page.text
    _still_serving(client)


def test_a_declared_length_over_the_limit_is_refused_before_reading(client: TestClient) -> None:
    r = client.post("/api/validate", content=b"x" * 10,
                    headers={"content-type": "multipart/form-data; boundary=b",
                             "content-length": str(10 << 20)})
    assert r.status_code == 413


@pytest.mark.parametrize("data", [
    bytes(range(256)) * 64,
    b"\x89PNG\r\n\x1a\n" + b"\x00" * 4000,
    b"PK\x03\x04" + os.urandom(2000),
], ids=["all-bytes", "png", "zip"])
def test_binary_uploads_get_a_clear_4xx(client: TestClient, data: bytes) -> None:
    for url in ("/api/validate", "/api/convert?to=pbn", "/api/score"):
        r = client.post(url, files={"file": ("upload.bin", data)})
        assert 400 <= r.status_code < 500, (url, r.status_code, r.text)
        assert r.json()["error"]
    page = client.post("/report", files={"file": ("photo.png", data)})
    assert 400 <= page.status_code < 500 and "This file cannot be checked" in page.text
    _still_serving(client)


def test_empty_and_missing_files(client: TestClient) -> None:
    r = client.post("/api/validate", files={"file": ("empty.pbn", b"")})
    assert r.status_code == 400 and "empty.pbn is empty" in r.json()["error"]
    r = client.post("/api/validate", data={"other": "x"}, files={"nofile": ("a.pbn", b"x")})
    assert r.status_code == 400 and "field named 'file'" in r.json()["error"]
    r = client.post("/api/validate", content=b"[Board \"1\"]\n",
                    headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "multipart/form-data" in r.json()["error"]
    r = client.post("/api/validate", content=b"--b\r\nbroken",
                    headers={"content-type": "multipart/form-data; boundary=b"})
    assert 400 <= r.status_code < 500
    page = client.post("/report", files={"file": ("empty.lin", b"")})
    assert page.status_code == 400 and "is empty" in page.text
    _still_serving(client)


def test_errors_are_pages_or_json_never_tracebacks(client: TestClient) -> None:
    assert client.get("/nope").status_code == 404
    assert "Not found" in client.get("/nope").text
    r = client.get("/api/nope")
    assert r.status_code == 404 and r.json() == {"error": "Not Found", "status": 404}
    r = client.get("/api/validate")
    assert r.status_code == 405 and "error" in r.json()
    r = client.get("/download/not-a-token/pbn")
    assert r.status_code == 404 and "expired" in r.text
    with open(SAMPLE, "rb") as f:
        r = client.post("/report", files={"file": ("a.pbn", f)}, data={"method": "nonsense"})
    assert r.status_code == 422 and "unknown scoring method" in r.text


def test_our_own_failure_is_a_500_page_or_json_without_a_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bridgefiles.web import pages, pool

    def broken(*_: object) -> str:
        raise RuntimeError("a bug of ours, with secrets in its traceback")

    monkeypatch.setattr(pages, "form_page", broken)
    page = client.get("/")
    assert page.status_code == 500 and "Something went wrong" in page.text
    assert "Traceback" not in page.text and "secrets" not in page.text

    async def broken_run(*_: object) -> object:
        raise RuntimeError("a bug of ours, with secrets in its traceback")

    monkeypatch.setattr(pool.Workers, "run", broken_run)
    with open(SAMPLE, "rb") as f:
        r = client.post("/api/validate", files={"file": ("a.pbn", f)})
    assert r.status_code == 500
    assert r.json()["error"].startswith("internal error") and "secrets" not in r.text


def test_a_full_queue_is_a_503_before_the_body_is_read(client: TestClient) -> None:
    workers = client.app.state.workers  # type: ignore[attr-defined]
    workers.limit, limit = 0, workers.limit
    try:
        with open(SAMPLE, "rb") as f:
            r = client.post("/api/validate", files={"file": ("a.pbn", f)})
        assert r.status_code == 503 and r.headers["retry-after"] == "5"
        assert "busy" in r.json()["error"]
    finally:
        workers.limit = limit
    _still_serving(client)
