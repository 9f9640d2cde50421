#!/usr/bin/env bash
# Install what the real-browser tests need: Debian's Chromium (driven by Playwright for Python;
# never `playwright install`, it downloads) and a CJK font so Chinese renders in screenshots.
# Idempotent and quiet: does nothing when both are present.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
if ! fc-list 2>/dev/null | grep -qi 'Noto Sans CJK'; then
    missing+=(fonts-noto-cjk)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup-browser: need root to install ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ -x /usr/bin/chromium ] || { echo "setup-browser: /usr/bin/chromium still missing" >&2; exit 1; }
