"""The rules for text and ids a person or a file sends: one place for each.

>>> name_key("STRASSE") == name_key("Straße")
True
"""

from __future__ import annotations

import unicodedata
from typing import Any

from scorekeeper.core.errors import InvalidInput

NAME_MAX = 40


#: Characters no name or place may hold: controls, line breaks, and direction overrides that
#: would scramble the text around them. (Joiners inside emoji are fine.)
_BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


ID_MAX = 2**31 - 1  # ids beyond what every database's integer holds are simply unknown


def is_id(value: Any) -> bool:
    """Whether ``value`` can be a stored row's id (a whole number every database's integer holds)."""
    return type(value) is int and 0 < value <= ID_MAX


def has_control(text: str) -> bool:
    """Whether a text holds control characters, line breaks or direction overrides."""
    return any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in _BIDI_OVERRIDES for c in text)


def clean_name(name: Any) -> str:
    """Trimmed, NFC-normalised, 1-40 characters, no control characters.

    :raises InvalidInput: otherwise.
    """
    if not isinstance(name, str):
        raise InvalidInput("name", "the name must be a text")
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise InvalidInput("name", "the name must not be empty")
    if len(name) > NAME_MAX:
        raise InvalidInput("name", "the name may have at most {n} characters", n=NAME_MAX)
    if has_control(name):
        raise InvalidInput("name", "the name must not contain control characters")
    return name


def name_key(name: str) -> str:
    """What makes two names the same person's: equal ignoring case, in every alphabet, whatever
    Unicode form they were typed in (``STRASSE`` finds ``Straße``)."""
    return unicodedata.normalize("NFKC", name).casefold()
