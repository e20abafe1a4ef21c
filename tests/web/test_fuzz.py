"""Fuzzing every form and every JSON API route with random and hostile values (Hypothesis).

Huge numbers, negative seats, wrong types, unknown and missing fields, very long strings,
control characters, SQL- and HTML-looking text, bodies that are not what the route reads,
ids that don't exist. For every request:

- never a 5xx;
- a refused request (4xx) changes nothing in the database (failed sign-ins excepted: they
  are counted on purpose);
- every refusal can be read: the API answers ``{"error": {"message": ...}}`` in plain words,
  a page shows its error list or the error page; never a traceback or a Python repr, never
  control characters, at most 500 characters.

A 2xx or 3xx is fine (random input can be valid): the fuzzing goes on from the new state.
The routes come from the app's URL map, and the tables below must name every one of them:
a new route without a fuzz entry fails :func:`test_every_route_has_a_fuzz_entry`.

What the fuzzing found (and what was then fixed) is pinned by the tests at the end of the file.
"""

from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wtforms.fields.core import UnboundField

from scorekeeper.core import accounts
from scorekeeper.core import tournaments as tm
from scorekeeper.core.hands import add_hands
from scorekeeper.core.models import Night
from scorekeeper.core.nights import close_night
from scorekeeper.core.text import has_control
from scorekeeper.engine import GAMES, konter_a_matt, matt, matzlfangen, schafkopf
from scorekeeper.web.accounts import forms as account_forms
from scorekeeper.web.hands.forms import FORMS as HAND_FORMS
from scorekeeper.web.nights.closing import ReopenForm
from scorekeeper.web.nights.forms import ChangeNightForm, DeleteNightForm, NightForm
from scorekeeper.web.players import forms as player_forms
from scorekeeper.web.signin import forms as signin_forms
from scorekeeper.web.tournaments import forms as tournament_forms
from tests.support import PASSWORD, make_user, page_text, signed_in, snapshot, start_night

EXAMPLES = 40  # per state-changing form route and backend
API_EXAMPLES = 100  # per API route (they are quick)
GET_EXAMPLES = 6  # each example asks every page and API read once


#: ``SCOREKEEPER_FUZZ_SCALE=20``: twenty times the examples, new ones on every run (a deeper search, by hand).
SCALE = int(os.environ.get("SCOREKEEPER_FUZZ_SCALE", "1"))


