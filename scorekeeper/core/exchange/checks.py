"""The checks of a Scorekeeper file, value by value, and the form of its times.

Every reader (:mod:`.night_file`, :mod:`.club_file`, :mod:`.tournament_file`) checks its file
with these before anything is written: each takes the value and its ``path`` in the JSON
(``hands[3].data.points``) and returns the value, or raises :class:`InvalidExport` naming
that path. No database here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

from scorekeeper.core.errors import InvalidInput
from scorekeeper.core.nights import check_date
from scorekeeper.core.text import clean_name, has_control
from scorekeeper.engine import GAMES, InvalidHand
from scorekeeper.engine.fields import type_name
from scorekeeper.engine.rules import rules_to_json

__all__ = [
    "InvalidExport",
    "a_list",
    "action",
    "boolean",
    "day",
    "file_top",
    "integer",
    "join",
    "json_object",
    "keys_with",
    "list_at_most",
    "moment",
    "name",
    "object_with",
    "objects_with",
    "rule_set",
    "text",
    "timestamp",
    "uid",
]


class InvalidExport(ValueError):
    """A night file that cannot be imported: ``path`` says where in the JSON (``hands[3].data.points``).

    >>> str(InvalidExport("hands[3].data", "a hand must be an object, not a list"))
    'hands[3].data: a hand must be an object, not a list'
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message
        super().__init__(f"{path}: {message}" if path else message)


_UID = re.compile(r"[0-9a-f]{32}")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def timestamp(value: datetime | None) -> str | None:
    """ISO 8601 in UTC with its offset, always with microseconds (so that every export reads the same)."""
    if value is None:
        return None
    if value.tzinfo is None:  # stored without a zone: the app stores UTC
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def join(path: str, key: str) -> str:
    """``path.key``; either may be empty (the top of the file, or the object itself)."""
    return f"{path}.{key}" if path and key else path or key


