"""Secrets and what processes on one host share: the rules service refuses to start without
its state key outside development mode, and each gunicorn runs without a control socket, so
stopping one gunicorn cannot take another's away."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from services.rules import seal
from services.rules.app import create_rules_app
from services.settings import Settings
from tests.service_fixtures import TEST_STATE_KEY, Service


def test_without_a_state_key_the_rules_app_is_refused_outside_development():
    with pytest.raises(seal.MissingKey, match="TAPETE_STATE_KEY is not set"):
        create_rules_app(settings=Settings(state_key=None, dev=False))
    create_rules_app(settings=Settings(state_key=None, dev=True))  # make run, the tests
    assert seal.DEV_KEY.encode() == seal.KEY
    create_rules_app(settings=Settings(state_key="k1", dev=False))
    assert seal.KEY == b"k1"


def test_development_mode_is_an_explicit_setting():
    assert Settings.from_env({}).dev is False
    assert Settings.from_env({"TAPETE_DEV": "1"}).dev is True
    assert Settings.from_env({"TAPETE_DEV": "0"}).dev is False


def test_a_rules_process_without_a_state_key_does_not_start():
    rules = Service("rules", "services.rules.wsgi:app", {"TAPETE_DEV": "", "TAPETE_STATE_KEY": ""})
    with pytest.raises(RuntimeError, match="exited at start"):
        rules.start()
    assert "TAPETE_STATE_KEY is not set" in rules.log_path.read_text()


def test_gunicorns_on_one_host_share_no_control_socket(tmp_path: Path):
    """Two gunicorns of one user: neither makes a control socket (by default both would use
    $HOME/.gunicorn/gunicorn.ctl, and the first to stop would delete the other's)."""
    env = {"TAPETE_STATE_KEY": TEST_STATE_KEY, "HOME": str(tmp_path), "XDG_RUNTIME_DIR": ""}
    first = Service("rules", "services.rules.wsgi:app", env)
    second = Service("rules", "services.rules.wsgi:app", env)
    first.start()
    try:
        second.start()
        try:
            assert list(tmp_path.rglob("*.ctl")) == []
            first.stop()
            assert requests.get(f"{second.url}/readyz", timeout=5).status_code == 200
            assert "control" not in second.log_path.read_text().lower()
        finally:
            second.stop()
    finally:
        first.stop()
