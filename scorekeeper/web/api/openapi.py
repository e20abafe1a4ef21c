"""The JSON API described as an OpenAPI 3.1 document, served at ``/api/v1/openapi.json``.

The document is Python data built here. What it can take from the code it takes: the games,
their hand fields (each engine module's ``FIELDS``), their rule options with bounds and presets,
the game state a night reports, the limits of names, stakes, places, ids and bodies.
``tests/web/test_openapi.py`` checks that its paths and methods are the api blueprint's routes
(one operation per route and method, ``operationId`` the view's name) and runs schemathesis
against the app with it: every answer must be one the document describes.
"""

from __future__ import annotations

import copy
import inspect
from functools import cache
from typing import Any, get_args

from scorekeeper.core import tournaments as tm
from scorekeeper.core.exchange.tournament_file import FORMAT as TOURNAMENT_FORMAT
from scorekeeper.core.exchange.tournament_file import VERSION as TOURNAMENT_VERSION
from scorekeeper.core.nights import PLACE_MAX, STAKE_MAX_CENTS
from scorekeeper.core.text import ID_MAX, NAME_MAX
from scorekeeper.engine import GAMES, Game, settle_session
from scorekeeper.engine.rules import options
from scorekeeper.engine.tournament import DecidedBy
from scorekeeper.web.api.limits import MAX_BODY

VERSION = "1"
PREFIX = "/api/v1"  # the blueprint's url_prefix: the document's one server

#: The status codes the API answers with besides success, and what each means.
ERRORS = {
    400: "The request is refused: a field is missing or wrong, or the body is not JSON.",
    401: "No valid API token: send `Authorization: Bearer <token>`.",
    403: "The token's account may not do this (its role is too low).",
    404: "No such night, hand, tournament or route.",
    409: "The night or tournament is closed, or it changed in a way that makes the request wrong (only the "
    "last hand can be deleted; another phone was quicker; a round is drawn when the one before is over).",
    412: "The night changed since the version sent in If-Match (another phone recorded, changed or undid a "
    "hand): read it again.",
    413: f"The body is larger than {MAX_BODY} bytes (1 MiB): refused, and read no further.",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _error(code: int) -> dict[str, Any]:
    return {"$ref": f"#/components/responses/Error{code}"}


def _json(schema: dict[str, Any], description: str, **extra: Any) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}, **extra}


