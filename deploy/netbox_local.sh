#!/usr/bin/env bash
# A local NetBox without Docker, for testing `planner netbox push` against a real server.
#
#   eval "$(bash deploy/netbox_local.sh start)"   # prints the two PLANNER_TEST_NETBOX_* exports
#   .venv/bin/pytest -q tests/test_netbox_push.py  # now also runs the real-NetBox test
#   bash deploy/netbox_local.sh wipe               # delete every DCIM object the planner pushes
#   bash deploy/netbox_local.sh stop               # stop NetBox, its Redis and its PostgreSQL
#   bash deploy/netbox_local.sh status
#
# Run as root on a Debian machine (apt-get installs redis-server and postgresql-15 when missing).
# Never run by CI or by the test suite: the first start downloads NetBox's Python requirements
# (about 60 packages) and runs its ~400 migrations (several minutes on 2 cores).
#
# What it sets up, all outside the repository (override with the environment variables):
#   NETBOX_SRC   /opt/netbox-src     NetBox source at tag NETBOX_TAG (cloned from NETBOX_GIT if absent)
#   NETBOX_VENV  /opt/netbox-venv    its virtualenv (NETBOX_PYTHON, default python3.11)
#   NETBOX_HOME  /opt/netbox-state   PostgreSQL cluster, Redis dir, logs, pid files, the token
#   ports        NETBOX_PG_PORT 5499, NETBOX_REDIS_PORT 6399, NETBOX_PORT 8001 (all on 127.0.0.1)
#
# NETBOX_TAG defaults to v4.4.10, the newest release whose requirements install on Python 3.11
# (NetBox 4.5 and later require Python 3.12: NETBOX_TAG=v4.6.8 NETBOX_PYTHON=python3.12 and other
# NETBOX_SRC/VENV/HOME and ports run one beside the first). NetBox runs with `manage.py runserver --insecure`
# (static files served by Django, DEBUG off): fine for an API test, not a deployment.
# The admin user is `admin` / `admin`; the API token is a fixed v1 token (NETBOX_TOKEN) so that
# reruns print the same exports. Stdout carries only the export lines; progress goes to stderr.
set -euo pipefail

NETBOX_TAG="${NETBOX_TAG:-v4.4.10}"
NETBOX_GIT="${NETBOX_GIT:-https://github.com/netbox-community/netbox.git}"
NETBOX_SRC="${NETBOX_SRC:-/opt/netbox-src}"
NETBOX_VENV="${NETBOX_VENV:-/opt/netbox-venv}"
NETBOX_HOME="${NETBOX_HOME:-/opt/netbox-state}"
NETBOX_PYTHON="${NETBOX_PYTHON:-python3.11}"
NETBOX_PG_PORT="${NETBOX_PG_PORT:-5499}"
NETBOX_REDIS_PORT="${NETBOX_REDIS_PORT:-6399}"
NETBOX_PORT="${NETBOX_PORT:-8001}"
NETBOX_TOKEN="${NETBOX_TOKEN:-0123456789abcdef0123456789abcdef01234567}"

PG_BIN=/usr/lib/postgresql/15/bin
PG_DATA="${NETBOX_HOME}/pg"
URL="http://127.0.0.1:${NETBOX_PORT}"
MANAGE=("${NETBOX_VENV}/bin/python" "${NETBOX_SRC}/netbox/manage.py")

log() { echo "netbox_local: $*" >&2; }
as_postgres() { runuser -u postgres -- "$@"; }
answers() { curl -fsS -o /dev/null -H "Authorization: Token ${NETBOX_TOKEN}" "${URL}/api/status/" 2>/dev/null; }

stop_all() {
    if [ -f "${NETBOX_HOME}/runserver.pid" ]; then
        # runserver's autoreloader is off (--noreload), so the pid is the server itself
        kill "$(cat "${NETBOX_HOME}/runserver.pid")" 2>/dev/null || true
        rm -f "${NETBOX_HOME}/runserver.pid"
        log "NetBox stopped"
    fi
    if [ -f "${NETBOX_HOME}/redis.pid" ]; then
        kill "$(cat "${NETBOX_HOME}/redis.pid")" 2>/dev/null || true
        log "Redis stopped"
    fi
    if [ -f "${PG_DATA}/postmaster.pid" ]; then
        as_postgres "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -m fast -w -t 60 stop >&2 || true
    fi
}

