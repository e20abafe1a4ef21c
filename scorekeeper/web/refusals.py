"""Why a page's request was refused, for the page's scripts: a code beside the sentence.

The sentence of a refusal is in the language of the answer; a script (the outbox, static/outbox-store.js; the
table's polling, static/table.js) never reads it to decide. It reads the codes of the ``Scorekeeper-Refusal``
header (space-separated, each one of :data:`CODES`) and says the reason in the page's own words, in the
page's language (docs/rules.md, "The outbox's reasons").
"""

from __future__ import annotations

from werkzeug.exceptions import Conflict as ConflictAnswer

#: The header of a refusal's codes.
HEADER = "Scorekeeper-Refusal"

#: A form made before another phone changed the night: a hand recorded or taken back (a new hand's form), or a
#: hand recorded, edited or taken back (an edit form). core/hands.py ``changed_meanwhile``, ``edited_meanwhile``.
CHANGED = "changed"
#: With :data:`CHANGED`: the hand the form's hand would be now is played by other people (at a table of five
#: another one sits out; where forehand declares, another one declares): it is entered again, never added.
OTHERS = "others"
#: The night takes no hand now (closed, a finished table: core/lifecycle.py), or the guest's night was closed
#: meanwhile by another phone (web/access.py ``spent_nights``): the guest's code is spent.
CLOSED = "closed"
#: With :data:`CLOSED`: a guest's club night closed by another phone spent the guest's code: no hand of this guest is
#: recorded at it again (reopened, it has a new code), so a hand its phone keeps for it waits for nothing: the outbox
#: keeps it to be read until it is discarded (web/access.py ``_spent_answer``, static/outbox-store.js "ended").
SPENT = "spent"
#: The guest's night has a new code since the guest joined it (reopened, or a guest at it left the table):
#: the guest joins it again with the new code (web/access.py ``NEW_CODE``).
NEW_CODE = "new-code"

CODES = (CHANGED, OTHERS, CLOSED, SPENT, NEW_CODE)


def header(*codes: str) -> dict[str, str]:
    """The header of a refusal with ``codes`` (none: no header)."""
    for code in codes:
        if code not in CODES:
            raise ValueError(code)
    return {HEADER: " ".join(codes)} if codes else {}


class Refused(ConflictAnswer):
    """A 409 whose answer carries its codes (``abort`` takes no headers of its own; the error pages keep an
    error's headers: web/app.py ``_http_error``)."""

    def __init__(self, description: str, *codes: str) -> None:
        super().__init__(description)
        self.codes = header(*codes)

    def get_headers(self, environ=None, scope=None):
        return [*super().get_headers(environ, scope), *self.codes.items()]
