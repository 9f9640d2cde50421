"""Deployment artefacts: the Dockerfile and compose.yaml checked for structure, and the image's
entry point run directly (no Docker here): two app processes against one PostgreSQL answer the
health endpoint that the image's HEALTHCHECK asks."""

from __future__ import annotations

import os
import re
import socket
import stat
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import create_engine, inspect

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
pytest_plugins = ["store_fixtures"]

OIDC = {
    "PLANNER_OIDC_CLIENT_ID": "planner",
    "PLANNER_OIDC_CLIENT_SECRET": 'se"cret\\with quotes',
    "PLANNER_OIDC_SERVER_METADATA_URL": "http://127.0.0.1:9/.well-known/openid-configuration",
    "PLANNER_OIDC_REDIRECT_URI": "http://127.0.0.1:8501/oauth2callback",
    "PLANNER_OIDC_COOKIE_SECRET": "a-long-random-value-shared-by-every-replica",
}


def dockerfile() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "")
        for line in lines
        if line and not line.startswith("#")
    ]


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    return data


def test_dockerfile_is_pinned_non_root_and_healthchecked() -> None:
    steps = dockerfile()
    base = next(args for op, args in steps if op == "FROM")
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", base), base
    users = [args for op, args in steps if op == "USER"]
    assert users, "the image must not run as root"
    assert users[-1] not in {"root", "0"}
    last_user = max(i for i, (op, _) in enumerate(steps) if op == "USER")
    assert all(op != "RUN" for op, _ in steps[last_user:]), "nothing runs as root after USER"
    health = [args for op, args in steps if op == "HEALTHCHECK"]
    assert health and "deploy/healthcheck.sh" in health[0]
    apt = " ".join(args for op, args in steps if op == "RUN" and "apt-get install" in args)
    for package in ("chromium", "fonts-noto-cjk", "poppler-utils"):
        assert re.search(rf"\b{package}\b", apt), package
    pip = " ".join(args for op, args in steps if op == "RUN" and "pip install" in args)
    assert "pyproject.toml" in pip, "Python dependencies come from pyproject.toml's pins"
    entry = next(args for op, args in steps if op == "ENTRYPOINT")
    assert "deploy/entrypoint.sh" in entry


def test_dockerfile_copies_only_what_exists() -> None:
    for op, args in dockerfile():
        if op == "COPY":
            *sources, _ = args.split()
            for source in sources:
                assert (ROOT / source).exists(), source


