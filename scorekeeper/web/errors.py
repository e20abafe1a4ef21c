"""Turning refusals of the engine and the repository into messages in the user's language."""

from __future__ import annotations

from flask_babel import gettext

from ..engine import InvalidHand
from ..repository import Conflict, InvalidInput


def message(exc: InvalidHand | InvalidInput | Conflict) -> str:
    """The refusal in the user's language (English where no translation exists)."""
    template = getattr(exc, "template", None)
    if template is not None:
        return gettext(template).format(**exc.params)
    return gettext(exc.message)