def fuzz_settings(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,  # else the same examples on every run: CI stays stable
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- what every route reads ------------------------------------------------------------------


def fields_of(*form_classes: type) -> tuple[str, ...]:
    """The field names of WTForms form classes (as a browser posts them)."""
    names: set[str] = set()
    for cls in form_classes:
        names |= {n for n in dir(cls) if isinstance(getattr(cls, n, None), UnboundField)}
    return tuple(sorted(names))


#: Every field of the JSON hands of RULES.md, of all four games (as the engines know them).
HAND_FIELDS = tuple(sorted(matzlfangen.FIELDS | schafkopf.FIELDS | konter_a_matt.FIELDS | matt.FIELDS))
RULE_OPTIONS = sorted({f.name for game in GAMES.values() for f in game.options()})
SESSION_FIELDS = ("game", "rules", "stake_cents", "players", "first_dealer", "currency", "date", "place")
TOURNAMENT_FIELDS = ("name", "game", "rules", "rounds", "deals", "played_on", "place", "entry_fee_cents", "prizes")

#: A valid first hand of each kind of night, as the engine takes it (tests/web/test_hands.py).
NIGHTS = {
    "matzlfangen": ("matzlfangen", 4, None, {"contract": "durch", "declarer": 1, "won": True}),
    "matzlfangen5": ("matzlfangen", 5, None, {"contract": "durch", "declarer": 1, "won": True}),
    "schafkopf": ("schafkopf", 4, None, {"contract": "rundpass"}),
    "ramsch": ("schafkopf", 4, {"preset": "bavarian"}, {"contract": "ramsch", "durchmarsch": 1}),
    "ramsch_named": (
        "schafkopf",
        4,
        {"preset": "bavarian", "ramsch_tie": "named"},
        {"contract": "ramsch", "durchmarsch": 1},
    ),
    "konter_a_matt": ("konter_a_matt", 4, None, {"trump_team": "A", "points_a": 25}),
    "matt": ("matt", 2, None, {"mated_by": None}),
}
#: ... and as the hand form posts it.
FORM_HANDS = {
    "matzlfangen": {"contract": "durch", "declarer": "1", "won": "1"},
    "matzlfangen5": {"contract": "rufen", "partner": "3", "points": "70"},
    "schafkopf": {"contract": "sauspiel", "declarer": "1", "partner": "3", "suit": "gras", "points": "70"},
    "ramsch": {"contract": "ramsch", "ramsch_1": "50", "ramsch_2": "30", "ramsch_3": "40", "ramsch_4": "0"},
    "ramsch_named": {"contract": "ramsch", **{f"ramsch_{i}": p for i, p in enumerate(("40", "40", "40", "0"), 1)}},
    "konter_a_matt": {"trump_team": "A", "points_a": "25", "matt": "y"},
    "matt": {"mated_by": "1", "move": "7", "card": "A"},
}


@dataclass
class World:
    """What the fuzzing starts from: nights of every game with two hands each, a closed night,
    the roster, a second account with a token, an open night's join code."""

    nights: dict[int, str]  # night id -> key of NIGHTS
    closed: int
    players: list[int]
    victim: int
    victim_token: int
    code: str
    tournaments: list[int] = field(default_factory=list)  # one with round 1 drawn and begun, one not drawn

    def kind(self, night_id: str | None) -> str:
        return self.nights.get(int(night_id), "matzlfangen") if night_id and night_id.isdigit() else "matzlfangen"


Base = Callable[[World, dict[str, str]], dict[str, Any]]


@dataclass(frozen=True)
class Write:
    """A state-changing route: the fields it reads and a valid request to start mutating from."""

    fields: tuple[str, ...]
    base: Base = lambda world, args: {}
    api: bool = False
    who: str = "admin"  # admin | anon | leaving (a client of its own that signs out)
    examples: int | None = None  # EXAMPLES, API_EXAMPLES


def _night_form(world: World, args: dict[str, str]) -> dict[str, Any]:
    seats = {f"seat_{i}": str(p) for i, p in enumerate(world.players[:4], start=1)}
    return {
        "game": "matzlfangen",
        "stake": "0,10",
        "currency": "EUR",
        "played_on": "2026-11-21",
        "first_dealer": "1",
        **seats,
    }


def _api_session(world: World, args: dict[str, str]) -> dict[str, Any]:
    return {"game": "schafkopf", "stake_cents": 10, "players": world.players[:4], "first_dealer": 2, "place": "Ochsen"}


def _api_tournament(world: World, args: dict[str, str]) -> dict[str, Any]:
    return {
        "name": "Preisschafkopf",
        "game": "schafkopf",
        "rules": {"preset": "turnier"},
        "rounds": 2,
        "deals": 32,
        "played_on": "2026-11-21",
        "place": "Ochsen",
        "entry_fee_cents": 1500,
        "prizes": [5000, 2500],
    }


def _tournament_form(world: World, args: dict[str, str]) -> dict[str, Any]:
    return {
        "name": "Preisschafkopf",
        "game": "schafkopf",
        "played_on": "2026-11-21",
        "rounds": "2",
        "deals": "32",
        "entry_fee": "10",
        "prizes": "50; 25",
        "schafkopf__preset": "turnier",
        "applied_preset": "turnier",
    }


#: A tournament's house rules as its rules page posts them (the game's options and its preset).
TOURNAMENT_RULE_FIELDS = (
    "game",
    "applied_preset",
    "apply_preset",
    "schafkopf__preset",
    *(f"schafkopf__{f.name}" for f in GAMES["schafkopf"].options()),
)

_PASSWORDS = {"password": "neu-und-lang", "confirm": "neu-und-lang"}

#: Every state-changing route (POST, PUT, DELETE), by endpoint.
WRITES: dict[str, Write] = {
    "players.index": Write(fields_of(player_forms.PlayerForm), lambda w, a: {"name": "Franz"}),
    "players.rename": Write(fields_of(player_forms.PlayerForm), lambda w, a: {"name": "Anni"}),
    "players.retire": Write(fields_of(player_forms.RetireForm), lambda w, a: {"retired": "1"}),
    "players.member": Write(()),
    "players.merge": Write(
        fields_of(player_forms.MergeForm), lambda w, a: {"other": str(w.players[-1]), "confirm": "y"}
    ),
    "nights.new": Write((*fields_of(NightForm), "apply_preset"), _night_form),
    "hands.new": Write(
        (*fields_of(*HAND_FORMS.values()), "action"), lambda w, a: {**FORM_HANDS[w.kind(a.get("night_id"))]}
    ),
    "hands.edit": Write(
        (*fields_of(*HAND_FORMS.values()), "action"), lambda w, a: {**FORM_HANDS[w.kind(a.get("night_id"))]}
    ),
    "hands.undo": Write(("expected_version",), lambda w, a: {"expected_version": "2"}),
    "nights.close": Write(()),
    "nights.change": Write(fields_of(ChangeNightForm), lambda w, a: {"played_on": "2026-03-14", "place": "Post"}),
    "nights.delete": Write(fields_of(DeleteNightForm), lambda w, a: {"reason": "started twice", "confirm": "y"}),
    "nights.reopen": Write(fields_of(ReopenForm), lambda w, a: {"reason": "a typo in hand 2"}),
    "signin.login": Write(fields_of(signin_forms.LoginForm), lambda w, a: {"name": "Admin"}, who="anon"),
    "signin.logout": Write((), who="leaving", examples=10),
    "signin.setup": Write(fields_of(signin_forms.SetupForm), lambda w, a: {"name": "Neu", **_PASSWORDS}, who="anon"),
    "signin.join_night": Write(fields_of(signin_forms.JoinForm), lambda w, a: {"code": w.code}, who="anon"),
    "signin.account": Write(
        fields_of(signin_forms.PasswordForm), lambda w, a: {"current": PASSWORD, **_PASSWORDS}, examples=20
    ),  # (each example checks a password hash: slow on purpose)
    "accounts.users": Write(
        fields_of(account_forms.UserForm), lambda w, a: {"name": "Neu", "role": "viewer", **_PASSWORDS}
    ),
    "accounts.user_role": Write(fields_of(account_forms.RoleForm), lambda w, a: {"role": "scorer", "active": "1"}),
    "accounts.user_password": Write(
        fields_of(account_forms.ResetPasswordForm), lambda w, a: {**_PASSWORDS}, examples=20
    ),
    "accounts.user_token": Write(fields_of(account_forms.TokenForm), lambda w, a: {"label": "phone"}),
    "accounts.revoke_token": Write(()),
    "api.add_player": Write(("name",), lambda w, a: {"name": "Franz"}, api=True),
    "api.create_session": Write(SESSION_FIELDS, _api_session, api=True),
    "api.add_hand": Write(HAND_FIELDS, lambda w, a: {**NIGHTS[w.kind(a.get("night_id"))][3]}, api=True),
    "api.put_hand": Write(HAND_FIELDS, lambda w, a: {**NIGHTS[w.kind(a.get("night_id"))][3]}, api=True),
    "api.delete_hand": Write((), api=True),
    "api.create_tournament": Write(TOURNAMENT_FIELDS, _api_tournament, api=True),
    "api.add_entrant": Write(("player_id", "guest"), lambda w, a: {"guest": "Gustl"}, api=True),
    "api.keep_apart": Write(("first", "second", "apart"), lambda w, a: {"first": 1, "second": 2}, api=True),
    "api.draw_round": Write((), api=True),
    "api.enter_paper": Write(
        ("points", "solos", "night_uid", "player_ids"), lambda w, a: {"points": [3, -1, -1, -1]}, api=True
    ),
    "tournaments.new": Write((*fields_of(tournament_forms.TournamentForm), "apply_preset"), _tournament_form),
    "tournaments.add_entrant": Write(fields_of(tournament_forms.EntrantForm), lambda w, a: {"guest": "Gustl"}),
    "tournaments.keep_apart": Write(
        fields_of(tournament_forms.KeepApartForm), lambda w, a: {"first": "1", "second": "2"}
    ),
    "tournaments.allow_together": Write(
        fields_of(tournament_forms.KeepApartForm), lambda w, a: {"first": "1", "second": "2"}
    ),
    "tournaments.withdraw": Write(("confirm",), lambda w, a: {"confirm": a.get("number", "")}),
    "tournaments.take_back": Write(()),
    "tournaments.replace": Write(fields_of(tournament_forms.EntrantForm), lambda w, a: {"guest": "Resi"}),
    "tournaments.draw": Write(("again",)),
    "tournaments.close": Write(()),
    "tournaments.reopen": Write(("reason",), lambda w, a: {"reason": "Tippfehler"}),
    "tournaments.paper": Write(
        (*(f"{k}{i}" for i in range(1, 6) for k in "pwl"), "night_uid", "players", "clear"),
        lambda w, a: {"p1": "3", "p2": "-1", "p3": "-1", "p4": "-1"},
    ),
    "tournaments.clear_paper": Write(("confirm",), lambda w, a: {"confirm": a.get("table", "")}),
    "tournaments.rules": Write(TOURNAMENT_RULE_FIELDS, lambda w, a: {"game": "schafkopf"}),
}

#: The query string every GET route reads (``lang`` and unknown keys are sent to all).
QUERIES: dict[str, tuple[str, ...]] = {
    "index": (),
    "favicon": (),
    "manifest": (),
    "offline.service_worker": (),
    "offline.page": ("unsaved",),
    "nights.index": ("game", "player", "place", "season", "since", "until", "page"),
    "leaderboard.index": ("game", "season", "sort"),
    "players.show": (),
    "players.index": (),
    "players.rename": (),
    "players.merge": (),
    "nights.new": (),
    "nights.show": ("all",),
    "nights.live": ("all",),
    "nights.version": (),
    "sessions.summary_pdf_alias": (),
    "hands.new": ("fragment",),
    "hands.edit": ("fragment",),
    "hands.undo": (),
    "nights.summary": ("bank",),
    "nights.pdf": (),
    "nights.close": (),
    "nights.reopen": (),
    "nights.change": (),
    "nights.delete": (),
    "nights.export_csv": (),
    "nights.export_json": (),
    "signin.login": ("next",),
    "signin.setup": (),
    "signin.join_night": ("table",),
    "nights.join_qr": (),
    "signin.account": (),
    "accounts.users": (),
    "accounts.user": (),
    "api.players": (),
    "api.get_session": (),
    "api.openapi_document": (),
    "api.get_tournament": (),
    "api.tournament_standings": (),
    "api.export_tournament": (),
    "tournaments.index": (),
    "tournaments.new": (),
    "tournaments.show": (),
    "tournaments.standings": ("board", "round"),
    "tournaments.cards": (),
    "tournaments.sheets": ("table",),
    "tournaments.withdraw": (),
    "tournaments.replace": (),
    "tournaments.results": (),
    "tournaments.paper": (),
    "tournaments.clear_paper": (),
    "tournaments.rules": (),
    "tournaments.reopen": (),
}

EXCLUDED = {"static": "files from disk: no input but the file name"}


def test_every_route_has_a_fuzz_entry(app):
    """A new route needs its fields in WRITES (POST, PUT, DELETE) or QUERIES (GET) above."""
    missing, writing, reading = [], set(), set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in EXCLUDED:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            table, name = (QUERIES, "QUERIES") if method == "GET" else (WRITES, "WRITES")
            (reading if method == "GET" else writing).add(rule.endpoint)
            if rule.endpoint not in table:
                missing.append(f"{method} {rule.rule} ({rule.endpoint}): add it to {name}")
    assert missing == [], "routes the fuzz test does not know:\n" + "\n".join(missing)
    assert set(WRITES) - writing == set(), "WRITES names routes that are gone (or take no POST, PUT, DELETE)"
    assert set(QUERIES) - reading == set(), "QUERIES names routes that are gone (or take no GET)"
    assert set(EXCLUDED) <= {rule.endpoint for rule in app.url_map.iter_rules()}


# --- hostile values ---------------------------------------------------------------------------

NASTY_TEXT = [
    "",
    " ",
    "\t",
    "0",
    "-0",
    "-1",
    "-5",
    "1.5",
    "1e308",
    "-1e309",
    "NaN",
    "Infinity",
    "true",
    "false",
    "null",
    "None",
    "[]",
    "{}",
    str(10**30),
    str(-(10**30)),
    str(2**31),
    str(2**63),
    "9" * 5000,  # beyond Python's int() digit limit
    "x" * 10_000,
    "ü" * 10_001,
    "\x00",
    "Anna\x00",
    "\x1b[2J\x1b[31m",
    "\u202eevil",
    "\u2028",
    "\ufeff",
    "\r\n",
    "\x7f",
    "🃏" * 50,
    "'; DROP TABLE player; --",
    '" OR 1=1 --',
    "<script>alert(1)</script>",
    "</textarea><img src=x onerror=alert(1)>",
    "{{7*7}}",
    "${7*7}",
    "%s%s%s%n",
    "%(name)s",
    "{0}{name}{__class__}",
    "../../etc/passwd",
    "İ",
    "ß",
    "ﬀ",
]
DOMAIN = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "y",
    "on",
    "save",
    "preview",
    "rufen",
    "treiben",
    "durch",
    "sauspiel",
    "wenz",
    "solo",
    "ramsch",
    "rundpass",
    "herz",
    "gras",
    "A",
    "B",
    "10",
    "draw",
    "declarers",
    "defenders",
    "matzlfangen",
    "schafkopf",
    "konter_a_matt",
    "matt",
    "seed",
    "bavarian",
    "EUR",
    "0,10",
    "1000,00",
    "1000,01",
    "2026-11-21",
    "2026-02-30",
    "0001-01-01",
    "9999-12-31",
    "viewer",
    "scorer",
    "admin",
    "Anna",
    "Admin",
    "money",
    "win_rate",
    "2026",
    PASSWORD,
    "neu-und-lang",
]
NASTY_NUMBERS = [0, -1, 1, 2, 3, 4, 5, 130, 131, 2**31 - 1, 2**31, -(2**31), 2**63, 10**30, -(10**30)]
EXTRA_FIELDS = [
    "csrf_token",
    "__class__",
    "id",
    "night_id",
    "seat_9",
    "ramsch_5",
    "jungfrau_0",
    "name[]",
    "",
    "\x00",
    "rules.x",
    "hands",
    "x" * 1000,
]
BAD_IDS = ["0", "999999", str(2**31 - 1), str(2**31), str(10**30), "-1", "abc", "1.5", "01", "%00", "1e3"]