def _object(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        out["required"] = required
    out.update(extra)
    return out


INTEGER = {"type": "integer"}
ID = {"type": "integer", "minimum": 1, "maximum": ID_MAX}
TEXT = {"type": "string"}


# --- the games: rules and hands from the engine -----------------------------------------------


def _option_schema(field: Any) -> dict[str, Any]:
    """One rule option as the engine checks it (``engine/rules.py``)."""
    meta = field.metadata
    if meta["choices"] is not None:
        schema: dict[str, Any] = {"type": "string", "enum": list(meta["choices"])}
    elif isinstance(field.default, bool):
        schema = {"type": "boolean"}
    else:
        schema = {"type": "integer"}
        if meta["lo"] is not None:
            schema["minimum"] = meta["lo"]
        if meta["hi"] is not None:
            schema["maximum"] = meta["hi"]
    if meta["nullable"]:
        if "enum" in schema:
            schema["enum"].append(None)
        schema["type"] = [schema["type"], "null"]
    schema["default"] = field.default
    if meta["help"]:
        schema["description"] = meta["help"]
    return schema


def _rules_schema(game: Game) -> dict[str, Any]:
    """A game's rule set: its preset and options, with their bounds and defaults."""
    properties = {"preset": {"type": "string", "enum": list(game.presets), "default": "seed"}}
    properties.update({f.name: _option_schema(f) for f in options(game.rules_cls)})
    return _object(properties, title=f"rules of {game.name}")


def hand_fields(game: Game) -> list[str]:
    """The keys a hand of ``game`` may have: its engine module's ``FIELDS``."""
    return sorted(inspect.getmodule(game.hand_cls).FIELDS)


def _hand_schema(game: Game) -> dict[str, Any]:
    """A hand of ``game``: an object of its fields. Which fields apply to which contract, and their
    values, are the engine's rules (docs/rules.md); a hand it refuses is answered 400 naming the field."""
    return _object(
        {name: {} for name in hand_fields(game)},
        title=f"a hand of {game.name}",
        description=f"A hand of {game.title}: the fields of docs/rules.md (values are checked by the engine).",
    )


def night_state_keys(game: Game) -> list[str]:
    """What a night of ``game`` reports of the state its hands carry (Konter a Matt's strokes, ...)."""
    return sorted(settle_session(game.name, None, []).extra)


# --- the schemas ------------------------------------------------------------------------------


def _schemas() -> dict[str, Any]:
    games = list(GAMES.values())
    seats = max(size for g in games for size in g.table_sizes)
    state = {
        key: {"description": "the running state of the game's hands (docs/rules.md)"}
        for g in games
        for key in night_state_keys(g)
    }
    money = {
        "seat": {"type": "integer", "minimum": 1, "maximum": seats},
        "name": TEXT,
        "units": INTEGER,
        "cents": INTEGER,
    }
    payment = {key: schema for key, schema in money.items() if key != "seat"}  # a hand's: no seat
    payment["units"] = {"type": "integer", "description": "the hand's units (Matt: the points it scored)"}
    payment["cents"] = {
        "type": "integer",
        "description": "the money the hand pays the player (Matt: its share of the balance, stake_per_point "
        "times the difference of the points; 0 without a stake): a night's hands add up to its totals",
    }
    money["cents"] = {
        "type": "integer",
        "description": "the money the player wins (+) or pays (-); a closed night's as its settlement pays it, "
        "with the player's share of a pot split at the close",
    }
    return {
        "Error": _object(
            {
                "error": _object(
                    {
                        "field": {
                            "type": "string",
                            "description": 'the field to blame (dotted: "rules.win_threshold"); "" for none',
                        },
                        "message": {"type": "string", "minLength": 1, "description": "why, in English"},
                        "hand": {
                            "type": ["integer", "null"],
                            "description": "where the engine refused: the 0-based index of the night's hand "
                            "(null: the night's own fields)",
                        },
                        "problems": {
                            "type": "array",
                            "minItems": 1,
                            "description": "where one request is refused for several things at once (a paper "
                            "list: enter_paper): every refusal, in the order found, the first being field and "
                            "message above",
                            "items": _object(
                                {
                                    "field": {"type": "string", "description": 'dotted: "solos.1"; "" for none'},
                                    "message": {"type": "string", "minLength": 1, "description": "why, in English"},
                                },
                                ["field", "message"],
                            ),
                        },
                    },
                    ["field", "message"],
                )
            },
            ["error"],
        ),
        "Player": _object({"id": ID, "name": TEXT}, ["id", "name"]),
        "NewPlayer": _object(
            {"name": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}},
            ["name"],
            description="Trimmed; no control or invisible characters; not the name of another player, a member "
            "or a tournament's guest, compared as names look: ignoring case, the Unicode form, invisible characters "
            "and letters of other alphabets that look like Latin ones; a run of spaces counts as one, but a space "
            "is not nothing ('An na' is not 'Anna'): docs/using.md, 'How names compare'.",
        ),
        "Rules": {
            "anyOf": [_rules_schema(g) for g in games],
            "description": "the rule set the night is played under: every option, stored when it began",
        },
        "NewRules": {
            "anyOf": [*(_rules_schema(g) for g in games), {"type": "null"}],
            "description": "options of the game's rules: a preset's values, then the options given (null: seed)",
        },
        "Hand": {
            "anyOf": [_hand_schema(g) for g in games],
            "description": "A hand of the night's game (docs/rules.md).",
        },
        "NewSession": _object(
            {
                "game": {"type": "string", "enum": list(GAMES)},
                "rules": _ref("NewRules"),
                "stake_cents": {"type": "integer", "minimum": 0, "maximum": STAKE_MAX_CENTS},
                "players": {
                    "type": "array",
                    "items": {"anyOf": [ID, {"type": "string", "description": "a name on the roster"}]},
                    "minItems": min(size for g in games for size in g.table_sizes),
                    "maxItems": seats,
                    "description": "the players in seat order, as ids or roster names; as many as the game "
                    "is played by",
                },
                "first_dealer": {"type": "integer", "minimum": 1, "maximum": seats},
                "currency": {
                    "type": "string",
                    "pattern": "^[A-Za-z]{3}$",
                    "description": "the club's currency (SCOREKEEPER_CURRENCY) where not given",
                },
                "date": {"type": "string", "format": "date", "description": "from 1900-01-01 to a year from today"},
                "place": {"type": "string", "maxLength": PLACE_MAX, "default": ""},
            },
            ["game", "stake_cents", "players", "first_dealer"],
        ),
        "Step": _object(
            {"what": TEXT, "units": INTEGER, "total": INTEGER, "key": TEXT, "args": {"type": "object"}},
            ["what", "units", "total", "key", "args"],
        ),
        "Result": {
            "type": "object",
            "properties": {
                "winner": {"type": ["string", "integer", "null"]},
                "value": INTEGER,
                "deltas": {"type": "object", "additionalProperties": INTEGER, "description": "units per seat"},
                "steps": {"type": "array", "items": _ref("Step")},
            },
            "required": ["winner", "value", "deltas", "steps"],
            "description": "the engine's result of the hand; a game adds its own fields (docs/rules.md)",
        },
        "PlayedHand": _object(
            {
                "number": {"type": "integer", "minimum": 1},
                "dealer": {"type": "integer", "minimum": 1, "maximum": seats},
                "hand": {"type": "object", "description": "the hand as stored (with the dealer's seat)"},
                "result": _ref("Result"),
                "players": {"type": "array", "items": _object(payment, list(payment))},
            },
            ["number", "dealer", "hand", "result", "players"],
        ),
        "Totals": {"type": "array", "items": _object(money, list(money))},
        "Session": _object(
            {
                "id": ID,
                "game": {"type": "string", "enum": list(GAMES)},
                "rules": _ref("Rules"),
                "stake_cents": {"type": "integer", "minimum": 0, "maximum": STAKE_MAX_CENTS},
                "for_money": {
                    "type": "boolean",
                    "description": "whether the night is played for money (docs/rules.md): not at a stake of 0, "
                    "nor at a tournament's table, nor where its rules pay no unit; else every cents is 0",
                },
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "date": {"type": "string", "format": "date"},
                "place": {"type": "string", "maxLength": PLACE_MAX},
                "status": {"type": "string", "enum": ["open", "closed"]},
                "version": {"type": "integer", "minimum": 0, "description": "counts every change to the night"},
                "first_dealer": {"type": "integer", "minimum": 1, "maximum": seats},
                "players": {
                    "type": "array",
                    "items": _object({"seat": money["seat"], "id": ID, "name": TEXT}, ["seat", "id", "name"]),
                },
                "hands": {"type": "array", "items": _ref("PlayedHand")},
                "totals": _ref("Totals"),
                "next_dealer": {"type": "integer", "minimum": 1, "maximum": seats},
                "pot": {"type": "integer", "description": "units in the pot (Schafkopf with a pot)"},
                "pot_cents": INTEGER,
                "pot_moved": {
                    "type": "array",
                    "items": _ref("PotMoved"),
                    "description": "the carried pots of the night corrected after the next night took them: the "
                    "pots it took in (each from a night corrected since; a night takes every pot waiting), then "
                    "the pot it carried out (this night corrected since); neither night's figures change, the "
                    "difference is settled by hand (docs/rules.md, The pot); empty where none was",
                },
                **state,
            },
            [
                "id",
                "game",
                "rules",
                "stake_cents",
                "for_money",
                "currency",
                "date",
                "place",
                "status",
                "version",
                "first_dealer",
                "players",
                "hands",
                "totals",
                "next_dealer",
                "pot_moved",
            ],
        ),
        "PotMoved": _object(
            {
                "gave": {
                    "type": "boolean",
                    "description": "true: this night carried the pot out, and night_id took it; false: this night "
                    "took it in from night_id",
                },
                "night_id": {**ID, "description": "the other night of the two"},
                "date": {"type": "string", "format": "date", "description": "the other night's date"},
                "took": {**INTEGER, "description": "what the later night took in"},
                "now": {**INTEGER, "description": "what the earlier night carries out now"},
                "difference": {"type": "integer", "minimum": 1, "description": "between took and now"},
                "in_units": {
                    "type": "boolean",
                    "description": "took, now and difference are units (both nights at a stake of 0); else cents",
                },
            },
            ["gave", "night_id", "date", "took", "now", "difference", "in_units"],
        ),
        "HandAnswer": _object(
            {"hand": _ref("PlayedHand"), "totals": _ref("Totals"), "version": {"type": "integer", "minimum": 0}},
            ["hand", "totals", "version"],
        ),
        "Deleted": _object(
            {"deleted": {"type": "integer", "minimum": 1}, "totals": _ref("Totals"), "version": INTEGER},
            ["deleted", "totals", "version"],
        ),
        **_tournament_schemas(),
    }


