"""The upload service's API as other programs use it: every real file posted over HTTP (an
ASGI test client) gives what the command line gives, byte for byte.

The command line runs in-process (click's runner) from the file's folder, so the report's
``path`` is the bare file name, which is also the name the upload carries.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the upload service needs the 'web' extra")

from click.testing import CliRunner

with warnings.catch_warnings():  # starlette's note about httpx's successor, at import
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from shared import FIXTURES, REAL, files, needs_corpus

from bridgefiles.cli import main
from bridgefiles.web.app import Settings, create_app
from bridgefiles.web.downloads import DOWNLOADS

SAMPLE = FIXTURES / "sample-event.pbn"
REAL_FILES = files(REAL, ".pbn", ".lin", ".txt")

# Converting and scoring the files above 1 MB takes minutes on a 2-core machine (the library's
# time, on both sides); they are compared through /api/validate above, and here when
# BRIDGEFILES_WEB_FULL=1 is set.
SMALL_FILES = [p for p in REAL_FILES if p.stat().st_size <= 1 << 20 or os.environ.get(
    "BRIDGEFILES_WEB_FULL") == "1"]



@pytest.fixture(scope="module")
def uploads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("uploads")


@pytest.fixture(scope="module")
def client(uploads: Path) -> Iterator[TestClient]:
    app = create_app(Settings(workers=2, temp_dir=str(uploads)))
    with TestClient(app) as c:
        yield c


@pytest.fixture(autouse=True)
def nothing_left_behind(uploads: Path) -> Iterator[None]:
    """Every request's temporary folder is gone once it has been answered."""
    yield
    assert os.listdir(uploads) == []


def _cli(path: Path, *args: str) -> tuple[int, bytes]:
    """``bridgefiles ARGS... NAME`` run from the file's folder, in this process."""
    old = os.getcwd()
    os.chdir(path.parent)
    try:
        result = CliRunner().invoke(main, [*args[:1], path.name, *args[1:]])
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout_bytes


def _cli_output(path: Path, out: Path, *args: str) -> tuple[int, bytes | None]:
    code, _ = _cli(path, *args, "-o", str(out), "-j", "1", "-q")
    return code, out.read_bytes() if out.exists() else None


def _post(client: TestClient, url: str, path: Path) -> tuple[int, bytes, dict[str, str]]:
    with open(path, "rb") as f:
        r = client.post(url, files={"file": (path.name, f)})
    return r.status_code, r.content, dict(r.headers)


@needs_corpus
@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
def test_every_real_file_validates_as_the_cli_says(client: TestClient, path: Path) -> None:
    code, cli_json = _cli(path, "validate", "--format", "json", "-j", "1", "-q")
    status, body, headers = _post(client, "/api/validate", path)
    if code == 2:  # unreadable for the command line: a clear 4xx for the service
        assert 400 <= status < 500, body
        assert b"error" in body
        return
    assert status == 200, body
    assert headers["content-type"] == "application/json"
    assert body == cli_json


@needs_corpus
@pytest.mark.parametrize("path", SMALL_FILES, ids=lambda p: p.name)
def test_every_real_file_converts_and_scores_as_the_cli_writes(
    client: TestClient, path: Path, tmp_path: Path
) -> None:
    for to in ("pbn", "lin", "json", "csv"):
        code, cli_bytes = _cli_output(path, tmp_path / f"out.{to}", "convert", "--to", to)
        status, body, headers = _post(client, f"/api/convert?to={to}", path)
        if code != 0 or cli_bytes is None:
            assert 400 <= status < 500, (to, body)
            continue
        assert status == 200, (to, body)
        assert body == cli_bytes, to
        assert headers["content-disposition"] == (
            f'attachment; filename="{_safe_stem(path)}.{to}"'
        )
    ext = path.suffix.lower() if path.suffix.lower() in (".pbn", ".lin") else ".pbn"
    code, cli_bytes = _cli_output(path, tmp_path / f"scored{ext}", "score")
    status, body, headers = _post(client, "/api/score", path)
    if code != 0 or cli_bytes is None:
        assert 400 <= status < 500, body
        return
    assert status == 200, body
    assert body == cli_bytes
    assert headers["content-disposition"].endswith(f'-scored{ext}"')


def _safe_stem(path: Path) -> str:
    return "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in path.stem)


