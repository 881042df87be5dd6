"""The upload service: FastAPI routes over the library, CPU work in a process pool.

Pages (``GET /``, ``POST /report``, downloads) are rendered on the server with autoescaping
and work without JavaScript; the API (``/api/...``) answers JSON or files. Every upload
streams into a temporary folder of its own (see :mod:`bridgefiles.web.upload`) that is
removed when the request ends; the work runs in worker processes, so a large file never
holds up the event loop or the other requests.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from bridgefiles import __version__
from bridgefiles.formats import registry
from bridgefiles.web import pages, pool, work
from bridgefiles.web.downloads import DOWNLOAD_SUFFIXES, DOWNLOADS, Store
from bridgefiles.web.guard import Guard, Pace
from bridgefiles.web.upload import (
    MULTIPART_SLACK,
    Upload,
    UploadError,
    download_name,
    receive,
    temporary_folder,
)

log = logging.getLogger("bridgefiles.web")
T = TypeVar("T")

_UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["file"],
                    "properties": {"file": {"type": "string", "format": "binary"}},
                }
            }
        },
    }
}


@dataclass(frozen=True)
class Settings:
    """How the service runs: upload limit, worker processes, where temporary folders go."""

    max_upload_mb: float = 32
    workers: int = 2
    temp_dir: str | None = None  # parent of the per-request folders (default: the system's)
    worker_memory_mb: int | None = 2048  # address-space cap of each worker process
    upload_idle_s: float = 30.0  # an upload that sends nothing this long is cut off (408)
    upload_total_s: float = 300.0  # and one that takes longer than this in all
    upload_min_kb_s: float = 8.0  # or comes slower on average than this, after
    upload_grace_s: float = 10.0  # this many seconds
    drain_factor: float = 4.0  # a refused body is read to its end up to this x max_upload

    @property
    def max_upload(self) -> int:
        return int(self.max_upload_mb * (1 << 20))

    @property
    def pace(self) -> Pace:
        return Pace(idle=self.upload_idle_s, min_rate=self.upload_min_kb_s * 1024,
                    grace=self.upload_grace_s, total=self.upload_total_s)

    @property
    def drain_limit(self) -> int:
        return int(self.max_upload * self.drain_factor) + MULTIPART_SLACK


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or request.url.path == "/healthz"


def _problem(request: Request, status: int, message: str) -> Response:
    """An error as JSON (API) or as a page (browser), never a traceback."""
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return HTMLResponse(pages.error_page(status, message, _root(request)), status_code=status)


def _root(request: Request) -> str:
    """The prefix a reverse proxy serves us under (``--root-path``), for the pages' links."""
    return str(request.scope.get("root_path", "")).rstrip("/")


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI application (``uvicorn.run(create_app())``, or ``bridgefiles serve``)."""
    settings = settings or Settings()
    store = Store()
    workers = pool.Workers(settings.workers, settings.worker_memory_mb, work.warm)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        workers.start()
        try:
            yield
        finally:
            workers.stop()

    app = FastAPI(
        title="bridgefiles upload service",
        version=__version__,
        description="Validate, convert and score contract-bridge deal files (PBN, LIN).",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.workers = workers
    app.mount("/static", StaticFiles(directory=pages.STATIC), name="static")
    app.add_middleware(Guard, pace=settings.pace, drain_limit=settings.drain_limit)

    @app.exception_handler(UploadError)
    async def upload_error(request: Request, exc: UploadError) -> Response:
        return _problem(request, exc.status, exc.message)

    @app.exception_handler(work.InputProblem)
    async def input_problem(request: Request, exc: work.InputProblem) -> Response:
        return _problem(request, exc.status, exc.message)

    @app.exception_handler(pool.Busy)
    async def busy(request: Request, exc: pool.Busy) -> Response:
        response = _problem(request, 503, str(exc))
        response.headers["Retry-After"] = str(pool.RETRY_AFTER)
        return response

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        details = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in exc.errors()
        )
        return _problem(request, 422, f"bad request: {details}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return _problem(request, exc.status_code, str(exc.detail))

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        return _problem(request, 500, "internal error: the service failed on this request; "
                                      "it has been logged")

    async def run(func: Callable[..., T], *args: Any) -> T:
        return await workers.run(func, *args)

    @asynccontextmanager
    async def uploaded(request: Request) -> AsyncIterator[Upload]:
        """The request's file in a temporary folder of its own, gone when the block ends."""
        if workers.full:  # refuse before reading a byte of the body
            raise pool.Busy(f"the service is busy ({workers.active} files waiting); "
                            "try again shortly")
        async with temporary_folder(settings.temp_dir) as folder:
            upload = await receive(request, folder, settings.max_upload, pace=settings.pace)
            assert upload.path is not None
            yield upload

    # -- pages ---------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def form(request: Request) -> HTMLResponse:
        return HTMLResponse(pages.form_page(settings.max_upload_mb, _root(request)))

    @app.post("/report", response_class=HTMLResponse, include_in_schema=False)
    async def report(request: Request) -> HTMLResponse:
        async with uploaded(request) as upload:
            assert upload.path is not None
            options = work.Options.from_form(upload.fields)
            with open(upload.path, "rb") as f:
                data = f.read()
            token = store.put(data, upload.name, os.path.basename(upload.path), options)
            html = await run(work.report_page, upload.path, upload.name, options, token,
                             _root(request))
        return HTMLResponse(html)

    @app.get("/download/{token}/{kind}", include_in_schema=False)
    async def download(token: str, kind: str) -> Response:
        kept = store.get(token)
        if kept is None or kind not in DOWNLOADS:
            raise StarletteHTTPException(
                404, "this download has expired (reports are kept 15 minutes): upload the "
                     "file again")
        async with temporary_folder(settings.temp_dir) as folder:
            path = os.path.join(folder, kept.stored_name)
            with open(path, "xb") as f:
                f.write(kept.data)
            output = await run(work.download, path, kept.name, kind, kept.options)
        return _file(output, kept.name, suffix=DOWNLOAD_SUFFIXES.get(kind, ""))

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    async def docs(request: Request) -> HTMLResponse:
        return HTMLResponse(pages.docs_page(app.openapi(), _root(request)))

    # -- API -----------------------------------------------------------------------------

    @app.post("/api/validate", openapi_extra=_UPLOAD_BODY, tags=["api"], summary="Validate a file",
              responses={200: {"content": {"application/json": {}}}})
    async def api_validate(request: Request, strict: bool = False,
                           laws: work.Laws = "2017") -> Response:
        """The JSON report of `bridgefiles validate --format json` for the file."""
        async with uploaded(request) as upload:
            assert upload.path is not None
            data = await run(work.validate_json, upload.path, upload.name, strict, laws)
        return Response(data, media_type="application/json")

    @app.post("/api/convert", openapi_extra=_UPLOAD_BODY, tags=["api"], summary="Convert a file")
    async def api_convert(
        request: Request,
        to: work.Target = Query(description="pbn (export format), lin, json, csv, usebio "  # noqa: B008
                                            "(USEBIO 1.2 XML results: with score=true), the "
                                            "dealing machines' bri, dge, dup, dlm, or rbn"),
        strict: bool = False,
        score: bool = Query(False, description="fill in results and scores first "
                                               "(convert --score)"),
        method: str | None = Query(None, description="with score=true: score by this "
                                   "method instead of each board's Scoring tag: "
                                   + ", ".join(work.METHODS)),
        laws: work.Laws = "2017",
    ) -> Response:
        """The file converted, as `bridgefiles convert FILE --to TO` writes it (`score`:
        `--score`, `method`: `--method`, refused without `score` as the command line
        refuses it). What the target cannot carry is counted in the `X-Lost-In-Conversion`
        header and said, as the command line says it, in `X-Lost-In-Conversion-Detail`
        (a JSON list of its first 50 lines)."""
        scoring = work.scoring_value(method)  # refused before the body is read
        if scoring is not None and not score:
            raise work.InputProblem("method says how to score: give it with score=true", 422)
        async with uploaded(request) as upload:
            assert upload.path is not None
            output = await run(work.convert, upload.path, upload.name, to, strict, score,
                               scoring, laws)
        return _file(output, upload.name)

    @app.post("/api/score", openapi_extra=_UPLOAD_BODY, tags=["api"], summary="Score a file")
    async def api_score(
        request: Request,
        method: str | None = Query(
            None, description="score by this method instead of each board's Scoring tag: "
                              + ", ".join(work.METHODS)),
        laws: work.Laws = "2017",
    ) -> Response:
        """The file in its own format with results and scores filled in
        (`bridgefiles score FILE`); `method` overrides the Scoring tags, as
        `bridgefiles score --method` does (an unknown one is refused)."""
        scoring = work.scoring_value(method)  # refused before the body is read
        async with uploaded(request) as upload:
            assert upload.path is not None
            output = await run(work.score, upload.path, upload.name, scoring, laws)
        return _file(output, upload.name, suffix="-scored")

    @app.get("/api/schema", tags=["api"], summary="The report's JSON Schema")
    async def api_schema() -> JSONResponse:
        """The JSON Schema of the validation report."""
        from bridgefiles.checks.schema import report_schema

        return JSONResponse(report_schema())

    @app.get("/healthz", tags=["api"], summary="Health")
    async def healthz() -> JSONResponse:
        """Liveness: the service answers; how many jobs run now."""
        return JSONResponse({"status": "ok", "version": __version__, "jobs": workers.active})

    return app


