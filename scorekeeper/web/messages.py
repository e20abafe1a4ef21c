"""Turning refusals of the engine and the core into messages in the user's language."""

from __future__ import annotations

from flask_babel import gettext

from scorekeeper.core.errors import Conflict, InvalidInput
from scorekeeper.engine import InvalidHand

#: Words the engine fills into its messages that are themselves English (the kind of a bad value).
TYPE_WORDS = frozenset({"true or false", "a whole number", "a text", "a list", "an object", "a decimal number"})


def message(exc: InvalidHand | InvalidInput | Conflict, label: str | None = None) -> str:
    """The refusal in the user's language (English where no translation exists).

    With ``label``, the JSON field name in the message is replaced by the form field's
    label, so that the message reads as the person sees the form.
    """
    params = {k: gettext(v) if isinstance(v, str) and v in TYPE_WORDS else v for k, v in exc.params.items()}
    if label and params.get("name") == getattr(exc, "field", None):
        params["name"] = label
    return gettext(exc.template).format(**params)


def field_error(form, exc: InvalidInput) -> None:
    """A refusal of the core next to its form field (above the form when no field is to blame)."""
    field = getattr(form, exc.field, None)
    (field.errors if field is not None else form.form_errors).append(message(exc))
