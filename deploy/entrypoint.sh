#!/bin/sh
# Start the web app as the container does; run directly too (tests/test_deploy.py does):
#
#   PLANNER_DATABASE_URL=postgresql://... deploy/entrypoint.sh
#
# 1. Sign-in: when PLANNER_OIDC_CLIENT_ID is set and no secrets file is mounted
#    (STREAMLIT_SECRETS_FILES), render Streamlit's [auth] section from the PLANNER_OIDC_* variables
#    into a private file under $HOME (deploy/oidc_secrets.py).
# 2. Preflight (deploy/preflight.py): stop with one line, exit 2, when sign-in is configured but
#    its secrets cannot be read or parsed (fail closed), when the app would listen beyond loopback
#    without sign-in (unless PLANNER_ALLOW_ANONYMOUS=1), or when the database password is a sample.
# 3. Database: when PLANNER_DATABASE_URL is set, bring its schema to the newest revision, retrying
#    while the server starts or another replica migrates (deploy/migrate.py).
# 4. exec Streamlit on $PLANNER_ADDRESS:$PLANNER_PORT; its health endpoint is /_stcore/health.
# Every variable: docs/deploy.md.
set -eu

APP_DIR="${PLANNER_APP_DIR:-$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)}"
PYTHON="${PLANNER_PYTHON:-python}"
PORT="${PLANNER_PORT:-8501}"
ADDRESS="${PLANNER_ADDRESS:-0.0.0.0}"

log() { echo "entrypoint: $*" >&2; }

if [ -n "${PLANNER_OIDC_CLIENT_ID:-}" ] && [ -z "${STREAMLIT_SECRETS_FILES:-}" ]; then
    secrets_dir="${PLANNER_SECRETS_DIR:-${HOME:-/tmp}/.planner}"
    mkdir -p "$secrets_dir"
    chmod 0700 "$secrets_dir"
    secrets="$secrets_dir/secrets.toml"
    if ! (umask 077 && "$PYTHON" "$APP_DIR/deploy/oidc_secrets.py" > "$secrets"); then
        rm -f "$secrets"
        exit 2
    fi
    STREAMLIT_SECRETS_FILES="$secrets"
    export STREAMLIT_SECRETS_FILES
    log "sign-in on: OpenID Connect settings from PLANNER_OIDC_*"
elif [ -n "${STREAMLIT_SECRETS_FILES:-}" ]; then
    log "secrets from $STREAMLIT_SECRETS_FILES"
else
    log "sign-in off: no PLANNER_OIDC_CLIENT_ID and no STREAMLIT_SECRETS_FILES"
fi

PLANNER_ADDRESS="$ADDRESS" "$PYTHON" "$APP_DIR/deploy/preflight.py" || exit 2

if [ -n "${PLANNER_DATABASE_URL:-}" ]; then
    "$PYTHON" "$APP_DIR/deploy/migrate.py"
else
    log "PLANNER_DATABASE_URL is not set: scenarios go to a SQLite file in this container only" \
        "(one replica, lost with the container); set it for a team"
fi

cd "$APP_DIR"
exec "$PYTHON" -m streamlit run "$APP_DIR/app.py" \
    --server.port "$PORT" \
    --server.address "$ADDRESS" \
    --server.headless true \
    --client.showErrorDetails none \
    --browser.gatherUsageStats false
