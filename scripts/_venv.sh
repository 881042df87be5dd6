# Sourced by scripts/run, scripts/test and scripts/bench: make .venv from pyproject.toml
# on first use, and again whenever pyproject.toml changes. pip's output goes to a log
# (.venv-setup.log), shown only when the set-up fails.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
stamp="$VENV/.bridgefiles-installed"
want="$(cat "$ROOT/pyproject.toml" "$ROOT/setup.py" | sha256sum | cut -d' ' -f1)"
if [ ! -x "$VENV/bin/python" ] || [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "setting up $VENV (first use or pyproject.toml changed)..." >&2
    log="$ROOT/.venv-setup.log"
    if ! { "$PY" -m venv "$VENV" \
           && "$VENV/bin/python" -m pip install --quiet --upgrade pip \
           && "$VENV/bin/python" -m pip install --quiet -e "$ROOT[dev]"; } >"$log" 2>&1; then
        cat "$log" >&2
        echo "setting up $VENV failed (the log above is in $log)" >&2
        exit 1
    fi
    echo "$want" > "$stamp"
fi