def one_in(n: int) -> st.SearchStrategy[bool]:
    """True about once in ``n`` draws (Hypothesis draws from a small range about evenly)."""
    return st.integers(1, n).map(lambda k: k == n)


def mostly(common: st.SearchStrategy, rare: st.SearchStrategy, n: int = 5) -> st.SearchStrategy:
    """``common``, and about once in ``n`` draws ``rare``."""
    return one_in(n).flatmap(lambda r: rare if r else common)


class Upload:
    """A file where the form expects text (the client posts multipart)."""

    def __repr__(self) -> str:
        return "Upload()"


text_value = st.one_of(
    st.sampled_from(NASTY_TEXT),
    st.sampled_from(DOMAIN),
    st.text(max_size=40),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)
form_value = st.one_of(
    text_value,
    text_value,
    text_value,
    st.lists(text_value, min_size=2, max_size=3),  # the field posted several times
    st.just(Upload()),
)
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(NASTY_NUMBERS),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(),  # NaN and ±Infinity too: Python's JSON reads them
    st.sampled_from(NASTY_TEXT),
    st.sampled_from(DOMAIN),
    st.text(max_size=30),
)
json_key = st.one_of(
    st.sampled_from([*HAND_FIELDS, *RULE_OPTIONS, "1", "5", "preset"]),
    st.sampled_from(EXTRA_FIELDS),
    st.text(max_size=8),
)
json_value = st.one_of(
    json_leaf,
    json_leaf,
    st.lists(json_leaf, max_size=5),
    st.dictionaries(json_key, json_leaf, max_size=4),
    st.recursive(
        json_leaf,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(json_key, inner, max_size=4)),
        max_leaves=12,
    ),
)
RAW_BODIES = [
    b"",
    b"{",
    b"null",
    b"[]",
    b'"text"',
    b"{'name': 'x'}",
    b"\xff\xfe\x00\x01",
    b"[" * 2000 + b"]" * 2000,
    b'{"points": ' + b"1" * 5000 + b"}",  # an integer beyond Python's digit limit
    b'{"name": NaN, "points": Infinity}',
    b'{"name": "a", "name": "b"}',
    b"name=Franz&contract=rufen",
    b'--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nFranz\r\n--x--\r\n',
    b"--x\r\nbroken",
    b"<script>alert(1)</script>",
    ("x" * 100_000).encode(),
]
CONTENT_TYPES = [
    "application/json",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "multipart/form-data",
    "application/octet-stream",
]
header_text = st.one_of(
    st.sampled_from(["", " ", "k", "x" * 64, "x" * 65, "x" * 10_000, "ä", "a b", "'; DROP TABLE hand; --"]),
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=70),
    st.text(st.characters(min_codepoint=160, max_codepoint=255), max_size=10),
)


