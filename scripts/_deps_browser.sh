# Sourced by scripts/test: Debian's chromium and chromium-driver for the browser test of the
# upload service (tests/web/test_web_browser.py), installed when missing. Never a browser download.
# Runs as root (CI, developer machines); elsewhere it says what to install and goes on.
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "installing Debian's chromium and chromium-driver (browser test)..." >&2
        _apt_log="$(mktemp)"
        if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
                && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                    chromium chromium-driver; } >"$_apt_log" 2>&1; then
            tail -n 20 "$_apt_log" >&2
            echo "could not install chromium; the browser test will say why it skips" >&2
        fi
        rm -f "$_apt_log"
    else
        echo "chromium/chromium-driver missing: apt-get install chromium chromium-driver" >&2
    fi
fi
