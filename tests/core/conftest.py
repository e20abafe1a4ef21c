"""Fixtures of the core's tests (the shared ones are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def first_look_misses(monkeypatch) -> Callable[[Any, str], list[str]]:
    """``first_look_misses(module, name)``: the module's lookup by uid ``name(session, uid)`` finds
    nothing the first time (as before another import's commit), then what is there. Returns the
    list of the uids it was asked for."""

    def patch(module: Any, name: str) -> list[str]:
        real, looks = getattr(module, name), []

        def not_committed_yet(session, uid):
            looks.append(uid)
            return None if len(looks) == 1 else real(session, uid)

        monkeypatch.setattr(module, name, not_committed_yet)
        return looks

    return patch
