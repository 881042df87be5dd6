# Sourced by scripts/test: the Debian packages the hand-record PDF path and its tests need
# (weasyprint's pango, a font with the suit symbols, poppler's pdftotext and pdftoppm),
# installed when missing and when we may (root, apt-get present); otherwise the tests that
# need them say why they skip.
_bf_pdf_missing=()
for _bf_pkg in libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core poppler-utils; do
    dpkg-query -W -f='${Status}' "$_bf_pkg" 2>/dev/null | grep -q "install ok installed" \
        || _bf_pdf_missing+=("$_bf_pkg")
done
if [ "${#_bf_pdf_missing[@]}" -gt 0 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${_bf_pdf_missing[*]} (hand records as PDF)..." >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${_bf_pdf_missing[@]}"; } >/dev/null 2>&1 \
        || echo "could not install ${_bf_pdf_missing[*]}: PDF tests will skip" >&2
fi
unset _bf_pdf_missing _bf_pkg