def _file(output: work.Output, name: str, suffix: str = "") -> Response:
    stem = os.path.splitext(name)[0] + suffix
    filename = download_name(stem, output.extension)
    headers = {"Content-Disposition": f'attachment; filename="{filename}"',
               "X-Lost-In-Conversion": str(output.lost)}
    if output.losses:  # JSON in ASCII: the file's text can never break out of the header
        headers["X-Lost-In-Conversion-Detail"] = json.dumps(list(output.losses))
    return Response(output.data, media_type=_media_type(output.format), headers=headers)


# Text written in one charset whatever the input's: USEBIO's prolog says ISO-8859-1, and a
# DLM file is ASCII. (A PBN file keeps the charset it was read in, so none is claimed.)
_FIXED_CHARSETS = {"usebio": "iso-8859-1", "dlm": "iso-8859-1"}


def _media_type(name: str) -> str:
    """The registry's media type; a charset only where it is fixed."""
    if name == "report":
        return "application/json"
    media = registry.media_type(name) or "application/octet-stream"
    if name in _FIXED_CHARSETS:
        return f"{media}; charset={_FIXED_CHARSETS[name]}"
    fixed = registry.charset(name) == "utf-8" and not media.endswith("json")
    return f"{media}; charset=utf-8" if fixed else media


def main_app() -> FastAPI:
    """For ``uvicorn --factory bridgefiles.web.app:main_app`` (settings from the environment)."""
    return create_app(
        Settings(
            max_upload_mb=float(os.environ.get("BRIDGEFILES_MAX_UPLOAD_MB", "32")),
            workers=int(os.environ.get("BRIDGEFILES_WORKERS", "2")),
        )
    )


__all__ = ["Settings", "create_app", "main_app"]