def path_value(world: World, name: str) -> st.SearchStrategy[str]:
    """A value for a URL's part: mostly one that exists, else an unknown, huge or malformed id."""
    good: list[Any]
    if name == "night_id":
        good = [*sorted(world.nights), world.closed]
    elif name == "number":
        good = [1, 2]
    elif name == "player_id":
        good = world.players
    elif name == "tournament_id":
        good = world.tournaments
    elif name in ("round_number", "table"):  # a tournament's round, a round's table
        good = [1, 2]
    elif name == "user_id":
        good = [world.victim]
    elif name == "token_id":
        good = [world.victim_token]
    elif name in ("code", "token"):
        return mostly(st.just(world.code), st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=20)), 2)
    else:
        raise AssertionError(f"no fuzz values for the URL part {name!r}: add them to path_value")
    return mostly(st.sampled_from([str(v) for v in good]), st.sampled_from(BAD_IDS))


_PART = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")


def draw_path(data, world: World, rule) -> tuple[str, dict[str, str]]:
    args = {name: data.draw(path_value(world, name), label=name) for name in sorted(rule.arguments)}
    return _PART.sub(lambda m: quote(args[m.group(1)], safe=""), rule.rule), args


def draw_query(data, fields: tuple[str, ...]) -> dict[str, Any]:
    names = [*fields, "lang", "next", "fragment"]
    chosen = data.draw(st.lists(st.sampled_from(names), unique=True, max_size=3), label="query fields")
    query = {name: data.draw(mostly(text_value, st.lists(text_value, max_size=2)), label=name) for name in chosen}
    if data.draw(one_in(4), label="unknown query field?"):
        query[data.draw(st.sampled_from(EXTRA_FIELDS), label="query extra")] = data.draw(text_value)
    return query


