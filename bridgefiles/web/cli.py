"""``bridgefiles serve``: the upload service (extra ``web``).

Importable without the extra: FastAPI and uvicorn are imported inside the command, which
says which extra to install when they are missing.
"""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (behind a reverse proxy, keep 127.0.0.1).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on.")
@click.option("--max-upload-mb", default=32.0, show_default=True,
              type=click.FloatRange(min=0, min_open=True),
              help="Largest upload accepted; larger ones get 413 while they stream in.")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(min=1),
              help="Worker processes doing the reading and checking.")
@click.option("--proxy-headers/--no-proxy-headers", default=False, show_default=True,
              help="Trust X-Forwarded-For/-Proto from --forwarded-allow-ips (behind a proxy).")
@click.option("--forwarded-allow-ips", default="127.0.0.1", show_default=True,
              help="Proxies whose forwarded headers are trusted.")
@click.option("--root-path", default="", help="Path prefix when served below one by a proxy.")
@click.option("--header-timeout", default=5.0, show_default=True,
              type=click.FloatRange(min=0, min_open=True),
              help="Seconds a connection has to send a request's headers (then 408, closed).")
@click.option("--max-connections", default=512, show_default=True, type=click.IntRange(min=1),
              help="Connections open at once; past it a new one gets 503 with Retry-After.")
def serve(host: str, port: int, max_upload_mb: float, workers: int, proxy_headers: bool,
          forwarded_allow_ips: str, root_path: str, header_timeout: float,
          max_connections: int) -> None:
    """Run the upload service: a page to check files, and an HTTP API."""
    try:
        import fastapi  # noqa: F401 - the extra itself: its absence is what is caught
        import uvicorn  # noqa: F401

        from bridgefiles.web.app import Settings, create_app
        from bridgefiles.web.server import run
    except ImportError as exc:
        raise click.ClickException(
            f"the upload service needs the 'web' extra ({exc.name} is missing): "
            "pip install 'bridgefiles[web]' (from a clone: pip install '.[web]')"
        ) from exc
    app = create_app(Settings(max_upload_mb=max_upload_mb, workers=workers))
    # Slow clients: headers must arrive within --header-timeout (else 408, closed); a body
    # must keep the pace of Settings.pace (else 408); an idle kept-alive connection closes
    # after 5 s; past --max-connections a new connection gets 503 with Retry-After (a proxy
    # in front should time out slow clients too: README, "Behind a reverse proxy").
    run(app, header_timeout=header_timeout, max_connections=max_connections, host=host,
        port=port, proxy_headers=proxy_headers, forwarded_allow_ips=forwarded_allow_ips,
        root_path=root_path, server_header=False, log_level="info", timeout_keep_alive=5,
        timeout_graceful_shutdown=10)


COMMANDS: tuple[click.Command, ...] = (serve,)