install_packages() {
    local missing=()
    command -v redis-server >/dev/null || missing+=(redis-server)
    [ -x "${PG_BIN}/pg_ctl" ] || missing+=(postgresql-15)
    command -v curl >/dev/null || missing+=(curl)
    if [ "${#missing[@]}" -gt 0 ]; then
        log "apt-get install ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >&2
        apt-get install -y -qq "${missing[@]}" >&2
    fi
}

install_netbox() {
    if [ ! -f "${NETBOX_SRC}/netbox/manage.py" ]; then
        log "cloning NetBox ${NETBOX_TAG} into ${NETBOX_SRC}"
        git clone -q --depth 1 --branch "${NETBOX_TAG}" "${NETBOX_GIT}" "${NETBOX_SRC}" >&2
    fi
    # A snapshot that leaves out NetBox's largest files lacks this data table; it only feeds the
    # optional UN/LOCODE choice set of custom fields, so an empty one lets NetBox start.
    local locode="${NETBOX_SRC}/netbox/extras/data/un_locode.py"
    if [ ! -f "${locode}" ]; then
        log "stand-in for the missing ${locode}"
        printf '# stand-in written by netbox_local.sh: the source snapshot lacked this table\nUN_LOCODE = ()\n' >"${locode}"
    fi
    if [ ! -x "${NETBOX_VENV}/bin/python" ]; then
        log "virtualenv ${NETBOX_VENV} (${NETBOX_PYTHON}) and NetBox's requirements"
        "${NETBOX_PYTHON}" -m venv "${NETBOX_VENV}"
        mkdir -p "${NETBOX_HOME}"
        "${NETBOX_VENV}/bin/pip" install -q -r "${NETBOX_SRC}/requirements.txt" >"${NETBOX_HOME}/pip.log" 2>&1 \
            || { grep -v '^WARNING' "${NETBOX_HOME}/pip.log" | tail -20 >&2; exit 1; }
    fi
    local config="${NETBOX_SRC}/netbox/netbox/configuration.py"
    if [ ! -f "${config}" ]; then
        log "writing ${config}"
        cat >"${config}" <<EOF
# Written by the planner's deploy/netbox_local.sh: a local test NetBox, not a deployment.
ALLOWED_HOSTS = ['127.0.0.1', 'localhost']
DATABASES = {
    'default': {
        'ENGINE': 'django.db.backends.postgresql',
        'NAME': 'netbox',
        'USER': 'netbox',
        'PASSWORD': 'netbox',
        'HOST': '127.0.0.1',
        'PORT': '${NETBOX_PG_PORT}',
        'CONN_MAX_AGE': 300,
    }
}
REDIS = {
    'tasks': {'HOST': '127.0.0.1', 'PORT': ${NETBOX_REDIS_PORT}, 'DATABASE': 0, 'SSL': False},
    'caching': {'HOST': '127.0.0.1', 'PORT': ${NETBOX_REDIS_PORT}, 'DATABASE': 1, 'SSL': False},
}
SECRET_KEY = '$(head -c 48 /dev/urandom | base64 | tr -d '\n/+=')'
RELEASE_CHECK_URL = None
EOF
    fi
}