def mutate(data, base: dict[str, Any], fields: tuple[str, ...], value: st.SearchStrategy) -> dict[str, Any]:
    """A valid request (or nothing) with fields changed, dropped and added."""
    values = {} if data.draw(one_in(4), label="start from nothing?") else dict(base)
    if fields:
        changed = data.draw(st.lists(st.sampled_from(fields), unique=True, max_size=4), label="changed fields")
        for name in changed:
            how = data.draw(st.sampled_from(["set", "set", "set", "drop", "in the list"]), label=f"{name}: how")
            if how == "drop":
                values.pop(name, None)
            elif how == "in the list" and isinstance(values.get(name), list) and values[name]:
                items = list(values[name])
                items[data.draw(st.integers(0, len(items) - 1), label="item")] = data.draw(json_leaf, label="to")
                values[name] = items
            else:
                values[name] = data.draw(value, label=name)
    if data.draw(one_in(3), label="unknown fields?"):
        for _ in range(data.draw(st.integers(1, 2), label="how many")):
            name = data.draw(st.one_of(st.sampled_from(EXTRA_FIELDS), st.text(max_size=12)), label="unknown field")
            values[name] = data.draw(value, label=f"unknown {name!r}")
    return values


# --- the checks ---------------------------------------------------------------------------------


def changes(before: dict[str, list[str]], after: dict[str, list[str]]) -> str:
    out = []
    for name in sorted(set(before) | set(after)):
        gone = set(before.get(name, [])) - set(after.get(name, []))
        new = set(after.get(name, [])) - set(before.get(name, []))
        if gone or new:
            out.append(f"{name}: -{sorted(gone)[:3]} +{sorted(new)[:3]}")
    return "; ".join(out)


#: Signs of a message that is not for people: Python's inside showing through.
NOT_FOR_PEOPLE = ("Traceback", "Error(", "<class", "object at 0x", "None")


