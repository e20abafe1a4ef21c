"""Languages: German (default) and English, with Flask-Babel.

Catalogs are ``scorekeeper/translations/<lang>/LC_MESSAGES/messages.po`` and
are compiled to ``.mo`` when a package is built (setup.py), or, running from a
checkout, on start when missing or older than the ``.po``. Game terms (Rufen, Schuß,
Stänner ...) stay in their own words.

WTForms' own messages ("This field is required.", "Not a valid integer value." ...) come from
WTForms' catalog, as Flask-WTF loads it; where that catalog has no German (it lacks "Field must be
exactly 3 characters long.", among others), the app's catalog has it: :class:`FormTranslations`,
the translations of every form of the app (``web.forms.Form``).
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, request
from flask_babel import format_decimal, get_locale, get_translations
from flask_wtf.i18n import translations as wtforms_translations

from scorekeeper.engine.errors import N_, N_plural
from scorekeeper.web.extensions import babel

LANGUAGES = ("de", "en")
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
#: Running from a checkout (not an installed package): the catalogs are compiled here, on start.
#: A built package carries them compiled (setup.py), and nothing writes into it at run time.
CHECKOUT = (TRANSLATIONS.parent.parent / "pyproject.toml").is_file()
COOKIE = "lang"


def compile_catalogs(root: Path = TRANSLATIONS) -> None:
    """Write each ``messages.mo`` that is missing or older than its ``messages.po``."""
    for po in root.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f)
        tmp = mo.with_suffix(f".mo.{os.getpid()}.tmp")  # two processes starting at once (test workers)
        with tmp.open("wb") as f:
            write_mo(f, catalog)
        tmp.replace(mo)


def select_locale() -> str:
    """``?lang=`` (remembered in a cookie), else the cookie, else the browser's wish, else German."""
    wanted = request.args.get("lang") or request.cookies.get(COOKIE)
    if wanted in LANGUAGES:
        return wanted
    return request.accept_languages.best_match(LANGUAGES) or "de"


def day(value: date) -> str:
    """A date in the user's notation: ``21.11.2026`` in German, ``2026-11-21`` in English."""
    return value.strftime("%d.%m.%Y") if str(get_locale() or "de") == "de" else value.isoformat()


def number(value: int) -> str:
    """A whole number in the user's notation, grouped by thousands as the language groups them (Babel's
    ``format_decimal``): ``131.072.000`` in German, ``131,072,000`` in English; ``-77.000``."""
    return format_decimal(value)


def _remember_language(response):
    wanted = request.args.get("lang")
    if wanted in LANGUAGES and request.cookies.get(COOKIE) != wanted:
        response.set_cookie(COOKIE, wanted, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response


#: WTForms' messages that its own German catalog lacks: the app's catalog has them (:class:`FormTranslations`).
WTFORMS_GAPS = (
    N_plural("Field must be exactly %(max)d character long.", "Field must be exactly %(max)d characters long."),
    N_plural("'%(value)s' is not a valid choice for this field.", "'%(value)s' are not valid choices for this field."),
    N_("This field cannot be edited."),
    N_("This field is disabled and cannot have a value."),
    N_("Choices cannot be None."),
    N_("Not a valid time value."),
    N_("Not a valid week value."),
    N_("Date must be at least %(min)s."),
    N_("Date must be at most %(max)s."),
    N_("Date must be between %(min)s and %(max)s."),
)


class FormTranslations:
    """WTForms' messages in the page's language: the app's catalog where it has the message, else WTForms' own."""

    def gettext(self, string: str) -> str:
        ours = get_translations().ugettext(string)
        return ours if ours != string else wtforms_translations.gettext(string)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        ours = get_translations().ungettext(singular, plural, n)
        return ours if ours not in (singular, plural) else wtforms_translations.ngettext(singular, plural, n)


FORM_TRANSLATIONS = FormTranslations()


def init_app(app: Flask) -> None:
    if CHECKOUT:
        compile_catalogs()
    babel.init_app(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    app.after_request(_remember_language)

    @app.context_processor
    def _language():
        lang = str(get_locale() or "de")
        return {"lang": lang, "other_lang": "en" if lang == "de" else "de"}
