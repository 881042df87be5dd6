# Sourced by scripts/run, scripts/test and scripts/bench: make .venv from pyproject.toml
# on first use, and again whenever pyproject.toml changes.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
stamp="$VENV/.bridgefiles-installed"
want="$(cat "$ROOT/pyproject.toml" "$ROOT/setup.py" | sha256sum | cut -d' ' -f1)"
if [ ! -x "$VENV/bin/python" ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "setting up $VENV (first use or pyproject.toml changed)..." >&2
    "$PY" -m venv "$VENV"
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
    "$VENV/bin/python" -m pip install --quiet -e "$ROOT[dev]" >&2
    echo "$want" > "$stamp"
fi
