"""The account commands: create-admin (password asked or from the environment), create-user,
create-token (printed once), tokens, revoke-token; and the setup address printed at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper import config, create_app
from scorekeeper.cli import main
from scorekeeper.core import accounts
from scorekeeper.core import db as database
from scorekeeper.web.access import client_for
from tests.support import run_manage, write_lock_free


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(folder))
    monkeypatch.delenv("SCOREKEEPER_DATABASE_URL", raising=False)
    monkeypatch.delenv("SCOREKEEPER_ADMIN_PASSWORD", raising=False)
    return folder


def _app():
    return create_app({"TESTING": True, "SECRET_KEY": "test"})


def test_create_admin_reads_the_password_from_the_environment_for_scripts(instance, monkeypatch, capsys):
    _app().extensions["sk_engine"].dispose()
    assert config.read_setup_token(instance) is not None  # no admin yet: a setup address exists
    monkeypatch.setenv("SCOREKEEPER_ADMIN_PASSWORD", "wirt-geheim")
    assert main(["create-admin", "Wirt"]) == 0
    assert capsys.readouterr().out == "account Wirt (admin) made; sign in at /login\n"
    assert config.read_setup_token(instance) is None  # the setup address is gone with it
    app = _app()
    with database.session(app.extensions["sk_engine"]) as db:
        assert accounts.authenticate(db=db, name="wirt", password="wirt-geheim").role == "admin"
    app.extensions["sk_engine"].dispose()


def test_create_admin_asks_for_the_password_twice_at_the_terminal(instance):
    answer = run_manage("create-admin", "Wirt", env={"SCOREKEEPER_INSTANCE": str(instance)}, stdin="")
    assert answer.returncode == 1
    assert "no account made" in answer.stderr


def test_create_admin_refuses_a_short_password_and_a_taken_name(instance, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_ADMIN_PASSWORD", "kurz")
    assert main(["create-admin", "Wirt"]) == 1
    assert "no account made: the password must have 8 to 200 characters" in capsys.readouterr().err
    monkeypatch.setenv("SCOREKEEPER_ADMIN_PASSWORD", "lang-genug")
    assert main(["create-admin", "Wirt"]) == 0
    assert main(["create-user", "WIRT", "--role", "viewer"]) == 1
    assert "there is an account called WIRT already" in capsys.readouterr().err


def test_a_created_token_opens_the_api_until_it_is_revoked(instance, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_ADMIN_PASSWORD", "lang-genug")
    assert main(["create-user", "Tablet", "--role", "scorer"]) == 0
    capsys.readouterr()
    assert main(["create-token", "tablet", "--label", "Stammtisch"]) == 0
    captured = capsys.readouterr()
    token = captured.out.strip()
    assert token.startswith("skt_") and "shown only now" in captured.err
    app = _app()
    api = client_for(app, None)
    answer = api.post("/api/v1/players", json={"name": "Anna"}, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201
    assert main(["tokens"]) == 0
    listing = capsys.readouterr().out
    assert "#1\tTablet\t" in listing and "\tactive\tStammtisch" in listing and token not in listing
    assert main(["revoke-token", "1"]) == 0
    assert api.get("/api/v1/players", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert main(["revoke-token", "7"]) == 1
    assert main(["create-token", "nobody"]) == 1
    assert "there is no account 'nobody'" in capsys.readouterr().err
    app.extensions["sk_engine"].dispose()


def test_create_user_hashes_the_password_before_it_takes_the_write_lock(instance, monkeypatch, capsys):
    """The server goes on writing while the command hashes (a tenth of a second, slow on purpose)."""
    _app().extensions["sk_engine"].dispose()
    monkeypatch.setenv("SCOREKEEPER_ADMIN_PASSWORD", "lang-genug")
    free = []
    real = accounts.generate_password_hash

    def watched(*args, **kwargs):
        free.append(write_lock_free(instance / "scorekeeper.db"))
        return real(*args, **kwargs)

    monkeypatch.setattr(accounts, "generate_password_hash", watched)
    assert main(["create-user", "Sepp", "--role", "scorer"]) == 0
    assert main(["create-admin", "Wirt"]) == 0
    assert free == [True, True]
    assert "account Wirt (admin) made" in capsys.readouterr().out


def test_run_serves_with_waitress_in_fewer_threads_than_the_pool_has_connections(instance, monkeypatch, capsys):
    """``make run``: waitress, whose threads are fewer than the pool's connections, so no request waits
    for one (a wait in the pool ends in an error after 30 s); more requests wait their turn in waitress's
    queue. (Bursts against the real server: tests/tools/test_signin_concurrency.py, tests/cli/test_serving.py.)"""
    from scorekeeper.cli import serving

    served = {}

    class Server:
        def run(self):
            served["ran"] = True

        def close(self):
            served["closed"] = True

    monkeypatch.setattr(serving, "make_server", lambda app, **kw: served.update(app=app, **kw) or Server())
    assert main(["run", "--port", "5999"]) == 0
    assert served["ran"] and served["closed"]
    assert served["host"] == "127.0.0.1" and served["port"] == 5999
    assert 1 < served["threads"] <= database.POOL_SIZE + database.POOL_OVERFLOW
    assert served["app"].config["LISTEN_HOST"] == "127.0.0.1"
    out = capsys.readouterr().out
    assert "http://127.0.0.1:5999" in out and "--host 0.0.0.0" in out  # where it is, and how to let phones in
