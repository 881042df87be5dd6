"""The service's exchange outputs (issue 27, point 4), against a real ``bridgefiles serve``:
USEBIO results of the scored event and the dealing machines' and RBN's files, from the API
and from the report page's links, each the bytes ``bridgefiles convert`` writes, with its
media type, its download name, and its losses counted and said as the command line says them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the upload service needs the 'web' extra")

from shared import FIXTURES
from web_server import multipart, serve_module

PAIRS = FIXTURES / "scoring-pairs.pbn"
EVENT = FIXTURES / "sample-event.pbn"
# target -> (media type, extension of the download)
EXCHANGE = {
    "usebio": ("application/xml; charset=iso-8859-1", ".xml"),
    "bri": ("application/octet-stream", ".bri"),
    "dge": ("application/octet-stream", ".dge"),
    "dup": ("application/octet-stream", ".dup"),
    "dlm": ("text/plain; charset=iso-8859-1", ".dlm"),
    "rbn": ("text/plain; charset=utf-8", ".rbn"),
}
Answer = tuple[int, bytes, dict[str, str]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    for base, _ in serve_module(tmp_path_factory, "downloads", "--workers", "1"):
        yield base


def _answer(request: urllib.request.Request | str) -> Answer:
    try:
        with urllib.request.urlopen(request, timeout=300) as r:
            return r.status, r.read(), {k.lower(): v for k, v in r.headers.items()}
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), {k.lower(): v for k, v in exc.headers.items()}


def _post(url: str, path: Path, fields: dict[str, str] | None = None) -> Answer:
    body, content_type = multipart(path.name, path.read_bytes())
    if fields:  # the form's options, before the file
        boundary = content_type.split("boundary=")[1]
        head = "".join(f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n'
                       f"{v}\r\n" for k, v in fields.items())
        body = head.encode() + body
    return _answer(urllib.request.Request(url, data=body,
                                          headers={"Content-Type": content_type}))


def _cli(tmp: Path, path: Path, *args: str) -> tuple[bytes, list[str]]:
    """What ``bridgefiles convert NAME ARGS -o out`` writes, and its lost-in-conversion
    lines (run where the file is called by its name, as the service names it)."""
    shutil.copy(path, tmp / path.name)
    done = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "convert", path.name, *args, "-o", "out",
         "-q"], cwd=tmp, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.decode().splitlines() if "[lost-in-conversion]" in line]
    return (tmp / "out").read_bytes(), lines


def _said_as_the_cli_says(headers: dict[str, str], lines: list[str]) -> None:
    assert headers["x-lost-in-conversion"] == str(len(lines))
    detail = json.loads(headers.get("x-lost-in-conversion-detail", "[]"))
    assert detail == lines[:50]


@pytest.mark.parametrize("to", sorted(EXCHANGE))
def test_the_api_converts_to_each_exchange_format_as_the_cli_does(
        server: str, tmp_path: Path, to: str) -> None:
    media, extension = EXCHANGE[to]
    scored = to == "usebio"  # results for the national body: the scored event
    source = PAIRS if scored else EVENT
    url = f"{server}/api/convert?to={to}" + ("&score=true&method=MP" if scored else "")
    status, data, headers = _post(url, source)
    assert status == 200, data
    assert headers["content-type"] == media
    assert headers["content-disposition"] == \
        f'attachment; filename="{source.stem}{extension}"'
    expected, lines = _cli(tmp_path, source, "--to", to,
                           *(("--score", "--method", "MP") if scored else ()))
    assert data == expected
    if to != "rbn":  # RBN carries this event whole; the others lose something of every board
        assert lines
    _said_as_the_cli_says(headers, lines)


def test_a_conversion_that_loses_nothing_says_none(server: str) -> None:
    status, _, headers = _post(f"{server}/api/convert?to=pbn", EVENT)
    assert status == 200
    assert headers["x-lost-in-conversion"] == "0"
    assert "x-lost-in-conversion-detail" not in headers


@pytest.mark.parametrize(("query", "words"), [
    ("to=bri&method=MP", "method says how to score: give it with score=true"),
    ("to=usebio&score=true&method=bogus", "unknown scoring method 'bogus'"),
    ("to=xml", "to:"),
    ("to=usebio&laws=1997", "laws:"),
])
def test_bad_requests_are_refused_as_the_cli_refuses_them(
        server: str, query: str, words: str) -> None:
    status, data, headers = _post(f"{server}/api/convert?{query}", EVENT)
    assert status == 422, data
    assert headers["content-type"].startswith("application/json")
    assert words in json.loads(data)["error"]
    assert "x-lost-in-conversion" not in headers


def test_the_cli_refuses_a_method_without_score_too(tmp_path: Path) -> None:
    shutil.copy(EVENT, tmp_path / EVENT.name)
    done = subprocess.run(
        [sys.executable, "-m", "bridgefiles.cli", "convert", EVENT.name, "--to", "bri",
         "--method", "MP", "-o", "out"], cwd=tmp_path, capture_output=True, check=False)
    assert done.returncode == 2
    assert b"--method says how to score: give it with --score" in done.stderr
    assert not (tmp_path / "out").exists()


def test_the_report_page_offers_each_exchange_download(server: str, tmp_path: Path) -> None:
    status, page, _ = _post(f"{server}/report", PAIRS, {"method": "MP"})
    assert status == 200, page
    text = page.decode()
    links = dict(re.findall(r'href="(/download/[^/"]+/([a-z]+))"', text))
    kinds = {kind: link for link, kind in links.items()}
    assert set(EXCHANGE) <= set(kinds)
    assert "lost-in-conversion" in text and "X-Lost-In-Conversion" in text
    names = set()
    for to, (media, extension) in EXCHANGE.items():
        status, data, headers = _answer(server + kinds[to])
        assert status == 200, (to, data)
        assert headers["content-type"] == media
        assert headers["content-disposition"] == f'attachment; filename="{PAIRS.stem}{extension}"'
        names.add(headers["content-disposition"])
        # the USEBIO download is the event scored as the form asked (MP)
        args = ("--score", "--method", "MP") if to == "usebio" else ()
        (tmp_path / to).mkdir()
        expected, lines = _cli(tmp_path / to, PAIRS, "--to", to, *args)
        assert data == expected
        _said_as_the_cli_says(headers, lines)
    assert len(names) == len(EXCHANGE)  # no two downloads share a name


def _readme_block(words: str) -> list[str]:
    """The commands of the README's sh block (in the service section) holding ``words``."""
    text = (FIXTURES.parent / "README.md").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)```", text[text.index("## The upload service"):], re.S)
    block = next(b for b in blocks if words in b)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_the_readmes_download_block_runs_as_written(server: str, tmp_path: Path) -> None:
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    said = ""
    for command in _readme_block("to=usebio&score=true"):
        done = subprocess.run(["bash", "-c", command.replace("http://127.0.0.1:8000", server)],
                              cwd=tmp_path, capture_output=True, text=True, check=False)
        assert done.returncode == 0, (command, done.stderr)
        said += done.stdout
    expected, _ = _cli(tmp_path / "fixtures", PAIRS, "--to", "usebio", "--score",
                       "--method", "MP")
    assert (tmp_path / "scoring-pairs.xml").read_bytes() == expected
    assert (tmp_path / "sample-event.bri").stat().st_size == 512  # four deals of 128 bytes
    assert (tmp_path / "event.dup").stat().st_size == 624  # and of 156
    assert re.search(r"(?im)^x-lost-in-conversion: 35\r?$", said), said
