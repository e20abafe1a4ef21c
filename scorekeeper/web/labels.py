"""What the pages call the engine's keys: games, contracts, suits and cards.

Game terms stay in their own words, in both languages (they are the games' own names): the
contracts and the suits of the German pack (Eichel, Gras, Herz, Schellen). Matt's cards are the
French pack's ordinary cards, said in the page's language (Dame in German, Queen in English).
The games' names come from the engine's registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import lazy_gettext as _l

from scorekeeper.engine import GAMES

GAME_LABELS = {name: game.title for name, game in GAMES.items()}

CONTRACT_LABELS = {
    "rufen": "Rufen",
    "treiben": "Treiben",
    "neidspiel": "Neidspiel",
    "durch": "Durch",
    "trumpf_durch": "Trumpf-Durch",
    "sauspiel": "Sauspiel",
    "wenz": "Wenz",
    "solo": "Solo",
    "rundpass": "Rundpass",
    "ramsch": "Ramsch",
    "trumps": "Trumpf",  # Konter a Matt: the team that chose trumps
}

#: The suits of the German pack (Schafkopf's and Matzlfangen's ``suit``/``trump``).
SUIT_LABELS = {"eichel": "Eichel", "gras": "Gras", "herz": "Herz", "schellen": "Schellen"}

#: Matt's mating cards (the engine's ``card``: A, 10, K, Q, 7) as the table calls them; the
#: ten and the seven are called by their number, as the rule text does ("eine 10", "eine 7").
CARD_LABELS: dict[str, Any] = {"A": _l("Ace"), "10": "10", "K": _l("King"), "Q": _l("Queen"), "7": "7"}


def contract_name(args: Mapping[str, Any], *, tout: bool = False) -> str:
    """The contract a step's ``args`` name, as players write it: ``Sauspiel``, ``Gras-Solo``, ``Trumpf-Durch``.

    A Solo is named after its trumps (``suit``), the plain Solo too (``Herz-Solo``): a sheet that
    reads Gras-Solo beside Solo leaves a reader guessing. A Sauspiel is named without its called
    ace: players write "Sauspiel" on the sheet, as the Sau does not change what is paid, and the
    row names who played. ``tout`` adds ``Tout``: ``Gras-Solo Tout``, ``Wenz Tout``.

    Results stored before the steps carried ``suit`` name a Solo's trumps in ``name``
    (``gras solo``; plain ``solo`` for Herz).

    >>> contract_name({"contract": "solo", "suit": "gras"}), contract_name({"contract": "trumpf_durch"})
    ('Gras-Solo', 'Trumpf-Durch')
    >>> contract_name({"contract": "solo", "name": "solo"}, tout=True)
    'Herz-Solo Tout'
    """
    contract = args["contract"]
    if contract == "solo":
        suit = args.get("suit") or _stored_suit(args.get("name"))
        name = f"{SUIT_LABELS.get(suit, str(suit).capitalize())}-Solo"
    else:
        name = CONTRACT_LABELS.get(contract, contract)
    return f"{name} Tout" if tout else name


def _stored_suit(name: Any) -> str:
    """The trumps a stored Solo's ``name`` names: ``gras solo`` is Gras, plain ``solo`` Herz."""
    first = str(name or "").split(" ")[0]
    return first if first in SUIT_LABELS else "herz"


def card_name(card: str) -> str:
    """Matt's mating card as the table calls it: ``Q`` is Dame in German, Queen in English."""
    return str(CARD_LABELS.get(card, card))