start_postgres() {
    mkdir -p "${NETBOX_HOME}"
    if [ ! -f "${PG_DATA}/PG_VERSION" ]; then
        install -d -o postgres -g postgres -m 700 "${PG_DATA}"
        as_postgres "${PG_BIN}/initdb" -D "${PG_DATA}" -U postgres --auth-local=trust \
            --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 >/dev/null
    fi
    if ! "${PG_BIN}/pg_isready" -q -h 127.0.0.1 -p "${NETBOX_PG_PORT}"; then
        log "PostgreSQL on 127.0.0.1:${NETBOX_PG_PORT} (data ${PG_DATA})"
        as_postgres "${PG_BIN}/pg_ctl" -D "${PG_DATA}" -l "${PG_DATA}/postgres.log" -w -t 60 \
            -o "-c listen_addresses=127.0.0.1 -p ${NETBOX_PG_PORT} -c unix_socket_directories=${PG_DATA} -c fsync=off" \
            start >&2
    fi
    local psql=("${PG_BIN}/psql" -h "${PG_DATA}" -p "${NETBOX_PG_PORT}" -U postgres -qtA -v ON_ERROR_STOP=1)
    if [ "$(as_postgres "${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = 'netbox'")" != "1" ]; then
        as_postgres "${psql[@]}" -c "CREATE ROLE netbox LOGIN PASSWORD 'netbox'"
        as_postgres "${psql[@]}" -c "CREATE DATABASE netbox OWNER netbox"
    fi
}

start_redis() {
    if ! redis-cli -p "${NETBOX_REDIS_PORT}" ping >/dev/null 2>&1; then
        log "Redis on 127.0.0.1:${NETBOX_REDIS_PORT}"
        redis-server --bind 127.0.0.1 --port "${NETBOX_REDIS_PORT}" --daemonize yes --save '' \
            --appendonly no --dir "${NETBOX_HOME}" --pidfile "${NETBOX_HOME}/redis.pid" \
            --logfile "${NETBOX_HOME}/redis.log"
    fi
}

prepare_netbox() {
    log "migrate (the first run takes minutes)"
    "${MANAGE[@]}" migrate --no-input >"${NETBOX_HOME}/migrate.log" 2>&1 \
        || { tail -20 "${NETBOX_HOME}/migrate.log" >&2; exit 1; }
    "${MANAGE[@]}" shell --no-imports -c "
from users.models import Token, User
user = User.objects.filter(username='admin').first()
if user is None:
    user = User.objects.create_superuser('admin', 'admin@localhost', 'admin')
if hasattr(Token, 'plaintext'):  # NetBox 4.5+: a v1 token keeps its value in 'plaintext'
    if not Token.objects.filter(plaintext='${NETBOX_TOKEN}').exists():
        Token(user=user, version=1, token='${NETBOX_TOKEN}', write_enabled=True).save()
else:  # NetBox 4.4 and older
    Token.objects.get_or_create(user=user, key='${NETBOX_TOKEN}', defaults={'write_enabled': True})
" >&2
}

start_netbox() {
    if answers; then
        log "NetBox already answers at ${URL}"
        return
    fi
    log "runserver on ${URL} (log ${NETBOX_HOME}/runserver.log)"
    nohup "${MANAGE[@]}" runserver "127.0.0.1:${NETBOX_PORT}" --insecure --noreload \
        >"${NETBOX_HOME}/runserver.log" 2>&1 &
    echo $! >"${NETBOX_HOME}/runserver.pid"
    for _ in $(seq 120); do
        answers && return
        sleep 1
    done
    log "NetBox did not answer at ${URL} within 120 s:"
    tail -20 "${NETBOX_HOME}/runserver.log" >&2
    exit 1
}

wipe() {
    # Children before parents: cables, devices (their interfaces go with them), types, places.
    "${MANAGE[@]}" shell --no-imports -c "
from dcim.models import (Cable, Device, DeviceRole, DeviceType, Location, Manufacturer, Rack, Site)
for model in (Cable, Device, DeviceType, DeviceRole, Manufacturer, Rack, Location, Site):
    print(model.__name__, model.objects.all().delete()[0])
" >&2
}

case "${1:-start}" in
start)
    install_packages
    install_netbox
    start_postgres
    start_redis
    prepare_netbox
    start_netbox
    echo "export PLANNER_TEST_NETBOX_URL=${URL}"
    echo "export PLANNER_TEST_NETBOX_TOKEN=${NETBOX_TOKEN}"
    ;;
stop) stop_all ;;
wipe) wipe ;;
status)
    if answers; then
        curl -fsS -H "Authorization: Token ${NETBOX_TOKEN}" "${URL}/api/status/"
        echo
    else
        echo "NetBox does not answer at ${URL}"
        exit 1
    fi
    ;;
*)
    echo "usage: $0 [start|stop|wipe|status]" >&2
    exit 2
    ;;
esac
