"""Accounts and API tokens: ``create-admin``, ``create-user``, ``create-token``, ``tokens``, ``revoke-token``."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from scorekeeper import config
from scorekeeper.cli.common import Command, app_db
from scorekeeper.core import accounts
from scorekeeper.core.errors import InvalidInput, NotFound


def _ask_password() -> str | None:
    """The new password: from ``SCOREKEEPER_ADMIN_PASSWORD`` (scripts), else asked twice at the terminal."""

    password = config.Settings.from_env().admin_password
    if password:
        return password
    try:
        first = getpass.getpass("Password (at least 8 characters): ")
        second = getpass.getpass("The password again: ")
    except (EOFError, KeyboardInterrupt):
        return None
    if first != second:
        print("the two passwords are not the same: no account made", file=sys.stderr)
        return None
    return first


def _create_user(args: argparse.Namespace) -> int:
    role = getattr(args, "role", "admin")
    password = _ask_password()
    if password is None:
        print("no password given (type it, or set SCOREKEEPER_ADMIN_PASSWORD): no account made", file=sys.stderr)
        return 1
    with app_db(write=True) as (app, db):
        try:
            user = accounts.create_user(db=db, name=args.name, password=password, role=role)
        except InvalidInput as exc:
            print(f"no account made: {exc.message}", file=sys.stderr)
            return 1
        if role == "admin":
            config.remove_setup_token(app.instance_path)
    print(f"account {user.name} ({user.role}) made; sign in at /login")
    return 0


def _create_token(args: argparse.Namespace) -> int:
    with app_db(write=True) as (_, db):
        user = accounts.find_user(db=db, name=args.user)
        if user is None:
            print(f"there is no account {args.user!r}", file=sys.stderr)
            return 1
        try:
            record, token = accounts.create_token(db=db, user=user, label=args.label)
        except InvalidInput as exc:
            print(f"no token made: {exc.message}", file=sys.stderr)
            return 1
    print(f"token #{record.id} for {user.name} ({user.role}); it is shown only now:", file=sys.stderr)
    print(token)
    return 0


def _tokens(args: argparse.Namespace) -> int:
    with app_db() as (_, db):
        names = {u.id: u.name for u in accounts.list_users(db)}
        for t in accounts.tokens(db=db):
            state = f"revoked {t.revoked_at:%Y-%m-%d}" if t.revoked_at else "active"
            print(f"#{t.id}\t{names.get(t.user_id, '?')}\t{t.created_at:%Y-%m-%d}\t{state}\t{t.label}")
    return 0


def _revoke_token(args: argparse.Namespace) -> int:
    with app_db(write=True) as (_, db):
        try:
            accounts.revoke_token(db=db, token_id=args.id)
        except NotFound:
            print(f"there is no token #{args.id}", file=sys.stderr)
            return 1
    print(f"token #{args.id} revoked")
    return 0


def add_parsers(sub: Any) -> dict[str, Command]:
    """The account commands' parsers; their handlers by name."""
    p = sub.add_parser(
        "create-admin", help="make an admin account (asks for the password, or reads SCOREKEEPER_ADMIN_PASSWORD)"
    )
    p.add_argument("name")
    p = sub.add_parser(
        "create-user", help="make an account (asks for the password, or reads SCOREKEEPER_ADMIN_PASSWORD)"
    )
    p.add_argument("name")
    p.add_argument("--role", choices=["viewer", "scorer", "admin"], default="scorer")
    p = sub.add_parser("create-token", help="make an API token for an account and print it (shown only once)")
    p.add_argument("user", help="the account's name")
    p.add_argument("--label", default="", help="what the token is for")
    sub.add_parser("tokens", help="list the API tokens (not the tokens themselves)")
    p = sub.add_parser("revoke-token", help="revoke an API token for good")
    p.add_argument("id", type=int, help="the token's number (see tokens)")
    return {
        "create-admin": _create_user,
        "create-user": _create_user,
        "create-token": _create_token,
        "tokens": _tokens,
        "revoke-token": _revoke_token,
    }
