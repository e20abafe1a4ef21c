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
_VARIATION_SELECTORS = frozenset([*map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0))])

#: Characters that show as nothing but are no format characters (Unicode's Default_Ignorable_Code_Point
#: outside category Cf, and the blank Braille pattern): Hangul fillers, the combining grapheme joiner,
#: Khmer's inherent vowels, Mongolian's and Unicode's variation selectors. "Anna" followed by one of
#: them looks like Anna.
_BLANK = frozenset(
    [
        "\u034f",  # combining grapheme joiner
        "\u115f",  # Hangul choseong filler
        "\u1160",  # Hangul jungseong filler
        "\u17b4",  # Khmer vowel inherent AQ
        "\u17b5",  # Khmer vowel inherent AA
        *map(chr, range(0x180B, 0x1810)),  # Mongolian free variation selectors, vowel separator
        "\u2800",  # Braille pattern blank
        "\u3164",  # Hangul filler
        "\uffa0",  # halfwidth Hangul filler
        *map(chr, range(0xFFF0, 0xFFF9)),  # unassigned specials
        "\u2065",  # unassigned among the invisible operators (U+2060-U+206F)
        *map(chr, range(0xE0000, 0xE1000)),  # the tags' and variation selectors' plane, unassigned ones too
        *map(chr, range(0x1BCA0, 0x1BCA4)),  # shorthand format controls
        *map(chr, range(0x1D173, 0x1D17B)),  # musical format controls
        *_VARIATION_SELECTORS,
    ]
)


def _shows_nothing(c: str) -> bool:
    """Whether ``c`` is invisible on its own: a format character (Unicode category Cf) or :data:`_BLANK`."""
    return c in _BLANK or unicodedata.category(c) == "Cf"


def invisible(text: str) -> str | None:
    """The first invisible character in ``text``, if any: a format character (Unicode category Cf:
    a zero-width space, a direction mark, a soft hyphen) or another that shows as nothing (a Hangul
    filler, the blank Braille pattern, a variation selector after a letter: :data:`_BLANK`). Those
    inside an emoji are part of what one sees and pass: a joiner between two pictographs (👨‍👩‍👧),
    a variation selector after one (❤️), the tags of a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).

    >>> invisible("Anna\u200b"), invisible("A\u200fB"), invisible("Anna 👨\u200d👩\u200d👧")
    ('\u200b', '\u200f', None)
    >>> invisible("Anna\u3164"), invisible("Anna\ufe0f"), invisible("Anna ❤\ufe0f")
    ('\u3164', '\ufe0f', None)
    """
    for i, c in enumerate(text):
        if not _shows_nothing(c):
            continue
        before, after = text[i - 1 : i], text[i + 1 : i + 2]
        if c == _ZWJ and before and after and _pictograph(before) and _pictograph(after):
            continue
        if c in _VARIATION_SELECTORS and before and _pictograph(before):
            continue
        if ord(c) in _TAGS and _BLACK_FLAG in text[:i]:
            continue
        return c
    return None


#: The object replacement character: a placeholder for an image or an object that the text does not
#: hold, shown as a box, as "OBJ" or as nothing (Anna followed by it looks like Anna, or not like a name).
_PLACEHOLDER = "\ufffc"


#: The replacement character: what a program writes for a character it could not decode (a name
#: that went through the wrong encoding: ``J\ufffdrg``), shown as a question mark in a diamond.
_REPLACEMENT = "\ufffd"