def unreadable(message: str, sent: str) -> str | None:
    """Why a message can't be read (None: it can). A sign the request itself held is not held against it."""
    if not message.strip():
        return "the message is empty"
    if len(message) > 500:
        return f"the message has {len(message)} characters"
    if has_control(message):
        return "the message holds control characters"
    for sign in NOT_FOR_PEOPLE:
        if sign in message and sign not in sent:
            return f"the message shows {sign!r}"
    return None


def page_messages(body: str, status: int) -> list[str]:
    """The messages a page shows: field errors, the form's errors, flashes, or the error page's."""
    found = re.findall(r'<ul class="errors"[^>]*>(.*?)</ul>', body, re.S)
    messages = [page_text(li) for ul in found for li in re.findall(r"<li>(.*?)</li>", ul, re.S)]
    for block in re.findall(r'<div class="errors form-errors"[^>]*>(.*?)</div>', body, re.S):
        messages += [page_text(p) for p in re.findall(r"<p>(.*?)</p>", block, re.S)]
    messages += [page_text(p) for p in re.findall(r'<p class="flash[^"]*"[^>]*>(.*?)</p>', body, re.S)]
    messages += [page_text(p) for p in re.findall(r'<p class="errors">(.*?)</p>', body, re.S)]  # a form's fragment
    if re.search(rf"<title>{status} · Scorekeeper</title>", body):  # the error page
        page = re.search(r"<main>(.*?)</main>", body, re.S).group(1)
        title = re.search(r"<h1>(.*?)</h1>\s*(?:<p>(.*?)</p>)?", page, re.S)
        messages += [page_text(part) for part in title.groups() if part] if title else []
    return messages


def described(path: str, query: dict[str, Any], request: dict[str, Any]) -> str:
    """The request as text, JSON as JSON (``null``, not ``None``): what a message may echo."""
    body = json.dumps(request["json"], ensure_ascii=False) if "json" in request else repr(request.get("data"))
    return f"{path} {query!r} {request.get('headers', {})!r} {body}"


def check(answer, before, after, sent: str, api: bool) -> None:
    status = answer.status_code
    body = answer.get_data().decode("utf-8", "replace")  # a PDF too
    assert status < 500, f"{status} for {sent[:1500]}\n{body[:1500]}"
    if 400 <= status < 500:
        assert after == before, f"refused with {status}, yet changed {changes(before, after)}: {sent[:500]}"
    if status < 400:
        return
    if api:
        answer_json = answer.get_json(silent=True)
        assert isinstance(answer_json, dict), f"{status}: the API answered no JSON object: {body[:300]!r}"
        error = answer_json.get("error")
        assert isinstance(error, dict), f"{status}: no error object: {answer_json!r:.300}"
        message = error.get("message")
        assert isinstance(message, str), f"{status}: no message: {error!r:.300}"
        why = unreadable(message, sent)
        assert why is None, f"{status}: {why}: {message[:600]!r}"
        return
    assert "Traceback" not in body
    if answer.is_json:  # the hand form's live preview (?fragment=): its box shows one line, error.message
        message = (answer.get_json(silent=True) or {}).get("error", {}).get("message")
        assert isinstance(message, str) and message.strip(), f"{status}: the preview's line is empty: {body[:300]!r}"
        why = unreadable(message, sent)
        assert why is None, f"{status}: {why}: {message[:600]!r}"
        return
    messages = page_messages(body, status)
    if status in (400, 409, 429):
        assert messages, f"{status}: the page shows no message: {page_text(body)[:600]!r}"
    for message in messages:
        why = unreadable(message, sent)
        assert why is None, f"{status}: {why}: {message[:600]!r}"


# --- the fixtures: one world per test, the examples go on in it -------------------------------


@pytest.fixture
def world(app, db, players, admin) -> World:
    nights = {}
    for kind, (game, seats, rules, hand) in NIGHTS.items():
        night = start_night(db, players, game=game, seats=seats, rules=rules)
        add_hands(db=db, night_id=night.id, hands=[hand, hand])
        nights[night.id] = kind
    closed = start_night(db, players)
    add_hands(db=db, night_id=closed.id, hands=[NIGHTS["matzlfangen"][3]])
    close_night(db=db, night_id=closed.id)
    code = db.get(Night, min(nights)).join_code
    db.rollback()  # end the read: the next write must not start from a snapshot older than make_user's
    victim = make_user(app, "Vera", "viewer")
    token, _ = accounts.create_token(db=db, user=victim, label="phone")
    db.rollback()
    tournaments = []
    for drawn in (True, False):
        t = tm.create_tournament(db=db, name="Turnier", game="schafkopf", rules={"preset": "turnier"}, deals=2)
        for p in players:
            tm.add_entrant(db=db, tournament_id=t.id, player_id=p.id)
        if drawn:
            tm.draw_round(db=db, tournament_id=t.id)
            table = tm.read_tournament(db=db, tournament_id=t.id).rounds[0].tables[0]
            add_hands(db=db, night_id=table.night.id, hands=[{"contract": "wenz", "declarer": 1, "points": 61}])
        tournaments.append(t.id)
    db.rollback()
    return World(nights, closed.id, [p.id for p in players], victim.id, token.id, code, tournaments)