def object_with(value: Any, path: str, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    """``value`` as an object with exactly ``keys``: a missing key and an unknown key are both errors."""
    if not isinstance(value, dict):
        raise InvalidExport(path, f"{what} must be an object, not {type_name(value)}")
    for key in value:
        if key not in keys:
            raise InvalidExport(join(path, str(key)), f"unknown key {key!r}")
    for key in keys:
        if key not in value:
            raise InvalidExport(join(path, key), f"{key} is required")
    return value


def keys_with(item: Any, keys: tuple[str, ...], *optional: str) -> tuple[str, ...]:
    """``keys``, and each ``optional`` key the item has (files written before it existed lack it)."""
    return (*keys, *(key for key in optional if isinstance(item, dict) and key in item))


def objects_with(
    items: list[Any], path: str, keys: tuple[str, ...], what: str, *optional: str
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """Each item of the list at ``path`` as an object with exactly ``keys`` (and each ``optional`` key it
    has, see :func:`keys_with`): ``(index, the item's path, the object)``."""
    for i, item in enumerate(items):
        item_path = f"{path}[{i}]"
        yield i, item_path, object_with(item, item_path, keys_with(item, keys, *optional), what)


def file_top(data: Any, format_: str, version: int, keys: tuple[str, ...], what: str) -> dict[str, Any]:
    """The top of a Scorekeeper file of kind ``what`` (night, club, tournament): its format marker and
    version checked, and its keys: ``format``, ``version`` and ``keys``."""
    if not isinstance(data, dict):
        raise InvalidExport("", f"a {what} file must be a JSON object, not {type_name(data)}")
    if data.get("format") != format_:
        raise InvalidExport(
            "format", f"this is not a Scorekeeper {what}: expected {format_!r}, found {data.get('format')!r}"
        )
    if data.get("version") != version or type(data.get("version")) is not int:
        raise InvalidExport("version", f"this Scorekeeper reads version {version}, not {data.get('version')!r}")
    object_with(data, "", ("format", "version", *keys), f"a {what} file")
    return data


def a_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidExport(path, f"must be a list, not {type_name(value)}")
    return value


def list_at_most(value: Any, path: str, most: int) -> list[Any]:
    items = a_list(value, path)
    if len(items) > most:
        raise InvalidExport(path, f"at most {most} items, not {len(items)}")
    return items


def integer(value: Any, path: str, lo: int, hi: int) -> int:
    if type(value) is not int:
        raise InvalidExport(path, f"must be a whole number, not {type_name(value)}")
    if not lo <= value <= hi:
        raise InvalidExport(path, f"must be between {lo} and {hi}, not {value}")
    return value


def boolean(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise InvalidExport(path, f"must be true or false, not {type_name(value)}")
    return value


def text(value: Any, path: str, most: int | None = None, *, required: bool = False) -> str:
    """A text; ``required``: not blank; ``most``: at most that many characters and no control characters."""
    if not isinstance(value, str):
        raise InvalidExport(path, f"must be a text, not {type_name(value)}")
    if required and not value.strip():
        raise InvalidExport(path, "must not be empty")
    if most is not None and (len(value) > most or has_control(value)):
        raise InvalidExport(path, f"at most {most} characters and no control characters")
    return value


def uid(value: Any, path: str) -> str:
    found = text(value, path)
    if not _UID.fullmatch(found):
        raise InvalidExport(path, f"must be 32 lowercase hexadecimal digits, not {found!r}")
    return found


def action(value: Any, path: str) -> str:
    """What an audit entry or a roster change did: a short word."""
    found = text(value, path)
    if not 1 <= len(found) <= 20 or has_control(found):
        raise InvalidExport(path, "must be 1 to 20 characters without control characters")
    return found


def name(value: Any, path: str) -> str:
    """A player's name, cleaned as the roster cleans a name, but as stored: a character a person may
    no longer type is kept (``clean_name(typed=False)``), so a database's file imports again."""
    try:
        return clean_name(value, typed=False)
    except InvalidInput as err:
        raise InvalidExport(path, err.message) from None


def day(value: Any, path: str) -> date:
    """A date written as 2026-03-14, and one a night or a tournament may be played on."""
    written = text(value, path)
    try:
        if not _DATE.fullmatch(written):
            raise ValueError(written)
        found = date.fromisoformat(written)
    except ValueError:
        raise InvalidExport(path, f"must be a date such as 2026-03-14, not {written!r}") from None
    try:
        return check_date(found)
    except InvalidInput as err:
        raise InvalidExport(path, err.message) from None


def moment(value: Any, path: str, nullable: bool = False) -> datetime | None:
    if value is None and nullable:
        return None
    written = text(value, path)
    try:
        found = datetime.fromisoformat(written)
    except ValueError:
        raise InvalidExport(path, f"{written!r} is not an ISO 8601 date and time") from None
    if found.utcoffset() is None:
        raise InvalidExport(path, f"{written!r} has no time zone (write it as in 2026-03-14T19:30:00+00:00)")
    return found


#: The options added to a game after the first release, each with the value every release before it read (its
#: behaviour before the option): a file of an older release lacks them (docs/backup.md, "Files of older
#: releases"). Never changes: an option added from now on is added here with the behaviour before it.
ADDED_LATER: dict[str, dict[str, Any]] = {
    "schafkopf": {"klopfen_played": True},  # 2026-11-23: knocking was always played before
}


def _as_before(before: dict[str, Any], key: str, read: Any) -> bool:
    """Whether ``key`` is an option added later whose value read is the one of the releases before it."""
    return key in before and type(read) is type(before[key]) and read == before[key]


def rule_set(game: str, value: Any, path: str, within: str) -> dict[str, Any]:
    """A complete rule set of ``game`` (every option written out), as the engine reads it; an option the
    engine refuses is named below ``within`` (the path its ``rules.…`` field is joined to).

    A file's rule set must write out every option: what it settles must not depend on the defaults of the
    release that imports it. Only an option added after the first release (:data:`ADDED_LATER`) may be
    missing, where the engine reads for it the value the releases before it read (not under a preset that
    sets it otherwise, which no older release knew)."""
    if not isinstance(value, dict):
        raise InvalidExport(path, f"must be an object, not {type_name(value)}")
    try:
        complete = rules_to_json(GAMES[game].parse_rules(value))
    except InvalidHand as err:
        raise InvalidExport(join(within, err.field), err.message) from None
    before = ADDED_LATER.get(game, {})
    missing = [key for key in complete if key not in value and not _as_before(before, key, complete[key])]
    if missing:
        raise InvalidExport(path, f"the rule set is not complete: {', '.join(missing)} missing")
    return complete


def _json_value(value: Any, path: str) -> None:
    """``value`` must be plain JSON (objects with text keys, lists, texts, numbers, true/false, null)."""
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidExport(path, f"{value} is not a JSON number")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _json_value(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidExport(path, f"the key {key!r} is not a text")
            _json_value(item, join(path, key))
        return
    raise InvalidExport(path, f"{type_name(value)} is not a JSON value")


def json_object(value: Any, path: str, nullable: bool = False) -> dict[str, Any] | None:
    if value is None and nullable:
        return None
    if not isinstance(value, dict):
        raise InvalidExport(path, f"must be an object{' or null' if nullable else ''}, not {type_name(value)}")
    _json_value(value, path)
    return value