def test_the_image_pins_every_direct_dependency_through_the_lock() -> None:
    """pyproject.toml declares ranges; the image installs requirements.lock, where every direct
    dependency has one exact version (tests/test_lock.py checks the versions are in range)."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    locked = {
        line.split("==", 1)[0].lower()
        for line in (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    }
    for dep in deps:
        name = re.split(r"[\[<>=!~ ;]", dep, maxsplit=1)[0]
        assert re.sub(r"[-_.]+", "-", name).lower() in locked, f"{dep}: not pinned in requirements.lock"


def test_dockerignore_keeps_secrets_and_caches_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in (".git", ".venv", ".env", ".streamlit/secrets.toml"):
        assert entry in ignored


def test_compose_has_postgres_health_checks_and_a_volume() -> None:
    data = compose()
    db, app = data["services"]["db"], data["services"]["app"]
    assert db["image"].startswith("postgres:15")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    volume = db["volumes"][0].split(":")[0]
    assert volume in data["volumes"], "the database lives in a named volume"
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert "deploy/healthcheck.sh" in " ".join(app["healthcheck"]["test"])
    env = app["environment"]
    assert env["PLANNER_DATABASE_URL"].startswith("postgresql://")
    assert "@db:5432/" in env["PLANNER_DATABASE_URL"]
    for name in OIDC:
        assert name in env
    assert "replicas" in app["deploy"]
    assert re.fullmatch(
        r"\$\{[A-Z_]+:-127\.0\.0\.1\}:\$\{[A-Z_]+:-\d+\}-\$\{[A-Z_]+:-\d+\}:8501", app["ports"][0]
    ), "a host port per replica"


def test_every_variable_is_documented() -> None:
    """Each variable the artefacts read appears in docs/deploy.md."""
    doc = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    texts = [(ROOT / name).read_text(encoding="utf-8") for name in ("compose.yaml", "Dockerfile")]
    texts += [p.read_text(encoding="utf-8") for p in DEPLOY.iterdir() if p.is_file()]
    names = set()
    for text in texts:
        names |= set(re.findall(r"\b((?:PLANNER|POSTGRES|STREAMLIT)_[A-Z_]+)\b", text))
    missing = sorted(n for n in names if n not in doc)
    assert not missing


def test_scripts_are_executable() -> None:
    for name in ("entrypoint.sh", "healthcheck.sh"):
        assert (DEPLOY / name).stat().st_mode & stat.S_IXUSR, name


def run_secrets(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(DEPLOY / "oidc_secrets.py")],
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_oidc_secrets_round_trip_through_toml() -> None:
    result = run_secrets({**OIDC, "PLANNER_OIDC_SCOPE": "openid email"})
    assert result.returncode == 0, result.stderr
    auth = tomllib.loads(result.stdout)["auth"]
    assert auth["client_secret"] == OIDC["PLANNER_OIDC_CLIENT_SECRET"]
    assert auth["server_metadata_url"] == OIDC["PLANNER_OIDC_SERVER_METADATA_URL"]
    assert auth["client_kwargs"] == {"scope": "openid email"}


def test_oidc_secrets_name_the_missing_variable() -> None:
    result = run_secrets({k: v for k, v in OIDC.items() if k != "PLANNER_OIDC_COOKIE_SECRET"})
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "PLANNER_OIDC_COOKIE_SECRET" in result.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def health(port: int) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=5) as response:
            body: bytes = response.read()
            return body.decode().strip()
    except OSError:
        return ""


def healthcheck(port: int) -> int:
    # the replicas listen on 127.0.0.1 (the health check's preflight judges that address)
    env = {
        **os.environ,
        "PLANNER_PYTHON": sys.executable,
        "PLANNER_PORT": str(port),
        "PLANNER_ADDRESS": "127.0.0.1",
    }
    return subprocess.run([str(DEPLOY / "healthcheck.sh")], env=env, timeout=60).returncode


@pytest.fixture
def replicas(pg_url: str, tmp_path: Path) -> Iterator[list[tuple[int, Path, subprocess.Popen[bytes]]]]:
    """Two app processes started by the image's entry point against one PostgreSQL database; the
    second with sign-in configured from the environment."""
    started, logs = [], []
    for index, extra in enumerate(({}, OIDC)):
        port, home = free_port(), tmp_path / f"home{index}"
        home.mkdir()
        env = {
            **os.environ,
            "HOME": str(home),
            "PLANNER_PYTHON": sys.executable,
            "PLANNER_PORT": str(port),
            "PLANNER_ADDRESS": "127.0.0.1",
            "PLANNER_DATABASE_URL": pg_url,
            **extra,
        }
        env.pop("STREAMLIT_SECRETS_FILES", None)
        log = (tmp_path / f"app{index}.log").open("wb")
        logs.append(log)
        process = subprocess.Popen(
            [str(DEPLOY / "entrypoint.sh")], env=env, stdout=log, stderr=subprocess.STDOUT
        )
        started.append((port, home, process))
    try:
        yield started
    finally:
        for _, _, process in started:
            process.terminate()
        for _, _, process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=30)
        for log in logs:
            log.close()


def test_two_replicas_of_the_entry_point_share_one_postgresql(
    replicas: list[tuple[int, Path, subprocess.Popen[bytes]]], pg_url: str, tmp_path: Path
) -> None:
    deadline = time.monotonic() + 240  # two Streamlit start-ups on a loaded 2-core machine
    pending = {port for port, _, _ in replicas}
    while pending and time.monotonic() < deadline:
        for port, _, process in replicas:
            assert process.poll() is None, (tmp_path / "app0.log").read_text() + (
                tmp_path / "app1.log"
            ).read_text()
            if port in pending and health(port) == "ok":
                pending.discard(port)
        time.sleep(1)
    assert not pending, "no answer on /_stcore/health"
    for port, _, _ in replicas:
        assert healthcheck(port) == 0
    engine = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        assert "alembic_version" in inspect(engine).get_table_names(), "the entry point migrated the database"
    finally:
        engine.dispose()
    secrets = replicas[1][1] / ".planner" / "secrets.toml"
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    assert tomllib.loads(secrets.read_text(encoding="utf-8"))["auth"]["client_id"] == "planner"
    assert not (replicas[0][1] / ".planner").exists(), "no secrets file without sign-in"


def test_healthcheck_fails_when_nothing_answers() -> None:
    assert healthcheck(free_port()) == 1