def _form_request(data, world: World, endpoint: str, args: dict[str, str], fields: tuple[str, ...]) -> dict[str, Any]:
    """A form post with hostile values, or a body of another kind than a form."""
    mode = data.draw(mostly(st.just("form"), st.sampled_from(["json", "raw"]), 4), label="body")
    if mode == "raw":
        content_type = data.draw(st.sampled_from(CONTENT_TYPES), label="content type")
        return {"data": data.draw(st.sampled_from(RAW_BODIES), label="raw body"), "content_type": content_type}
    values = mutate(data, WRITES[endpoint].base(world, args), fields, json_value if mode == "json" else form_value)
    if mode == "json":
        return {"json": values}
    upload = (io.BytesIO(b"<script>alert(1)</script>"), "x.txt")
    return {"data": {k: upload if isinstance(v, Upload) else v for k, v in values.items()}}


def _api_request(data, base: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """A JSON body with hostile values, any JSON at all, or a body that is not JSON; odd headers."""
    mode = data.draw(mostly(st.just("object"), st.sampled_from(["any", "raw"]), 4), label="body")
    headers = {}
    if data.draw(one_in(3), label="idempotency key?"):
        headers["Idempotency-Key"] = data.draw(header_text, label="Idempotency-Key")
    if data.draw(one_in(10), label="another token?"):
        scheme = data.draw(st.sampled_from(["Bearer ", "Bearer skt_", "Basic ", "", "bearer  "]), label="scheme")
        headers["Authorization"] = scheme + data.draw(header_text, label="token")
    if mode == "object":
        return {"json": mutate(data, base, fields, json_value), "headers": headers}
    if mode == "any":
        return {"json": data.draw(json_value, label="body"), "headers": headers}
    return {
        "data": data.draw(st.sampled_from(RAW_BODIES), label="raw body"),
        "content_type": data.draw(st.sampled_from(CONTENT_TYPES), label="content type"),
        "headers": headers,
    }


@pytest.mark.parametrize("endpoint", sorted(WRITES))
def test_a_hostile_request_to_a_state_changing_route_is_answered_and_refusals_change_nothing(
    app, db, world, client, anon, admin, endpoint
):
    """One route, many requests in a row in one world: every answer is checked, and the next request
    starts from whatever the one before left (a valid request may well have changed something)."""
    spec = WRITES[endpoint]
    clients = {"admin": client, "anon": anon, "leaving": signed_in(app, admin) if spec.who == "leaving" else None}
    rules = [
        (rule, method)
        for rule in app.url_map.iter_rules(endpoint)
        for method in sorted(rule.methods - {"GET", "HEAD", "OPTIONS"})
    ]
    assert rules, f"no route {endpoint}"
    state = {"before": snapshot(db)}

    @fuzz_settings(spec.examples or (API_EXAMPLES if spec.api else EXAMPLES))
    @given(data=st.data())
    def fuzz(data):
        rule, method = data.draw(st.sampled_from(rules), label="route")
        path, args = draw_path(data, world, rule)
        query = draw_query(data, QUERIES.get(endpoint, ()))
        if spec.api:
            request = _api_request(data, spec.base(world, args), spec.fields)
        else:
            request = _form_request(data, world, endpoint, args, spec.fields)
        answer = clients[spec.who].open(path, method=method, query_string=query, **request)
        after = snapshot(db)
        sent = described(path, query, request)
        try:
            check(answer, state["before"], after, sent, spec.api)
        finally:
            state["before"] = after

    fuzz()


#: The GET routes are asked in this many parts, each a test of its own that pytest-xdist's workers share.
GET_PARTS = 3


@pytest.mark.slow  # 6-11 s a part
@pytest.mark.parametrize("part", range(GET_PARTS))
def test_every_page_and_api_read_survives_hostile_query_strings_and_ids(app, db, world, client, part):
    """Every GET route, each example once: hostile query strings and URL parts; reads change nothing when refused."""
    rules = [
        rule
        for rule in app.url_map.iter_rules()
        if "GET" in rule.methods and rule.endpoint not in EXCLUDED and rule.endpoint in QUERIES
    ][part::GET_PARTS]
    state = {"before": snapshot(db)}

    @fuzz_settings(GET_EXAMPLES)
    @given(data=st.data())
    def fuzz(data):
        for rule in rules:
            path, _ = draw_path(data, world, rule)
            query = draw_query(data, QUERIES[rule.endpoint])
            answer = client.get(path, query_string=query)
            after = snapshot(db)
            sent = repr((path, query))
            try:
                check(answer, state["before"], after, f"GET {sent}", path.startswith("/api/"))
            finally:
                state["before"] = after

    fuzz()


def test_the_checks_catch_what_they_are_for():
    """The helpers above: a Python repr is unreadable, unless the request itself held it."""
    assert unreadable("there is no player None", '{"players": [null]}') == "the message shows 'None'"
    assert unreadable("there is no player None", "{'name': 'None'}") is None
    assert unreadable("x" * 501, "") == "the message has 501 characters"
    assert unreadable("a\x1bb", "") == "the message holds control characters"
    assert unreadable("", "") == "the message is empty"
    assert unreadable("Traceback (most recent call last):", "") == "the message shows 'Traceback'"
    assert page_messages('<ul class="errors" id="name-errors"><li>zu &lt;lang&gt;</li></ul>', 400) == ["zu <lang>"]


# --- what the fuzzing found once, pinned (each answered 500, or a message no one could read) ----------

_DEEP = b"[" * 2000 + b"]" * 2000
KNOWN_FORM_500 = [
    pytest.param("anon", "/login", {"data": b"[1]"}, id="1-login-json-list"),
    pytest.param("anon", "/login", {"data": b'"name"'}, id="1-login-json-text"),
    pytest.param("anon", "/login", {"data": _DEEP}, id="1-login-json-nested-2000"),
    pytest.param("client", "/players/", {"data": b"5"}, id="1-players-json-number"),
    pytest.param("client", "/nights/{night}/hands/new", {"data": b'{"points": Infinity}'}, id="1-hand-points-infinity"),
    pytest.param("client", "/nights/new", {"data": b'{"played_on": 5}'}, id="1-night-date-number"),
    pytest.param("client", "/nights/new", {"data": b'{"currency": 3}'}, id="1-night-currency-number"),
    pytest.param("client", "/nights/new", {"upload": "currency"}, id="2-night-currency-file"),
]


@pytest.mark.parametrize(("who", "path", "body"), KNOWN_FORM_500)
def test_a_form_refuses_a_json_body_or_a_file_it_cannot_read(request, world, who, path, body):
    path = path.format(night=min(world.nights))
    client = request.getfixturevalue(who)
    if "upload" in body:
        answer = client.post(path, data={body["upload"]: (io.BytesIO(b"EUR"), "x.txt")})
    else:
        answer = client.post(path, data=body["data"], content_type="application/json")
    assert answer.status_code == 400


def test_a_null_in_a_json_body_to_a_form_is_not_the_text_none(client, world):
    answer = client.post(f"/nights/{min(world.nights)}/hands/new", json={"contract": None, "action": "preview"})
    assert answer.status_code == 400
    assert all("None" not in m for m in page_messages(answer.get_data(as_text=True), 400))


def test_the_page_of_an_unexpected_failure_is_the_apps_own_for_a_signed_in_user(app, client):
    from scorekeeper.web.access import VIEWER, access

    @access(VIEWER)
    def broken():
        raise RuntimeError("a bug")

    app.add_url_rule("/broken-for-the-test", "broken_for_the_test", broken)
    answer = client.get("/broken-for-the-test")
    assert answer.status_code == 500
    assert "<title>500 · Scorekeeper</title>" in answer.get_data(as_text=True)


def test_the_api_names_an_unknown_player_in_json_words(client, world):
    body = {"game": "matzlfangen", "stake_cents": 10, "players": [None, *world.players[1:4]], "first_dealer": 1}
    answer = client.post("/api/v1/sessions", json=body)
    assert answer.status_code == 400
    assert "None" not in answer.get_json()["error"]["message"]


_LONG = "x" * 1000
_SESSION = {"game": "matzlfangen", "stake_cents": 10, "first_dealer": 1}
KNOWN_LONG_QUOTES = [
    pytest.param("/api/v1/sessions", {**_SESSION, "players": [1, 2, 3, 4], _LONG: 1}, id="session-unknown-field"),
    pytest.param("/api/v1/sessions", {**_SESSION, "players": [_LONG, 2, 3, 4]}, id="session-player-name"),
    pytest.param("/api/v1/sessions", {**_SESSION, "players": [1, 2, 3, 4], "rules": {_LONG: 1}}, id="session-rule"),
    pytest.param("/api/v1/sessions", {**_SESSION, "players": [1, 2, 3, 4], "game": _LONG}, id="session-game"),
    pytest.param("/api/v1/sessions/{night}/hands", {"contract": _LONG}, id="hand-contract"),
    pytest.param("/api/v1/sessions/{night}/hands", {"contract": "durch", "declarer": 1, _LONG: 1}, id="hand-field"),
]


@pytest.mark.parametrize(("path", "body"), KNOWN_LONG_QUOTES)
def test_an_api_message_quotes_at_most_a_short_piece_of_the_request(client, world, path, body):
    answer = client.post(path.format(night=min(world.nights)), json=body)
    assert answer.status_code == 400
    assert len(answer.get_json()["error"]["message"]) <= 500


def test_a_hand_form_message_quotes_at_most_a_short_piece_of_the_request(client, world):
    answer = client.post(f"/nights/{min(world.nights)}/hands/new", data={"contract": _LONG, "action": "preview"})
    assert answer.status_code == 400
    messages = page_messages(answer.get_data(as_text=True), 400)
    assert messages and all(len(m) <= 500 for m in messages)


def test_the_hand_form_shows_why_it_refuses_a_loser_the_rules_do_not_name(client, world):
    night = next(i for i, kind in world.nights.items() if kind == "ramsch")
    answer = client.post(f"/nights/{night}/hands/new", data={**FORM_HANDS["ramsch"], "loser": "1", "action": "save"})
    assert answer.status_code == 400
    assert page_messages(answer.get_data(as_text=True), 400)
