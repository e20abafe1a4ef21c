"""The one error type of the engine."""

from __future__ import annotations

from typing import Any


class InvalidHand(ValueError):
    """Input the engine refuses: names the hand, the field and the reason.

    ``hand`` is the 0-based index of the hand in the session's ``hands`` list,
    or ``None`` when the error is in the session itself (``game``, ``rules``).
    ``field`` is the key that is wrong (dotted for nested keys, e.g.
    ``rules.win_threshold`` or ``points.3``); ``message`` says why in plain words.
    ``template`` is that message in English with ``{name}`` placeholders (a msgid
    of the translations) and ``params`` fill it: ``message`` is
    ``template.format(**params)``.

    >>> err = InvalidHand(3, "points", "{name} must be between {lo} and {hi}", name="points", lo=0, hi=130)
    >>> err.to_json()
    {'hand': 3, 'field': 'points', 'message': 'points must be between 0 and 130'}
    >>> err.template, err.params
    ('{name} must be between {lo} and {hi}', {'name': 'points', 'lo': 0, 'hi': 130})
    """

    def __init__(self, hand: int | None, field: str, template: str, /, **params: Any) -> None:
        message = template.format(**params)
        super().__init__(f"hand {hand}, {field}: {message}" if hand is not None else f"{field}: {message}")
        self.hand = hand
        self.field = field
        self.message = message
        self.template = template
        self.params = params

    def to_json(self) -> dict:
        """The body of the ``{"error": ...}`` answer."""
        return {"hand": self.hand, "field": self.field, "message": self.message}
