"""``settle``: a session as JSON on standard input, its settlement as JSON on standard output (the
contract of docs/rules.md). It imports nothing of the web app or the database, so it starts fast and
works anywhere; ``scorekeeper.cli.main`` imports nothing else for it."""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from typing import Any, TextIO

from scorekeeper.engine import InvalidHand, settle_json


@contextmanager
def _no_cycle_collection():
    """Python's cyclic collector paused: settling makes many short-lived objects and no reference
    cycles, so the young collections (one every 700 new objects) would look for garbage in vain
    (a twentieth of the time). Reference counting frees everything as usual."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def settle_text(text: str | bytes, *, pretty: bool = False) -> tuple[int, str]:
    """The ``settle`` contract on text: returns the exit status and the JSON answer.

    0 and the settlement, or 1 and ``{"error": {"hand", "field", "message"}}``.
    The benchmark calls this too, so it measures exactly what ``settle`` does.
    """
    with _no_cycle_collection():
        return _settle_text(text, pretty)


def _settle_text(text: str | bytes, pretty: bool) -> tuple[int, str]:
    try:
        payload = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        error = InvalidHand(None, "", "the input is not valid JSON: {error}", error=str(exc))
    except RecursionError:
        error = InvalidHand(None, "", "the input is nested too deeply")
    else:
        try:
            result = settle_json(payload)
        except InvalidHand as exc:
            error = exc
        else:
            # the settlement is a tree the engine just built: no cycle to look for (a tenth quicker)
            return 0, json.dumps(result, ensure_ascii=False, indent=2 if pretty else None, check_circular=False)
    return 1, json.dumps({"error": error.to_json()}, ensure_ascii=False)


def settle(stdin: TextIO, stdout: TextIO, *, pretty: bool = False) -> int:
    """``python manage.py settle``: JSON on stdin, JSON on stdout, exit status 1 on bad input."""
    try:
        text = stdin.read()
    except UnicodeDecodeError:
        text = b"\xff"  # not UTF-8: answered as invalid JSON below
    status, answer = settle_text(text, pretty=pretty)
    _write(stdout, answer)
    return status


def _write(stdout: TextIO, text: str) -> None:
    """Write one answer; a reader that went away (``| head``) is not an error of ours."""
    try:
        stdout.write(text + "\n")
        stdout.flush()
    except BrokenPipeError:
        pass


def add_parsers(sub: Any) -> None:
    """``settle``'s parser (its handler reads standard input: :func:`scorekeeper.cli.main` calls it)."""
    p = sub.add_parser("settle", help="settle a session: JSON on stdin, JSON on stdout (the contract of docs/rules.md)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON for people")
