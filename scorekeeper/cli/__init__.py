"""The command line: ``python manage.py COMMAND`` (or the ``scorekeeper`` script).

One module per group of commands, each adding its parsers and naming its handlers:
:mod:`~scorekeeper.cli.settle`, :mod:`~scorekeeper.cli.data` (exports, imports, the summary,
verify), :mod:`~scorekeeper.cli.backup`, :mod:`~scorekeeper.cli.accounts` and
:mod:`~scorekeeper.cli.serving` (init-db, run); :mod:`~scorekeeper.cli.common` holds what they share.
``settle`` imports only :mod:`~scorekeeper.cli.settle` and the engine: it starts without Flask or a
database.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from scorekeeper.cli.settle import add_parsers as _add_settle
from scorekeeper.cli.settle import settle, settle_text

__all__ = ["Extra", "app_db", "build_parser", "main", "settle", "settle_text"]

#: Commands added by whoever starts the command line: ``{name: (add its parser, run it)}``.
Extra = dict[str, tuple[Callable[[Any], None], Callable[[argparse.Namespace], int]]]


def app_db(write: bool = False) -> AbstractContextManager:
    """:func:`scorekeeper.cli.common.app_db` (for the development tools), imported when first used."""
    from scorekeeper.cli.common import app_db as opened

    return opened(write=write)


def _parser() -> tuple[argparse.ArgumentParser, Any]:
    parser = argparse.ArgumentParser(prog="manage.py", description="Scorekeeper: scores for card games at the table")
    return parser, parser.add_subparsers(dest="command", required=True)


def build_parser() -> tuple[argparse.ArgumentParser, Any, dict[str, Callable[[argparse.Namespace], int]]]:
    """The command line's parser, its subcommands (to which ``manage.py`` adds the development
    tools') and every command's handler by name but ``settle``'s."""
    from scorekeeper.cli import accounts, backup, data, serving

    parser, sub = _parser()
    _add_settle(sub)
    commands: dict[str, Callable[[argparse.Namespace], int]] = {}
    for group in (data, backup, accounts, serving):
        commands |= group.add_parsers(sub)
    return parser, sub, commands


def _settle(argv: list[str]) -> int:
    parser, sub = _parser()
    _add_settle(sub)
    args = parser.parse_args(argv)
    sys.stdin.reconfigure(encoding="utf-8", errors="strict")
    sys.stdout.reconfigure(encoding="utf-8")
    return settle(sys.stdin, sys.stdout, pretty=args.pretty)


def main(argv: list[str] | None = None, extra: Extra | None = None) -> int:
    """Run one command; ``extra`` adds commands (``manage.py`` adds the development tools')."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["settle"]:
        return _settle(argv)
    parser, sub, commands = build_parser()
    for name, (add, run) in (extra or {}).items():
        add(sub)
        commands[name] = run
    args = parser.parse_args(argv)
    if args.command == "settle":
        return _settle(argv)
    return commands[args.command](args)
