"""The core's refusals: bad input, a thing that is not there, a night that changed under a request.

All of them but :class:`NotFound` are :class:`~scorekeeper.engine.errors.Refusal`s (the engine's
:class:`~scorekeeper.engine.errors.InvalidHand` is one too), so the pages, the API and the command
line explain every refusal the same way.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.engine.errors import N_, InvalidHand, N_plural, Refusal

__all__ = ["N_", "Conflict", "InvalidHand", "InvalidInput", "N_plural", "NotFound", "Refusal"]


class InvalidInput(Refusal, ValueError):
    """Input refused before it reaches the engine (names, seats, stakes); names the field. Where one input
    has several fields refused at once (a paper list's players' solos), the first is raised with the others
    as its ``also``, in the order found: a form says each at its field (the API answers the first)."""

    also: tuple[InvalidInput, ...] = ()

    @property
    def problems(self) -> tuple[InvalidInput, ...]:
        """This refusal and the others of the same input, in the order they were found."""
        return (self, *self.also)


class NotFound(LookupError):
    """No such player, night, hand or account."""


class Conflict(Refusal):
    """The night changed under the request (another phone was quicker), or is closed.

    A message that counts has its plural too, counting ``n``: ``Conflict(singular, plural, n=...)``
    (as ``InvalidInput(field, singular, plural, n=...)``); the pages say it with ``ngettext``."""

    def __init__(self, template: str, plural: str | None = None, /, **params: Any) -> None:
        super().__init__("", template, plural, **params)
