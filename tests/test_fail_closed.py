"""Sign-in fails closed (the hostile-input issue, item 1): configured sign-in whose secrets
cannot be read never serves a page, through the container's entry point, ``streamlit run`` (its
health check) and the app's own gate; an app on the network without sign-in needs
``PLANNER_ALLOW_ANONYMOUS=1``; the entry point's TOML holds any secret value; compose binds to
127.0.0.1 and refuses the sample password.

Measured before: a secrets file mounted under a name not ending in ``.toml``, or a cookie secret
with a character the rendered TOML could not hold, made Streamlit log "Failed to load secrets",
``ui/auth.py`` read that as "no secrets", and every visitor was an admin.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from planner.access import SignInConfigError, auth_section, exposure_error, is_loopback
from planner.i18n import tr

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"


def _script(name: str) -> ModuleType:
    """A script of ``deploy/`` loaded as a module (the folder is no package)."""
    spec = importlib.util.spec_from_file_location(name, DEPLOY / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


oidc_secrets = _script("oidc_secrets")
preflight = _script("preflight")

OIDC = {
    "PLANNER_OIDC_CLIENT_ID": "planner",
    "PLANNER_OIDC_CLIENT_SECRET": "client-secret",
    "PLANNER_OIDC_SERVER_METADATA_URL": "http://127.0.0.1:9/.well-known/openid-configuration",
    "PLANNER_OIDC_REDIRECT_URI": "http://127.0.0.1:8501/oauth2callback",
    "PLANNER_OIDC_COOKIE_SECRET": "a-long-random-value-shared-by-every-replica",
}
AUTH_TOML = '[auth]\nclient_id = "planner"\ncookie_secret = "x"\n'


def base_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A clean environment: no sign-in, no database, HOME in ``tmp_path``."""
    return {"PATH": os.environ.get("PATH", ""), "HOME": str(tmp_path), "PYTHONPATH": str(ROOT), **extra}


# -- the rule itself -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("auth.secret", AUTH_TOML),  # a container secret's usual name: Streamlit refuses it
        ("secrets.toml", '[auth]\nclient_id = "plan\x7fner"\n'),  # DEL: not valid TOML
        ("secrets.toml", '[auth\nclient_id = "planner"\n'),  # a syntax error
        ("secrets.toml", b"\xff\xfe[auth]"),  # not UTF-8
        ("missing.toml", None),  # named but not there
    ],
)
def test_configured_but_unreadable_secrets_raise(
    tmp_path: Path, name: str, content: str | bytes | None
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    with pytest.raises(SignInConfigError, match=str(path).replace(".", r"\.")):
        auth_section(environ={"STREAMLIT_SECRETS_FILES": str(path)}, secret_files=[str(path)])


def test_an_unparseable_default_secrets_file_raises_even_without_variables(tmp_path: Path) -> None:
    path = tmp_path / "secrets.toml"
    path.write_text("[auth\n", encoding="utf-8")
    with pytest.raises(SignInConfigError, match="not valid TOML"):
        auth_section(environ={}, secret_files=[str(path)])


def test_oidc_variables_without_an_auth_section_raise(tmp_path: Path) -> None:
    with pytest.raises(SignInConfigError, match="PLANNER_OIDC_SCOPE"):
        auth_section(environ={"PLANNER_OIDC_SCOPE": "openid"}, secret_files=[str(tmp_path / "none.toml")])


def test_no_configuration_is_sign_in_off_and_a_good_file_is_read(tmp_path: Path) -> None:
    assert auth_section(environ={}, secret_files=[str(tmp_path / "absent.toml")]) is None
    other = tmp_path / "other.toml"
    other.write_text('api_key = "k"\n', encoding="utf-8")
    assert auth_section(environ={}, secret_files=[str(other)]) is None  # secrets, no sign-in
    good = tmp_path / "secrets.toml"
    good.write_text(AUTH_TOML, encoding="utf-8")
    section = auth_section(environ={"STREAMLIT_SECRETS_FILES": str(good)}, secret_files=[str(good)])
    assert section is not None and section["client_id"] == "planner"


def test_anonymous_on_the_network_needs_the_explicit_variable() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and not is_loopback("0.0.0.0")
    assert exposure_error(address="127.0.0.1", signed_in=False, environ={}) is None
    assert exposure_error(address="0.0.0.0", signed_in=True, environ={}) is None
    refusal = exposure_error(address="0.0.0.0", signed_in=False, environ={})
    assert refusal is not None and "PLANNER_ALLOW_ANONYMOUS=1" in str(refusal)
    assert exposure_error(address="", signed_in=False, environ={"PLANNER_ALLOW_ANONYMOUS": "1"}) is None


# -- the entry point's TOML ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "secret",
    [
        'q"uo\\te',
        "del\x7fchar",
        "tab\tnew\nline\r",
        "ctrl\x01\x1f",
        "中文-é-\U0001f600",
        "'''\"\"\"",
        "a = 1\n[x]",
    ],
)
def test_the_rendered_toml_holds_any_secret_value(secret: str) -> None:
    text = oidc_secrets.render({**OIDC, "PLANNER_OIDC_COOKIE_SECRET": secret, "PLANNER_OIDC_SCOPE": secret})
    auth = tomllib.loads(text)["auth"]
    assert auth["cookie_secret"] == secret.strip()
    assert auth["client_kwargs"]["scope"] == secret.strip()


