"""The error types: one base for every refusal the app explains to a person, and the engine's own."""

from __future__ import annotations

from typing import Any


def N_(text: str) -> str:
    """Mark ``text`` for the translations' extractor (babel.cfg) and return it unchanged: a text
    translated later, where it is used (a template chosen by a condition, a word filled into a message).

    >>> N_("a whole number")
    'a whole number'
    """
    return text


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a text and its plural for the extractor, as :func:`N_` marks one: a counted refusal is
    ``Conflict(*N_plural("had {n} hand", "had {n} hands"), n=count)``.

    >>> N_plural("{n} hand", "{n} hands")
    ('{n} hand', '{n} hands')
    """
    return singular, plural


class Refusal(Exception):
    """Input refused with a reason a person can read: the one base of the app's refusals.

    ``field`` is the key that is wrong (dotted for nested keys, e.g. ``rules.win_threshold``;
    empty when no field is to blame). ``template`` is the reason in English with ``{name}``
    placeholders (a msgid of the translations) and ``params`` fill it: ``message`` is
    ``template.format(**params)``. A message that counts something has a ``plural`` too (a
    msgid_plural of the translations) and its count in ``params["n"]``: English says ``template``
    for 1 and ``plural`` otherwise, a page says it with ``ngettext``. The web turns a refusal into a
    message in the user's language, the API into a 400 JSON body, the command line into exit 1.

    >>> err = Refusal("name", "the name may have at most {n} characters", n=40)
    >>> err.message, str(err)
    ('the name may have at most 40 characters', 'name: the name may have at most 40 characters')
    >>> Refusal("", "all {n} round is drawn", "all {n} rounds are drawn", n=1).message
    'all 1 round is drawn'
    """

    def __init__(self, field: str, template: str, plural: str | None = None, /, **params: Any) -> None:
        if plural is not None and type(params.get("n")) is not int:
            raise TypeError("a message with a plural counts params['n'], a whole number")
        self.field = field
        self.template = template
        self.plural = plural
        self.params = params
        self.message = (template if plural is None or params["n"] == 1 else plural).format(**params)
        super().__init__(f"{field}: {self.message}" if field else self.message)


class InvalidHand(Refusal, ValueError):
    """Input the engine refuses: names the hand, the field and the reason.

    ``hand`` is the 0-based index of the hand in the session's ``hands`` list,
    or ``None`` when the error is in the session itself (``game``, ``rules``).

    >>> err = InvalidHand(3, "points", "{name} must be between {lo} and {hi}", name="points", lo=0, hi=130)
    >>> err.to_json()
    {'hand': 3, 'field': 'points', 'message': 'points must be between 0 and 130'}
    >>> err.template, err.params
    ('{name} must be between {lo} and {hi}', {'name': 'points', 'lo': 0, 'hi': 130})
    """

    #: The other problems found in the same hand (a form shows them all at once: :class:`fields.Problems`).
    also: tuple[InvalidHand, ...] = ()

    def __init__(self, hand: int | None, field: str, template: str, /, **params: Any) -> None:
        super().__init__(field, template, **params)
        self.hand = hand
        if hand is not None:
            self.args = (f"hand {hand}, {field}: {self.message}",)

    @property
    def problems(self) -> tuple[InvalidHand, ...]:
        """This refusal and the other problems of its hand, in the order they were found."""
        return (self, *self.also)

    def to_json(self) -> dict:
        """The body of the ``{"error": ...}`` answer."""
        return {"hand": self.hand, "field": self.field, "message": self.message}