def test_media_types_and_a_safe_download_name(client: TestClient) -> None:
    hostile = '../../etc/pass"wd\r\nX-Evil: 1;.pbn'
    with open(SAMPLE, "rb") as f:
        data = f.read()
    for to, media in (("pbn", "application/x-bridge-pbn"), ("lin", "application/x-bridge-lin"),
                      ("json", "application/json"), ("csv", "text/csv")):
        r = client.post(f"/api/convert?to={to}", files={"file": (hostile, data)})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].startswith(media)
        disposition = r.headers["content-disposition"]
        # the client's name, less its folders, in letters, digits and ._- only
        safe = rf'attachment; filename="pass[\w-]*wd[\w-]*X-Evil_1\.{to}"'
        assert re.fullmatch(safe, disposition, re.ASCII), disposition
        assert "x-evil" not in {k.lower() for k in r.headers}
    r = client.post("/api/score", files={"file": ("club night.pbn", data)})
    assert r.headers["content-disposition"] == 'attachment; filename="club_night-scored.pbn"'


def test_an_unknown_target_is_a_clear_422_in_json(client: TestClient) -> None:
    with open(SAMPLE, "rb") as f:
        r = client.post("/api/convert?to=xml", files={"file": ("a.pbn", f)})
    assert r.status_code == 422
    assert r.json()["error"].startswith("bad request: query.to")


def test_schema_health_and_docs(client: TestClient) -> None:
    schema = client.get("/api/schema").json()
    assert schema["title"] and "files" in schema["properties"]
    assert client.get("/healthz").json()["status"] == "ok"
    openapi = client.get("/openapi.json").json()
    for route in ("/api/validate", "/api/convert", "/api/score", "/api/schema", "/healthz"):
        assert route in openapi["paths"]
    assert "multipart/form-data" in openapi["paths"]["/api/validate"]["post"]["requestBody"][
        "content"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "/api/convert" in docs.text and "<script" not in docs.text


def test_security_headers_on_every_answer(client: TestClient) -> None:
    for r in (client.get("/"), client.get("/healthz"), client.get("/no/such/page"),
              client.get("/static/style.css")):
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert r.headers["x-content-type-options"] == "nosniff"


def test_the_form_and_a_report_page_with_its_downloads(client: TestClient) -> None:
    form = client.get("/")
    assert form.status_code == 200
    assert 'enctype="multipart/form-data"' in form.text and 'name="file"' in form.text
    path = FIXTURES / "laws-revokes.pbn"
    with open(path, "rb") as f:
        r = client.post("/report", files={"file": (path.name, f)},
                        data={"laws": "2017", "method": "IMP"})
    assert r.status_code == 200, r.text
    page = r.text
    assert 'class="diagram"' in page and 'class="finding sev-' in page
    assert "td class=\"marked" in page  # the offending card is marked
    assert "Law 64" in page
    links = sorted(set(_links(page, "/download/")))
    assert len(links) == len(DOWNLOADS)
    for link in links:
        d = client.get(link)
        if link.endswith("/usebio"):  # refused as convert --score --to usebio refuses it
            assert d.status_code == 422, (link, d.text)
            assert "dealt twice with different hands" in d.text
            assert "USEBIO holds one deal a board number: nothing written" in d.text
            continue
        assert d.status_code == 200, (link, d.text)
        assert d.headers["content-disposition"].startswith("attachment; filename=")
    report = client.get(next(link for link in links if link.endswith("/report")))
    _, cli_json = _cli(path, "validate", "--format", "json", "-j", "1", "-q")
    assert report.content == cli_json
    assert client.get(links[0].rsplit("/", 2)[0] + "/nope/pbn").status_code == 404


def _links(page: str, prefix: str) -> Iterator[str]:
    start = 0
    while (i := page.find(f'href="{prefix}', start)) >= 0:
        j = page.index('"', i + 6)
        yield page[i + 6 : j]
        start = j


def test_links_follow_the_prefix_a_proxy_serves_under(uploads: Path) -> None:
    app = create_app(Settings(workers=1, temp_dir=str(uploads)))
    with TestClient(app, root_path="/bridgefiles") as c:
        page = c.get("/").text
        assert 'href="/bridgefiles/static/style.css"' in page
        assert 'action="/bridgefiles/report"' in page
        with open(SAMPLE, "rb") as f:
            report = c.post("/report", files={"file": ("a.pbn", f)}).text
        assert 'src="/bridgefiles/static/report.js"' in report
        assert 'href="/bridgefiles/download/' in report


def test_the_librarys_limits_apply_to_uploads(client: TestClient) -> None:
    # a line past Limits.max_line_length (256 KiB): a limit finding, and the rest is read
    line = b'[Event "' + b"x" * (300 * 1024) + b'"]\n'
    data = line + SAMPLE.read_bytes()
    r = client.post("/api/validate", files={"file": ("long-line.pbn", data)})
    assert r.status_code == 200, r.text
    report = r.json()
    codes = [d["code"] for f in report["files"] for d in f["diagnostics"]]
    codes += [d["code"] for f in report["files"] for b in f["boards"] for d in b["diagnostics"]]
    assert "limit" in codes
    assert report["summary"]["boards"] >= 12