def test_a_secret_that_is_not_utf8_is_refused_naming_the_variable() -> None:
    with pytest.raises(SystemExit, match="PLANNER_OIDC_CLIENT_SECRET"):
        oidc_secrets.render({**OIDC, "PLANNER_OIDC_CLIENT_SECRET": "bad\udcff"})


# -- the entry point and the health check ----------------------------------------------------------


def entrypoint(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The image's entry point; a refusal ends it before Streamlit starts (a timeout here means
    it served instead)."""
    return subprocess.run(
        [str(DEPLOY / "entrypoint.sh")],
        env={**env, "PLANNER_PYTHON": sys.executable, "PLANNER_PORT": "9"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    "case",
    ["mounted-not-toml", "unparseable", "unreadable", "scope-only", "anonymous-network", "sample-password"],
)
def test_the_entry_point_refuses_to_start(tmp_path: Path, case: str) -> None:
    secret = tmp_path / "auth.secret"
    secret.write_text(AUTH_TOML, encoding="utf-8")
    bad = tmp_path / "secrets.toml"
    bad.write_text('[auth]\ncookie_secret = "a\x7fb"\n', encoding="utf-8")
    unreadable = tmp_path / "unreadable.toml"
    env = base_env(tmp_path, PLANNER_ADDRESS="127.0.0.1")
    env |= {
        "mounted-not-toml": {"STREAMLIT_SECRETS_FILES": str(secret)},
        "unparseable": {"STREAMLIT_SECRETS_FILES": str(bad)},
        "unreadable": {"STREAMLIT_SECRETS_FILES": str(unreadable)},
        "scope-only": {"PLANNER_OIDC_SCOPE": "openid"},
        "anonymous-network": {"PLANNER_ADDRESS": "0.0.0.0"},
        "sample-password": {"PLANNER_DATABASE_URL": "postgresql://planner:change-me@127.0.0.1:9/planner"},
    }[case]
    result = entrypoint(env)
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("preflight:")]
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr


def test_the_entry_point_refuses_a_secret_it_cannot_render(tmp_path: Path) -> None:
    env = base_env(tmp_path, PLANNER_ADDRESS="127.0.0.1", **OIDC)
    del env["PLANNER_OIDC_COOKIE_SECRET"]
    result = entrypoint(env)
    assert result.returncode == 2 and "PLANNER_OIDC_COOKIE_SECRET" in result.stderr, result.stderr
    assert not (tmp_path / ".planner" / "secrets.toml").exists(), "no half-written secrets file"


def test_the_preflight_passes_a_good_configuration(tmp_path: Path) -> None:
    good = tmp_path / "secrets.toml"
    good.write_text(AUTH_TOML, encoding="utf-8")
    assert (
        preflight.problem(base_env(tmp_path, PLANNER_ADDRESS="0.0.0.0", STREAMLIT_SECRETS_FILES=str(good)))
        is None
    )
    published = base_env(tmp_path, PLANNER_ADDRESS="0.0.0.0", PLANNER_PUBLISHED_ADDRESS="127.0.0.1")
    assert preflight.problem(published) is None  # compose's default: the host binds loopback only
    anonymous = base_env(tmp_path, PLANNER_ADDRESS="0.0.0.0", PLANNER_ALLOW_ANONYMOUS="1")
    assert preflight.problem(anonymous) is None


def test_streamlit_run_with_broken_secrets_fails_its_health_check(tmp_path: Path) -> None:
    """``streamlit run`` itself (not the entry point): Streamlit answers its health endpoint, the
    planner's health check still fails, and the app's gate serves only the error
    (:func:`test_the_app_gate_serves_only_the_error`)."""
    import socket
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    secret = tmp_path / "auth.secret"
    secret.write_text(AUTH_TOML, encoding="utf-8")
    env = {**os.environ, "HOME": str(tmp_path), "STREAMLIT_SECRETS_FILES": str(secret)}
    env.pop("PLANNER_DATABASE_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        answered = False
        for _ in range(240):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                    answered = r.read().strip() == b"ok"
            except OSError:
                pass
            if answered or process.poll() is not None:
                break
            time.sleep(0.5)
        check = subprocess.run(
            [str(DEPLOY / "healthcheck.sh")],
            env={
                **env,
                "PLANNER_PYTHON": sys.executable,
                "PLANNER_PORT": str(port),
                "PLANNER_ADDRESS": "127.0.0.1",
            },
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert check.returncode == 1, check.stderr
        assert "auth.secret" in check.stderr
    finally:
        process.terminate()
        process.wait(timeout=30)


# -- the app's gate (the same script `streamlit run` runs) ----------------------------------------


@pytest.mark.parametrize("case", ["not-toml", "oidc-variable", "anonymous-network"])
def test_the_app_gate_serves_only_the_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    from streamlit import config as st_config
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "s.db"))
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    secret = tmp_path / "auth.secret"
    secret.write_text(AUTH_TOML, encoding="utf-8")
    files = st_config.get_option("secrets.files")
    if case == "not-toml":
        monkeypatch.setenv("STREAMLIT_SECRETS_FILES", str(secret))
        st_config.set_option("secrets.files", [str(secret)])
    elif case == "oidc-variable":
        monkeypatch.setenv("PLANNER_OIDC_CLIENT_ID", "planner")
    else:
        monkeypatch.setenv("PLANNER_PUBLISHED_ADDRESS", "0.0.0.0")
        monkeypatch.delenv("PLANNER_ALLOW_ANONYMOUS", raising=False)
    try:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
        at.run()
        assert not at.exception, at.exception
        assert len(at.error) == 1, [e.value for e in at.error]
        assert not at.metric and not at.button and not at.text_input and not at.selectbox
        assert not at.title, "no page content: only the one line"
    finally:
        st_config.set_option("secrets.files", files)


def test_anonymous_on_the_network_shows_a_banner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("PLANNER_DB_PATH", str(tmp_path / "s.db"))
    monkeypatch.delenv("PLANNER_DATABASE_URL", raising=False)
    monkeypatch.setenv("PLANNER_PUBLISHED_ADDRESS", "0.0.0.0")
    monkeypatch.setenv("PLANNER_ALLOW_ANONYMOUS", "1")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.run()
    assert not at.exception, at.exception
    assert tr("auth.anonymous_banner", "en") in [w.value for w in at.warning]


# -- compose and the sample settings ---------------------------------------------------------------


def test_compose_binds_loopback_and_the_sample_password_is_refused() -> None:
    data = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    app = data["services"]["app"]
    assert app["ports"][0].startswith("${PLANNER_BIND_ADDRESS:-127.0.0.1}:"), app["ports"][0]
    assert app["environment"]["PLANNER_PUBLISHED_ADDRESS"] == "${PLANNER_BIND_ADDRESS:-127.0.0.1}"
    assert all(not v for k, v in sample_settings() if k.startswith("PLANNER_OIDC_"))
    assert dict(sample_settings())["POSTGRES_PASSWORD"] == "", "no usable sample password"
    for password in ("change-me", "CHANGE-ME", "postgres"):
        env = {
            "PLANNER_ADDRESS": "127.0.0.1",
            "PLANNER_DATABASE_URL": f"postgresql://planner:{password}@db/planner",
        }
        assert "sample value" in str(preflight.problem(env))


def sample_settings() -> list[tuple[str, str]]:
    lines = (ROOT / "deploy" / "env.example").read_text(encoding="utf-8").splitlines()
    return [tuple(line.split("=", 1)) for line in lines if line and not line.startswith("#")]  # type: ignore[misc]


def test_tracebacks_never_reach_the_browser() -> None:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["client"]["showErrorDetails"] == "none"
    assert config["server"]["address"] == "127.0.0.1"
    assert "--client.showErrorDetails none" in (DEPLOY / "entrypoint.sh").read_text(encoding="utf-8")