def unshown(text: str) -> str | None:
    """The first character of ``text`` that stands for no letter or sign every device shows alike: the
    object replacement character (U+FFFC), the replacement character (U+FFFD: a character lost on the
    way), a private-use character (Unicode category Co: each font, if any, draws its own thing there;
    most show a box), a noncharacter (U+FDD0-U+FDEF and the last two code points of every plane, such as
    U+FFFF: kept by Unicode for programs' own use, never a character) or a code point unassigned in the
    server's Unicode tables (a box on most devices), if any.

    Unassigned code points among the emoji (U+1F000-U+1FBFF) are not refused: such a one is most likely an
    emoji newer than the server's Python knows (the phone has it and Python 3.11's Unicode 14 has not,
    such as U+1FAE8), and the phone that typed it shows it. Those that show as nothing (U+2065, the
    tags' plane) are :func:`invisible`.

    >>> unshown("Anna\ufffc"), unshown("An\ue000na"), unshown("J\ufffdrg"), unshown("Anna\ufdd0")
    ('\ufffc', '\ue000', '\ufffd', '\ufdd0')
    >>> unshown("Anna\u0378"), unshown("Anna ❤\ufe0f"), unshown("Anna \U0001fae8")
    ('\u0378', None, None)
    """
    return next((c for c in text if _unshown(c)), None)


def _unshown(c: str) -> bool:
    return c in (_PLACEHOLDER, _REPLACEMENT) or unicodedata.category(c) == "Co" or _noncharacter(c) or _unassigned(c)


#: Where Unicode adds its new emoji: a code point unassigned here may be one the phone has (:func:`unshown`)
_EMOJI_PLANES = range(0x1F000, 0x1FC00)


def _unassigned(c: str) -> bool:
    return unicodedata.category(c) == "Cn" and ord(c) not in _EMOJI_PLANES


def _noncharacter(c: str) -> bool:
    code = ord(c)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def _pictograph(c: str) -> bool:
    return unicodedata.category(c) in ("So", "Sk") or c == "\ufe0f" or 0x1F3FB <= ord(c) <= 0x1F3FF