NUMBER_OF = {"type": "integer", "minimum": 1, "description": "a start number"}
NULL_OR_INT = {"type": ["integer", "null"]}


def _tournament_schemas() -> dict[str, Any]:
    games = [g for name, g in GAMES.items() if name in tm.TOURNAMENT_GAMES]
    entrant = {
        "number": NUMBER_OF,
        "name": TEXT,
        "guest": {"type": "boolean", "description": "a guest: a start number, not on the roster"},
        "player_id": {"type": ["integer", "null"], "description": "the player: of the roster, or the guest's own"},
        "withdrawn_after": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "withdrawn after this round (not drawn again); null: playing",
        },
    }
    table = {
        "number": {"type": "integer", "minimum": 1},
        "night_id": {**ID, "description": "the table's night: its phone records through /sessions/{night_id}/hands"},
        "night_uid": {
            "type": "string",
            "description": "the uid of the table's night: a paper list sent with it is refused once the round "
            "is drawn again",
        },
        "night_version": {
            "type": "integer",
            "minimum": 0,
            "description": "the version of the table's night: a paper list sent with it is refused once the "
            "table's points (or anything else of it) changed since",
        },
        "join_code": {
            "type": ["string", "null"],
            "description": "the code a table's phone joins with (to a scorer or admin, while the table is open)",
        },
        "players": {
            "type": "array",
            "items": _object(
                {"number": NUMBER_OF, "name": TEXT, "player_id": {**ID, "description": "who sits there"}},
                ["number", "name", "player_id"],
            ),
            "description": "by table position (their player_id: a paper list's player_ids)",
        },
        "deals": {"type": "integer", "minimum": 0, "description": "deals played (a hand dealt again does not count)"},
        "points": {"type": "array", "items": INTEGER, "description": "points per table position so far"},
        "paper": {"type": "boolean", "description": "the points were typed from a paper list"},
        "done": {"type": "boolean"},
    }
    drawn_round = {
        "number": {"type": "integer", "minimum": 1},
        "byes": {"type": "array", "items": NUMBER_OF, "description": "who sits out (scores 0)"},
        "done": {"type": "boolean"},
        "tables": {"type": "array", "items": _object(table, list(table))},
    }
    tournament = {
        "id": ID,
        "name": TEXT,
        "date": {"type": "string", "format": "date"},
        "place": TEXT,
        "game": {"type": "string", "enum": list(tm.TOURNAMENT_GAMES)},
        "rules": _ref("Rules"),
        "rounds": {"type": "integer", "minimum": 1, "maximum": tm.ROUNDS_MAX},
        "deals": {"type": "integer", "minimum": 1, "maximum": tm.DEALS_MAX},
        "entry_fee_cents": {"type": "integer", "minimum": 0},
        "prizes": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "currency": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "the entry fee's and the prizes': the club's (SCOREKEEPER_CURRENCY) when it was made",
        },
        "status": {"type": "string", "enum": ["open", "closed"]},
        "version": {"type": "integer", "minimum": 0, "description": "counts every change to the tournament"},
        "entrants": {"type": "array", "items": _ref("Entrant")},
        "keep_apart": {
            "type": "array",
            "items": {"type": "array", "items": NUMBER_OF, "minItems": 2, "maxItems": 2},
            "description": "pairs of start numbers (smaller first) the draw seats at different tables",
        },
        "drawn": {"type": "array", "items": _ref("Round"), "description": "the rounds drawn so far"},
    }
    line = {
        "rank": {"type": "integer", "minimum": 1},
        "number": NUMBER_OF,
        "name": TEXT,
        "guest": {"type": "boolean"},
        "points": {
            "type": "array",
            "items": NULL_OR_INT,
            "description": "per round drawn (a bye scores 0; null: not played)",
        },
        "total": INTEGER,
        "solos_won": {"type": "integer", "minimum": 0},
        "solos_lost": {"type": "integer", "minimum": 0},
        "solos_known": {
            "type": "boolean",
            "description": "false where a table's paper list left this participant's solos out: they are "
            "unknown, and solos_won and solos_lost count them as 0 for the tie-break",
        },
        "decided_by": {
            "type": ["string", "null"],
            "enum": [*get_args(DecidedBy), None],
            "description": "the last rule needed to place the participant between their neighbours",
        },
    }
    return {
        "NewTournament": _object(
            {
                "name": {"type": "string", "minLength": 1, "maxLength": tm.NAME_MAX},
                "game": {"type": "string", "enum": list(tm.TOURNAMENT_GAMES)},
                "rules": {
                    "anyOf": [*(_rules_schema(g) for g in games), {"type": "null"}],
                    "description": "the game's rules: a preset's values, then the options given (fixed once "
                    "round 1 starts)",
                },
                "rounds": {"type": "integer", "minimum": 1, "maximum": tm.ROUNDS_MAX, "default": 2},
                "deals": {"type": "integer", "minimum": 1, "maximum": tm.DEALS_MAX, "default": 32},
                "played_on": {
                    "type": "string",
                    "format": "date",
                    "description": "from 1900-01-01 to a year from today",
                },
                "place": {"type": "string", "maxLength": tm.NAME_MAX, "default": ""},
                "entry_fee_cents": {"type": "integer", "minimum": 0, "maximum": tm.FEE_MAX_CENTS, "default": 0},
                "prizes": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": tm.PRIZE_MAX_CENTS},
                    "maxItems": tm.PRIZES_MAX,
                    "description": "in cents, first place first",
                },
            },
            ["name", "game"],
        ),
        "NewEntrant": {
            "oneOf": [
                _object({"player_id": ID}, ["player_id"], description="a player of the roster, or an earlier guest"),
                _object(
                    {"guest": {"type": "string", "minLength": 1, "maxLength": NAME_MAX}},
                    ["guest"],
                    description="a guest: not on the roster; a name no member has (an earlier guest's: them again)",
                ),
            ]
        },
        "Entrant": _object(entrant, list(entrant)),
        "Round": _object(drawn_round, list(drawn_round)),
        "PaperList": _object(
            {
                "points": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": -tm.PAPER_MAX, "maximum": tm.PAPER_MAX},
                    "description": "each player's final points of the round, by table position; they add up to 0",
                },
                "solos": {
                    "type": ["array", "null"],
                    "items": {
                        "type": ["array", "null"],
                        "items": {"type": "integer", "minimum": 0},
                        "minItems": 2,
                        "maxItems": 2,
                    },
                    "description": "each player's [solos won, solos lost], or null where the list does not say "
                    "(unknown); a player's two together, and all players' together, at most the round's deals",
                },
                "night_uid": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 32,
                    "description": "optional: the table's night_uid the list is for; the round drawn again since: 409",
                },
                "player_ids": {
                    "type": "array",
                    "items": ID,
                    "minItems": 1,
                    "description": "optional: the players the list is for (their player_id in the table's players), "
                    "by table position; another person seated since: 409",
                },
                "night_version": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "optional: the table's night_version the list is for; its points entered, "
                    "corrected or cleared since (another organiser's list): 409",
                },
            },
            ["points"],
        ),
        "Tournament": _object(tournament, list(tournament)),
        "Standings": _object(
            {
                "id": ID,
                "status": {"type": "string", "enum": ["open", "closed"]},
                "rounds": {"type": "integer", "minimum": 1},
                "drawn": {"type": "integer", "minimum": 0},
                "finished": {"type": "boolean", "description": "every round is drawn and over"},
                "standings": {"type": "array", "items": _object(line, list(line))},
            },
            ["id", "status", "rounds", "drawn", "finished", "standings"],
        ),
        "TournamentFile": _object(
            {
                "format": {"const": TOURNAMENT_FORMAT},
                "version": {"const": TOURNAMENT_VERSION},
                "tournament": {"type": "object"},
                "entrants": {"type": "array", "items": {"type": "object"}},
                "rounds": {"type": "array", "items": {"type": "object"}},
                "tables": {
                    "type": "array",
                    "items": {"type": "object", "description": "round, number, paper, and the night's export"},
                },
            },
            ["format", "version", "tournament", "entrants", "rounds", "tables"],
            description="The whole tournament, lossless (docs/api.md): `manage.py import-tournament` reads it.",
        ),
    }


