#!/bin/sh
# Docker HEALTHCHECK: healthy when the preflight still passes (sign-in's secrets readable, see
# deploy/preflight.py) and Streamlit answers "ok" on /_stcore/health (exit 0), else exit 1.
set -eu
PYTHON="${PLANNER_PYTHON:-python}"
HERE="$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)"
PLANNER_ADDRESS="${PLANNER_ADDRESS:-0.0.0.0}" "$PYTHON" "$HERE/preflight.py" || exit 1
exec "$PYTHON" - "http://127.0.0.1:${PLANNER_PORT:-8501}/_stcore/health" <<'PY'
import sys
import urllib.request

try:
    with urllib.request.urlopen(sys.argv[1], timeout=4) as response:
        ok = response.status == 200 and response.read().strip() == b"ok"
except OSError:
    ok = False
sys.exit(0 if ok else 1)
PY
