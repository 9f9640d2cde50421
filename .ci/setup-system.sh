#!/usr/bin/env bash
# Install what the real-browser tests and the PDF checks need: Debian's Chromium (driven by Playwright for Python;
# never `playwright install`, which downloads its own browser) and a CJK font so Chinese text
# renders in screenshots. Idempotent and quiet: does nothing when both are present.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
if ! fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then
    missing+=(fonts-noto-cjk)
fi
# PDF checks of the proposal export render and read PDFs with poppler
command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup-system: root needed to install ${missing[*]}" >&2; exit 1; }
    SUDO=(sudo)
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! { "${SUDO[@]}" apt-get update -qq && "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    echo "setup-system: installing ${missing[*]} failed:" >&2
    cat "$log" >&2
    exit 1
fi
[ -x /usr/bin/chromium ] || { echo "setup-system: /usr/bin/chromium still missing" >&2; exit 1; }