# --- the operations ---------------------------------------------------------------------------

NIGHT_ID = {
    "name": "night_id",
    "in": "path",
    "required": True,
    "schema": ID,
    "description": "the night's id",
    "example": 1,
}
NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1, "maximum": ID_MAX},
    "description": "the hand's number in the night (1, 2, ...)",
    "example": 1,
}


def _path_number(name: str, description: str) -> dict[str, Any]:
    """A path parameter that is a number from 1 (a round's, a table's)."""
    schema = {"type": "integer", "minimum": 1}
    return {"name": name, "in": "path", "required": True, "schema": schema, "description": description, "example": 1}


ROUND_NUMBER = _path_number("round_number", "the round's number")
TABLE_NUMBER = _path_number("table", "the table's number in its round")
TOURNAMENT_ID = {
    "name": "tournament_id",
    "in": "path",
    "required": True,
    "schema": ID,
    "description": "the tournament's id",
    "example": 1,
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[\\x20-\\x7e]+$"},
    "description": "1 to 64 printable ASCII characters, chosen by the client for this hand: a repeat "
    "with the same key (a retry after a lost answer) records nothing and answers 200 with the hand first "
    "recorded with it.",
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": '^("?[0-9]{1,18}"?|\\*)$'},
    "description": "The night's `version` the client last read (as an answer gives it, quoted or not): the "
    "request is refused with 412 when the night has changed since, so a change or an undo never hits a hand "
    "another phone recorded meanwhile. Without it (or `*`), no check.",
}
START_KEY = {
    **IDEMPOTENCY_KEY,
    "description": "1 to 64 printable ASCII characters, chosen by the client for this night: a repeat by the "
    "same account with the same key (a retry after a lost answer) starts nothing and answers 200 with the "
    "night first started with it.",
}


