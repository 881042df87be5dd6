"""The HTML pages, rendered on the server by Jinja2 with autoescaping on for every template.

Whatever comes from an uploaded file (names, notes, commentary, event) reaches the page
only through ``{{ ... }}``, which escapes it; no template marks file text as safe.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from bridgefiles import __version__
from bridgefiles.web.downloads import DOWNLOADS, LOSSES
from bridgefiles.web.view import SEVERITIES, ReportView

HERE = Path(__file__).resolve().parent
STATIC = str(HERE / "static")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SCORING_METHODS = (
    ("", "as the file says (its Scoring tag)"),
    ("MP", "matchpoints"),
    ("IMP", "IMPs"),
    ("IMP;Butler", "Butler (IMPs against a datum)"),
    ("IMP;Cross", "cross-IMPs"),
)
LAWS_EDITIONS = (("2017", "2017 Laws"), ("2007", "2007 Laws"))


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(HERE / "templates")),
        autoescape=True,  # every template, whatever its name
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals.update(
        version=__version__,
        suit_symbols=SUIT_SYMBOLS,
        severities=SEVERITIES,
        downloads=DOWNLOADS,
        losses=LOSSES,
    )
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def form_page(max_upload_mb: float, root: str = "") -> str:
    return render("form.html", max_upload_mb=max_upload_mb, methods=SCORING_METHODS,
                  editions=LAWS_EDITIONS, root=root)


def report_page(view: ReportView, token: str, options: Any, root: str = "") -> str:
    """``root``: the path prefix a reverse proxy serves the service under (links use it)."""
    return render("report.html", report=view, token=token, options=options, root=root)


def error_page(status: int, message: str, root: str = "") -> str:
    return render("error.html", status=status, message=message, root=root)


def docs_page(openapi: dict[str, Any], root: str = "") -> str:
    """The API reference from the OpenAPI document, as a plain page (no script, no CDN)."""
    operations = []
    for path, methods in openapi.get("paths", {}).items():
        for method, op in methods.items():
            params = [
                (p.get("name", ""), p.get("in", ""), p.get("required", False),
                 p.get("description") or _schema_text(p.get("schema", {})))
                for p in op.get("parameters", [])
            ]
            body = op.get("requestBody", {}).get("content", {})
            operations.append({
                "method": method.upper(), "path": path, "summary": op.get("summary", ""),
                "description": inline_markdown(op.get("description", "")),
                "params": [(n, w, r, inline_markdown(t)) for n, w, r, t in params],
                "body": ", ".join(body),
            })
    return render("docs.html", operations=operations, title=openapi.get("info", {}).get("title"),
                  root=root)


_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*([^*]+)\*\*")


def inline_markdown(text: str) -> Markup:
    """The Markdown of an API description (our docstrings: `code`, **strong**, paragraphs)
    as HTML; everything else escaped."""
    html = str(escape(text.strip()))
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", html) if p.strip()]
    return Markup("".join(f"<p>{p}</p>" for p in paragraphs))


def _schema_text(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " or ".join(_schema_text(s) for s in schema["anyOf"])
    return str(schema.get("type", ""))
