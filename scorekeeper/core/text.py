"""The rules for text and ids a person or a file sends: one place for each (numbers: core/numbers.py).

>>> name_key("STRASSE") == name_key("Straße"), name_key("Ａｎｎａ") == name_key("anna")
(True, True)
"""

from __future__ import annotations

import functools
import string
import unicodedata
from typing import Any

from confusable_homoglyphs.confusables import confusables_data as _HOMOGLYPHS

from scorekeeper.core.errors import InvalidInput, N_plural

NAME_MAX = 40


#: Characters no name or place may hold: controls, line breaks, and direction overrides that
#: would scramble the text around them. (Joiners inside emoji are fine.)
_BIDI_OVERRIDES = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


ID_MAX = 2**31 - 1  # ids beyond what every database's integer holds are simply unknown


def is_id(value: Any) -> bool:
    """Whether ``value`` can be a stored row's id (a whole number every database's integer holds)."""
    return type(value) is int and 0 < value <= ID_MAX


def is_idempotency_key(key: Any) -> bool:
    """Whether ``key`` may be a one-time key (a hand's idempotency key, a start form's): 1 to 64
    printable ASCII characters (a form's, the API's and an imported night file's are held to this one rule)."""
    return isinstance(key, str) and 1 <= len(key) <= 64 and key.isascii() and key.isprintable()


def has_control(text: str) -> bool:
    """Whether a text holds control characters, line breaks, direction overrides or lone surrogates
    (which are no Unicode characters at all: a database cannot store them)."""
    return any(unicodedata.category(c) in ("Cc", "Zl", "Zp", "Cs") or c in _BIDI_OVERRIDES for c in text)


_ZWJ = "\u200d"
_TAGS = range(0xE0020, 0xE0080)  # the tag letters of a flag such as Scotland's
_BLACK_FLAG = "\U0001f3f4"


def invisible(text: str) -> str | None:
    """The first invisible format character (Unicode category Cf) in ``text``, if any: a zero-width
    space, a direction mark, a soft hyphen. Those inside an emoji are part of what one sees and
    pass: a joiner between two pictographs (👨‍👩‍👧), the tags of a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).

    >>> invisible("Anna\u200b"), invisible("A\u200fB"), invisible("Anna 👨\u200d👩\u200d👧")
    ('\u200b', '\u200f', None)
    """
    for i, c in enumerate(text):
        if unicodedata.category(c) != "Cf":
            continue
        before, after = text[i - 1 : i], text[i + 1 : i + 2]
        if c == _ZWJ and before and after and _pictograph(before) and _pictograph(after):
            continue
        if ord(c) in _TAGS and _BLACK_FLAG in text[:i]:
            continue
        return c
    return None


def _pictograph(c: str) -> bool:
    return unicodedata.category(c) in ("So", "Sk") or c == "\ufe0f" or 0x1F3FB <= ord(c) <= 0x1F3FF


def clean_name(name: Any) -> str:
    """Trimmed, NFC-normalised, 1-40 characters, no control characters, no invisible characters
    (a name that looks like another must be refused like a duplicate, not stored beside it).

    :raises InvalidInput: otherwise.
    """
    if not isinstance(name, str):
        raise InvalidInput("name", "the name must be a text")
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise InvalidInput("name", "the name must not be empty")
    if len(name) > NAME_MAX:
        raise InvalidInput(
            "name",
            *N_plural("the name may have at most {n} character", "the name may have at most {n} characters"),
            n=NAME_MAX,
        )
    if has_control(name):
        raise InvalidInput("name", "the name must not contain control characters")
    if invisible(name):
        raise InvalidInput("name", "the name must not contain invisible characters")
    return name


def name_key(name: str) -> str:
    """What makes two names the same person's: they look the same. Equal ignoring case in every
    alphabet, whatever Unicode form they were typed in (``STRASSE`` finds ``Straße``, full-width
    ``Ａｎｎａ`` finds ``Anna``), ignoring invisible characters and runs of spaces, and letters of
    other alphabets that look like Latin ones (a Cyrillic ``С`` finds ``C``: :func:`skeleton`)."""
    visible = "".join(c for c in unicodedata.normalize("NFKC", name) if unicodedata.category(c) != "Cf")
    return " ".join(skeleton(visible.casefold()).split())


def skeleton(text: str) -> str:
    """``text`` with every character that looks like a small Latin letter or a digit written as that
    one (Unicode TS #39's confusables, as the kept library ``confusable-homoglyphs`` has them): its
    confusable skeleton, of a text already folded to small letters. Accents stay (``ü`` is no ``u``).

    >>> skeleton("сilli") == skeleton("cilli"), skeleton("аnni") == "anni", skeleton("ki11i"), skeleton("müller")
    (True, True, 'killi', 'müller')
    """
    return unicodedata.normalize("NFC", "".join(_prototype(c) for c in unicodedata.normalize("NFD", text)))


@functools.lru_cache(maxsize=4096)
def _prototype(c: str) -> str:
    """The small Latin letter (else the digit) ``c`` looks like; ``c`` itself when it looks like none."""
    if c in _LATIN:
        return c
    looks = {alias["c"].strip("\u200e\u200f") for alias in _HOMOGLYPHS.get(c, ())}
    for kind in (_LATIN, _DIGITS):
        alike = sorted(x for x in looks if x in kind)
        if alike:
            return _prototype(alike[0]) if kind is _DIGITS else alike[0]
    return c


_LATIN = frozenset(string.ascii_lowercase)
_DIGITS = frozenset(string.digits)