def clean_name(name: Any, *, typed: bool = True) -> str:
    """Trimmed, NFC-normalised, 1-40 characters, no control characters, no invisible characters
    (a name that looks like another must be refused like a duplicate, not stored beside it), no
    placeholder, replacement, private-use, noncharacter nor unassigned one (:func:`unshown`: what they show
    depends on the device, or they stand for a character lost).

    A name read from a file (``typed=False``) is kept to the first three: the file holds what a
    database stored, perhaps before the last two rules, and a backup must import again
    (docs/using.md, "How names compare").

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
    if not typed:
        return name
    hidden = invisible(name)
    if hidden:
        raise InvalidInput(
            "name",
            "the name must not contain invisible characters: character {n} is {code}, which shows as nothing",
            **_where(name, hidden),
        )
    odd = unshown(name)
    if odd == _PLACEHOLDER:
        raise InvalidInput(
            "name",
            "the name must not contain placeholders: character {n} is {code}, which stands for an image "
            "and shows as a box or as nothing",
            **_where(name, odd),
        )
    if odd == _REPLACEMENT:
        raise InvalidInput(
            "name",
            "the name must not contain replacement characters: character {n} is {code}, which stands for a "
            "character lost on the way (a wrong encoding) and shows as a question mark in a diamond",
            **_where(name, odd),
        )
    if odd and _noncharacter(odd):
        raise InvalidInput(
            "name",
            "the name must not contain noncharacters: character {n} is {code}, which Unicode keeps from ever "
            "being a character: no device can show it (most show a box)",
            **_where(name, odd),
        )
    if odd and _unassigned(odd):
        raise InvalidInput(
            "name",
            "the name must not contain unassigned characters: character {n} is {code}, which Unicode does not "
            "define as far as this server knows: most devices show a box",
            **_where(name, odd),
        )
    if odd:
        raise InvalidInput(
            "name",
            "the name must not contain private-use characters: character {n} is {code}, which every device "
            "shows differently (most as a box)",
            **_where(name, odd),
        )
    return name


def _where(name: str, character: str) -> dict[str, Any]:
    """Where ``character`` first is in ``name`` (counted from 1), and its code point as U+XXXX."""
    return {"n": name.index(character) + 1, "code": f"U+{ord(character):04X}"}


def name_key(name: str) -> str:
    """What makes two names the same person's: they look the same. Equal ignoring case in every
    alphabet, whatever Unicode form they were typed in (``STRASSE`` finds ``Straße``, full-width
    ``Ａｎｎａ`` finds ``Anna``), ignoring invisible characters (:func:`invisible`'s, emoji's too) and
    runs of spaces, and letters of other alphabets that look like Latin ones, capital or small (a
    Cyrillic ``С`` finds ``C``, a Cyrillic ``В`` finds ``B``: :func:`skeleton`). Compatibility
    characters are the characters they stand for (Unicode's NFKC): the Roman numeral ``Ⅸ`` is ``IX``,
    the letterlike ``ℌans`` is ``Hans``, the ligature ``ﬁ`` is ``fi``, a superscript ``²`` is ``2``.
    Characters :func:`clean_name` refuses that a name stored before may hold count as nothing
    (:func:`invisible`'s, :func:`unshown`'s).

    >>> name_key("Ⅸ") == name_key("IX"), name_key("ℌans") == name_key("Hans"), name_key("ﬁ\ufffc") == name_key("fi")
    (True, True, True)
    """
    normal = unicodedata.normalize("NFKC", name)
    visible = "".join(c for c in normal if not _shows_nothing(c) and not _unshown(c))
    return " ".join(skeleton(visible).split())


def skeleton(text: str) -> str:
    """``text`` folded to small letters with every character that looks like a Latin letter or a
    digit written as that one (Unicode TS #39's confusables, as the kept library
    ``confusable-homoglyphs`` has them): its confusable skeleton, ignoring case. A letter is written
    as the small Latin letter it looks like, else as its capital's look-alike when its capital looks
    like a Latin one (the Cyrillic ``в`` looks like no Latin letter, its capital ``В`` like ``B``: both
    are ``b``), so that a name's key never depends on its case. Accents stay (``ü`` is no ``u``).

    >>> skeleton("Сilli") == skeleton("cilli"), skeleton("аnni") == "anni", skeleton("Ki11i"), skeleton("Müller")
    (True, True, 'killi', 'müller')
    >>> skeleton("Вernd") == skeleton("Bernd") == skeleton("BERND"), skeleton("ΚΑΡΛ") == skeleton("καρλ")
    (True, True)
    """
    return unicodedata.normalize("NFC", "".join(_looks(c) for c in unicodedata.normalize("NFD", text)))


def _looks(c: str) -> str:
    """One character (of a text in NFD) as :func:`skeleton` writes it: its case folded, each of
    those characters as it looks (:func:`_small_looks`)."""
    return "".join(_small_looks(x) for x in unicodedata.normalize("NFD", c.casefold()))


@functools.lru_cache(maxsize=4096)
def _small_looks(x: str) -> str:
    """A character whose case is folded, as it looks: the small Latin letter (else the digit) it
    looks like; else, when its capital looks like a Latin capital, that one's small letter; else itself."""
    small = _prototype(x)
    if small != x or x in _LATIN:
        return small
    capital = x.upper()
    if len(capital) == 1 and capital != x:
        alike = capital if capital in _CAPITALS else _alike(capital, _CAPITALS)
        if alike:
            return alike.casefold()
    return x


def _alike(c: str, kind: frozenset[str]) -> str | None:
    """The first (in order) of ``kind`` that ``c`` looks like, if any."""
    looks = {alias["c"].strip("\u200e\u200f") for alias in _HOMOGLYPHS.get(c, ())}
    return min((x for x in looks if x in kind), default=None)


@functools.lru_cache(maxsize=4096)
def _prototype(c: str) -> str:
    """The small Latin letter (else the digit) ``c`` looks like; ``c`` itself when it looks like none."""
    if c in _LATIN:
        return c
    small = _alike(c, _LATIN)
    if small:
        return small
    digit = _alike(c, _DIGITS)
    return _prototype(digit) if digit else c


_LATIN = frozenset(string.ascii_lowercase)
_CAPITALS = frozenset(string.ascii_uppercase)
_DIGITS = frozenset(string.digits)