def _body(schema: dict[str, Any], example: Any) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema, "example": example}}}


def _operation(endpoint: str, summary: str, answers: dict[int, Any], errors: list[int], **extra: Any) -> dict:
    responses: dict[str, Any] = {str(code): answer for code, answer in answers.items()}
    responses.update({str(code): _error(code) for code in errors})
    return {"operationId": endpoint, "summary": summary, "responses": responses, **extra}


def _paths() -> dict[str, Any]:
    session = _json(_ref("Session"), "The night.")
    hand_answer = "The hand's result and the night's totals after it."
    example_hand = {"contract": "rufen", "partner": 4, "points": 70, "raises": 5}
    return {
        "/openapi.json": {
            "get": _operation(
                "openapi_document",
                "This document (no token needed).",
                {200: _json({"type": "object"}, "The OpenAPI 3.1 document of the API.")},
                [],
                security=[],
            )
        },
        "/players": {
            "get": _operation(
                "players",
                "The roster (any account).",
                {
                    200: _json(
                        _object({"players": {"type": "array", "items": _ref("Player")}}, ["players"]), "The roster."
                    )
                },
                [401],
            ),
            "post": _operation(
                "add_player",
                "Add a player to the roster (scorer or admin).",
                {201: _json(_ref("Player"), "The new player.")},
                [400, 401, 403, 413],
                requestBody=_body(_ref("NewPlayer"), {"name": "Zenzi"}),
            ),
        },
        "/sessions": {
            "post": _operation(
                "create_session",
                "Start a night (scorer or admin).",
                {
                    201: _json(_ref("Session"), "The new night."),
                    200: _json(_ref("Session"), "A repeated Idempotency-Key: the night first started with it."),
                },
                [400, 401, 403, 413],
                parameters=[START_KEY],
                requestBody=_body(
                    _ref("NewSession"),
                    {
                        "game": "matzlfangen",
                        "stake_cents": 10,
                        "players": ["Anna", "Bernd", "Clara", "Dieter"],
                        "first_dealer": 1,
                        "place": "Zur Post",
                    },
                ),
            )
        },
        "/sessions/{night_id}": {
            "get": _operation(
                "get_session",
                "A night: its players, every hand with its result, the totals in units and cents.",
                {200: session},
                [401, 404],
                parameters=[NIGHT_ID],
            )
        },
        "/sessions/{night_id}/hands": {
            "post": _operation(
                "add_hand",
                "Record the next hand (a scorer, an admin).",
                {
                    201: _json(_ref("HandAnswer"), hand_answer),
                    200: _json(_ref("HandAnswer"), "A repeated Idempotency-Key: the hand first recorded with it."),
                },
                [400, 401, 403, 404, 409, 413],
                parameters=[NIGHT_ID, IDEMPOTENCY_KEY],
                requestBody=_body(_ref("Hand"), example_hand),
            )
        },
        "/sessions/{night_id}/hands/{number}": {
            "put": _operation(
                "put_hand",
                "Replace a hand; the later hands are settled again (a scorer, an admin).",
                {200: _json(_ref("HandAnswer"), hand_answer)},
                [400, 401, 403, 404, 409, 412, 413],
                parameters=[NIGHT_ID, NUMBER, IF_MATCH],
                requestBody=_body(_ref("Hand"), {**example_hand, "points": 60}),
            ),
            "delete": _operation(
                "delete_hand",
                "Undo the last hand; an earlier one is edited instead (a scorer, an admin).",
                {200: _json(_ref("Deleted"), "The hand is undone: the night's totals without it.")},
                [400, 401, 403, 404, 409, 412],
                parameters=[NIGHT_ID, NUMBER, IF_MATCH],
            ),
        },
        **_tournament_paths(),
    }


