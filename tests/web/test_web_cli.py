"""``bridgefiles serve`` as a command: registered, documented, and clear when the extra is
missing (the module imports nothing of the web stack until the command runs)."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from bridgefiles.cli import main


def test_serve_is_a_command_with_its_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--max-upload-mb", "--workers", "--proxy-headers",
                   "--forwarded-allow-ips", "--root-path"):
        assert option in result.output


def test_without_the_web_extra_serve_says_what_to_install() -> None:
    # fastapi and uvicorn made unimportable in a fresh interpreter, as without the extra
    code = (
        "import sys\n"
        "for m in ('fastapi', 'uvicorn', 'starlette', 'jinja2', 'python_multipart'):\n"
        "    sys.modules[m] = None\n"
        "import bridgefiles.web.cli as web_cli\n"
        "assert [c.name for c in web_cli.COMMANDS] == ['serve']\n"
        "from bridgefiles.cli import main\n"
        "main(['serve', '--port', '0'])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "bridgefiles[web]" in proc.stderr and "Traceback" not in proc.stderr
