#!/usr/bin/env bash
# Start a throwaway PostgreSQL 15 on 127.0.0.1 for the store tests (idempotent).
#
#   eval "$(bash .ci/start-postgres.sh)"     # exports PLANNER_TEST_PG_URL
#   bash .ci/start-postgres.sh stop          # stops it again
#
# Installs PostgreSQL from Debian's packages when its binaries are missing, initialises a cluster
# owned by the `postgres` user under $PLANNER_PG_BASE (default /tmp/planner-pg), starts it on
# $PLANNER_PG_PORT (default 55432, or the next free port), creates the role and database the tests
# use (the role may create roles: the row-level security tests make credentials), and prints one
# line on stdout: `export PLANNER_TEST_PG_URL=...`. Everything else goes to stderr. Run it again
# and it reuses the running server.
set -euo pipefail

PG_VERSION=15
PG_BIN="/usr/lib/postgresql/${PG_VERSION}/bin"
BASE="${PLANNER_PG_BASE:-/tmp/planner-pg}"
DATA="${BASE}/data"
LOG="${BASE}/postgres.log"
PORT_FILE="${BASE}/port"
DB_NAME=planner_test
DB_USER=planner
DB_PASSWORD=planner

log() { echo "start-postgres: $*" >&2; }

# Run a command as the cluster owner: `postgres` when we are root, ourselves otherwise.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Running means answering on the recorded port; a pid file alone may be left by a killed server.
is_running() {
    [ -f "${DATA}/PG_VERSION" ] && [ -f "${PORT_FILE}" ] \
        && "${PG_BIN}/pg_isready" -q -h 127.0.0.1 -p "$(cat "${PORT_FILE}")" -t 5
}

# Stop whatever is left of an earlier server (ignores "not running").
stop_quietly() {
    if [ -f "${DATA}/postmaster.pid" ]; then
        as_owner "${PG_BIN}/pg_ctl" -D "${DATA}" -m "$1" -w -t 30 stop >/dev/null 2>&1 || true
    fi
}

if [ "${1:-}" = "stop" ]; then
    if is_running; then
        as_owner "${PG_BIN}/pg_ctl" -D "${DATA}" -m fast -w -t 30 stop >&2
    else
        stop_quietly immediate
        log "not running"
    fi
    exit 0
fi

if [ ! -x "${PG_BIN}/pg_ctl" ]; then
    log "installing PostgreSQL ${PG_VERSION} from Debian's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq "postgresql-${PG_VERSION}" >&2 || apt-get install -y -qq postgresql >&2
fi
if [ ! -x "${PG_BIN}/pg_ctl" ]; then
    log "no ${PG_BIN}/pg_ctl after installing; cannot start PostgreSQL ${PG_VERSION}"
    exit 1
fi

mkdir -p "${BASE}"
if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "${BASE}"
fi
chmod 700 "${BASE}"

if [ ! -f "${DATA}/PG_VERSION" ]; then
    log "initialising a cluster in ${DATA}"
    # Local (socket) connections are trusted but the socket lives in the 0700 data directory;
    # TCP connections need a password.
    as_owner "${PG_BIN}/initdb" -D "${DATA}" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
        -E UTF8 --locale=C.UTF-8 >/dev/null
fi

if is_running; then
    PORT="$(cat "${PORT_FILE}")"
    log "already running on port ${PORT}"
else
    stop_quietly immediate
    PORT="${PLANNER_PG_PORT:-55432}"
    while port_in_use "${PORT}"; do
        PORT=$((PORT + 1))
    done
    echo "${PORT}" | as_owner tee "${PORT_FILE}" >/dev/null
    log "starting on 127.0.0.1:${PORT} (log: ${LOG})"
    as_owner "${PG_BIN}/pg_ctl" -D "${DATA}" -l "${LOG}" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p ${PORT} -c unix_socket_directories=${DATA} -c unix_socket_permissions=0700 -c fsync=off -c max_connections=200" \
        start >&2
fi

psql_admin() { as_owner "${PG_BIN}/psql" -h "${DATA}" -p "${PORT}" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '${DB_USER}'")" != "1" ]; then
    psql_admin -c "CREATE ROLE ${DB_USER} LOGIN PASSWORD '${DB_PASSWORD}'"
fi
# The store's migration creates the row-level security roles (planner_viewer ... planner_server) and
# the tests create login roles (credentials) in them: the test owner may create roles, as the
# compose deployment's owner (the image's superuser) may. Also for a server started by an older script.
psql_admin -c "ALTER ROLE ${DB_USER} CREATEROLE"
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '${DB_NAME}'")" != "1" ]; then
    psql_admin -c "CREATE DATABASE ${DB_NAME} OWNER ${DB_USER}"
fi

echo "export PLANNER_TEST_PG_URL=postgresql+psycopg://${DB_USER}:${DB_PASSWORD}@127.0.0.1:${PORT}/${DB_NAME}"