def _tournament_paths() -> dict[str, Any]:
    tournament = _json(_ref("Tournament"), "The tournament.")
    return {
        "/tournaments": {
            "post": _operation(
                "create_tournament",
                "Create a tournament (scorer or admin).",
                {201: _json(_ref("Tournament"), "The new tournament: no entrants, no round yet.")},
                [400, 401, 403, 413],
                requestBody=_body(
                    _ref("NewTournament"),
                    {
                        "name": "Preisschafkopf",
                        "game": "schafkopf",
                        "rules": {"preset": "turnier"},
                        "rounds": 2,
                        "deals": 32,
                        "played_on": "2026-11-21",
                        "place": "Zur Post",
                        "entry_fee_cents": 1500,
                        "prizes": [10000, 5000, 2500],
                    },
                ),
            )
        },
        "/tournaments/{tournament_id}": {
            "get": _operation(
                "get_tournament",
                "A tournament: its entrants and its rounds with their tables (any account).",
                {200: tournament},
                [401, 404],
                parameters=[TOURNAMENT_ID],
            )
        },
        "/tournaments/{tournament_id}/entrants": {
            "post": _operation(
                "add_entrant",
                "Enter a player of the roster or a guest: the next start number (scorer or admin).",
                {201: _json(_ref("Entrant"), "The new entrant.")},
                [400, 401, 403, 404, 409, 413],
                parameters=[TOURNAMENT_ID],
                requestBody=_body(_ref("NewEntrant"), {"guest": "Gustl"}),
            )
        },
        "/tournaments/{tournament_id}/apart": {
            "post": _operation(
                "keep_apart",
                "Keep two participants (start numbers) at different tables from the next draw on, or with "
                '"apart": false no longer; a drawn round not started that seats them together is drawn again '
                "(scorer or admin).",
                {200: tournament},
                [400, 401, 403, 404, 409, 413],
                parameters=[TOURNAMENT_ID],
                requestBody=_body(
                    _object(
                        {"first": NUMBER_OF, "second": NUMBER_OF, "apart": {"type": "boolean", "default": True}},
                        ["first", "second"],
                    ),
                    {"first": 3, "second": 7},
                ),
            )
        },
        "/tournaments/{tournament_id}/rounds": {
            "post": _operation(
                "draw_round",
                "Draw the next round when the one before is over: its tables, each a night whose phone "
                "records through /sessions/{night_id}/hands (scorer or admin).",
                {201: _json(_ref("Round"), "The round drawn: its tables with their night ids, and the byes.")},
                [400, 401, 403, 404, 409, 413],
                parameters=[TOURNAMENT_ID],
                requestBody={
                    "required": False,
                    "content": {
                        "application/json": {
                            "schema": {"type": "object", "maxProperties": 0},
                            "example": {},
                        }
                    },
                },
            )
        },
        "/tournaments/{tournament_id}/rounds/{round_number}/tables/{table}/paper": {
            "post": _operation(
                "enter_paper",
                "A table's final points (and solos) from its paper list, while the table has no deal recorded: "
                "the table is then done (scorer or admin). Sent with night_uid, player_ids and night_version, a list "
                "typed before the round was drawn again, another person took a seat or the table's points changed "
                "is refused (409), nothing saved. A list refused (400) names its first refusal and, in problems, "
                "every one (a player's points out of range, the points not adding up, a player's solos, the "
                "table's solos), so that all can be corrected at once.",
                {200: _json(_ref("Round"), "The table's round, its points from paper in it.")},
                [400, 401, 403, 404, 409, 413],
                parameters=[TOURNAMENT_ID, ROUND_NUMBER, TABLE_NUMBER],
                requestBody=_body(
                    _ref("PaperList"),
                    {"points": [12, -7, 3, -8], "solos": [[2, 0], [0, 1], None, [1, 1]]},
                ),
            )
        },
        "/tournaments/{tournament_id}/standings": {
            "get": _operation(
                "tournament_standings",
                "The standings, ties broken as RULES.md says (any account).",
                {200: _json(_ref("Standings"), "The standings, best first.")},
                [401, 404],
                parameters=[TOURNAMENT_ID],
            )
        },
        "/tournaments/{tournament_id}/export": {
            "get": _operation(
                "export_tournament",
                "The whole tournament as its export file (any account).",
                {200: _json(_ref("TournamentFile"), "The tournament's export file.")},
                [401, 404],
                parameters=[TOURNAMENT_ID],
            )
        },
    }


@cache
def _document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper API",
            "version": VERSION,
            "description": "Record card-game nights and their hands. The API in prose: docs/api.md; "
            "the games' hands and rules: docs/rules.md.",
        },
        "servers": [{"url": PREFIX}],
        "security": [{"bearer": []}],
        "paths": _paths(),
        "components": {
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API token of an account (made on the account page, or by an admin).",
                }
            },
            "schemas": _schemas(),
            "responses": {
                f"Error{code}": _json(_ref("Error"), text, **_www_authenticate(code)) for code, text in ERRORS.items()
            },
        },
    }


def _www_authenticate(code: int) -> dict[str, Any]:
    if code != 401:
        return {}
    return {"headers": {"WWW-Authenticate": {"schema": {"type": "string", "const": "Bearer"}}}}


def document() -> dict[str, Any]:
    """The OpenAPI document (a copy: the caller may change it)."""
    return copy.deepcopy(_document())
