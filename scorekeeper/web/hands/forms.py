"""One hand form per game. The forms only collect what the table says; every rule
(which fields apply, ranges, consistency) is the engine's: the fields a contract
shows come from the engine's ``ALLOWED`` tables and errors from its validation.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, ClassVar

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, Field, HiddenField, RadioField
from wtforms.fields.choices import SelectChoice
from wtforms.fields.core import UnboundField
from wtforms.validators import Optional, ValidationError
from wtforms.widgets import NumberInput

from scorekeeper.core.numbers import parse_int
from scorekeeper.engine import GAMES, Game, InvalidHand, deal, konter_a_matt, matzlfangen, schafkopf
from scorekeeper.engine.matt import CARD_VALUES
from scorekeeper.web.forms import Form, WholeNumberField, choices
from scorekeeper.web.labels import CARD_LABELS, CONTRACT_LABELS, SUIT_LABELS
from scorekeeper.web.messages import message


def _contracts(names: tuple[str, ...]) -> list[SelectChoice]:
    return choices((c, CONTRACT_LABELS[c]) for c in names)


class Engine:
    """What the engine demands of a field that needs no rules to check (a choice made, a number in range).

    The engine checks it on the server (its message, in the page's words), so this checks nothing there: it is
    what the page is told, so that a hand entered without a connection is checked too (static/outbox.js). It
    gives the field WTForms' flags (``required``, ``min``, ``max``: the input's attributes) and, in
    :meth:`words`, the engine's own refusals for them (the input's ``data-required`` and ``data-range``).
    """

    def __init__(self, *, required: bool = False, lo: int | None = None, hi: int | None = None) -> None:
        self.required, self.lo, self.hi = required, lo, hi
        self.field_flags: dict[str, Any] = {"required": True} if required else {}
        if lo is not None and hi is not None:
            self.field_flags |= {"min": lo, "max": hi}

    def __call__(self, form: Any, field: Any) -> None:
        """Nothing: the engine refuses the hand, with the same words."""

    def words(self, name: str, label: str) -> dict[str, str]:
        """The engine's refusals (web/messages.py) of a missing value and of one out of range, as the page says them."""
        out = {}
        if self.required:
            out["data-required"] = message(
                InvalidHand(None, name, "{name} is required", name=name), label, sentence=True
            )
        if "min" in self.field_flags:
            template = "{name} must be between {lo} and {hi}"
            exc = InvalidHand(None, name, template, name=name, lo=self.lo, hi=self.hi)
            out["data-range"] = message(exc, label, sentence=True)
        return out


def _says(say: Any, joins: bool = False) -> dict[str, Any]:
    """How a waiting hand's summary (static/outbox.js) labels a field's value: ``say`` with ``{value}``
    in it ("{value} Laufende"); ``joins``: it goes on the declarer before it ("Sepp spielt mit Resi")."""
    if say is None:
        return {}
    return {"data-say": say, **({"data-say-joins": "1"} if joins else {})}


#: The declarer, as a waiting hand's summary names them: the partner after them joins them.
DECLARER_SAYS = {"data-say-person": "1"}


def Segmented(
    label: Any,
    pairs: Any = (),
    default: str | None = None,
    required: bool = False,
    say: Any = None,
    joins: bool = False,
    say_kw: dict[str, str] | None = None,
) -> RadioField:
    """Radio buttons shown as segmented buttons; the engine validates the value (``required``: where shown)."""
    checks: list[Any] = [Optional(), *([Engine(required=True)] if required else [])]
    return RadioField(
        label,
        choices=choices(pairs),
        default=default,
        validate_choice=False,
        validators=checks,
        render_kw={**_says(say, joins), **(say_kw or {})} or None,
    )


#: A side's card points, as a waiting hand's summary says them.
POINTS_SAY = _l("{value} points")


def Points(label: Any, total: int, required: bool = True, say: Any = POINTS_SAY) -> WholeNumberField:
    """Card points, 0 to the game's ``total`` (required where shown, but for a Ramsch's rows: blank is 0)."""
    return WholeNumberField(
        label,
        validators=[Optional(), Engine(required=required, lo=0, hi=total)],
        widget=NumberInput(),
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off", **_says(say)},
    )


#: The called partner, as a waiting hand's summary says it after the declarer.
PARTNER_SAY = _l("plays with {value}")


def _int_or_raw(value: Any) -> Any:
    """Seat and level radios post digits; anything else goes to the engine as it is, to be refused."""
    number = parse_int(value, digits=5)
    return value if number is None else number


class HandForm(Form):
    """What every hand form has: the retry-safe key and the number of hands the form saw."""

    idempotency_key = HiddenField()
    expected_hands = HiddenField()
    #: the table position dealing the hand the form was made for (a new hand's): a hand kept offline and added
    #: later as the next hand lands only with the players it was entered with (core/hands.py ``_same_players``)
    dealt_by = HiddenField()

    #: fields whose value is a seat (posted as the engine seat number)
    SEAT_FIELDS: tuple[str, ...] = ()
    #: fields whose digits are text for the engine (Matt's card "10")
    TEXT_FIELDS: frozenset[str] = frozenset()
    #: the game's contract field and allowed table, if it has contracts
    ALLOWED: dict[str, frozenset[str]] | None = None
    #: fields that show an engine field under a name of their own: the engine field, and the one contract they
    #: show it for (None: any); every other field shows the engine field of its name
    SHOWS: ClassVar[Mapping[str, tuple[str, str | None]]] = {}

    names: dict[int, str]  # engine seat -> the player's name, once prepared
    #: contracts whose hand is dealt again by the same dealer (the engine's ``deal.deal_stays``): for the page's
    #: count of the deal behind hands waiting offline (static/outbox.js)
    deal_stays: str = ""

    def prepare(self, names: dict[int, str], hands: int, rules: Any, forehand_seat: int | None = None) -> None:
        """Fill the seat choices with the players' names (engine seat -> name) and the hidden fields."""
        self.names = names
        for name in self.SEAT_FIELDS:
            field = getattr(self, name)
            field.choices = choices(names.items())
        if not self.idempotency_key.data:
            self.idempotency_key.data = uuid.uuid4().hex
        if not self.expected_hands.data:
            self.expected_hands.data = str(hands)
        for field in self:  # the engine's refusals of what needs no rules, for the page's own check offline
            for check in field.validators:
                if isinstance(check, Engine):
                    field.render_kw = {**(field.render_kw or {}), **check.words(field.name, str(field.label.text))}

    def page_words(self) -> dict[str, Any]:
        """What the form calls the engine's keys, choices and seats: the words of its refusals (messages.message),
        each said as a sentence of its own (a capital letter first)."""
        labels = {field.name: field.label.text for field in self}
        values = {
            str(choice.value): choice.label
            for field in self
            if isinstance(field, RadioField) and field.name not in self.SEAT_FIELDS
            for choice in field.choices
            if not str(choice.value).isdigit()
        }
        return {"labels": labels, "values": values, "seats": getattr(self, "names", None), "sentence": True}

    @classmethod
    def unasked(cls, game: Game, rules: Any) -> frozenset[str]:
        """The fields the table is not asked for under ``rules`` (validated): those whose engine field does not
        count there (``Game.fields``: a contract not played, a raise where none is allowed, runners never paid)."""
        names = [name for name in dir(cls) if isinstance(getattr(cls, name, None), UnboundField)]
        shows = {name: cls.SHOWS.get(name, (name, None)) for name in names}
        return frozenset(name for name, (field, contract) in shows.items() if field not in game.fields(rules, contract))

    def expected(self) -> int | None:
        value = self.expected_hands.data
        return parse_int(value)

    def validate_expected_hands(self, field: HiddenField) -> None:
        """The form's own count of hands: digits, or the form was not made by this page."""
        if field.data and parse_int(field.data) is None:
            raise ValidationError(_l("This form is out of date: open it again from the table."))

    def shows(self, field: str) -> str:
        """The contracts a field is shown for, for the page's script (empty: always)."""
        if self.ALLOWED is None:
            return ""
        contracts = [c for c, allowed in self.ALLOWED.items() if field in allowed]
        return "" if len(contracts) == len(self.ALLOWED) else " ".join(contracts)

    def _collect(self, names: tuple[str, ...]) -> dict[str, Any]:
        """Posted values of ``names`` that were given, typed for the engine."""
        out: dict[str, Any] = {}
        for name in names:
            field = getattr(self, name)
            data = field.data
            if isinstance(field, BooleanField):
                if data:
                    out[name] = True
            elif isinstance(field, RadioField):
                if data not in (None, "", "None"):
                    out[name] = data if name in self.TEXT_FIELDS else _int_or_raw(data)
            elif data is not None:
                out[name] = data
        return out

    def hand_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def field_for(self, engine_field: str) -> str:
        """The form field that shows a refusal of the engine's ``engine_field`` (``points``, ``points.3``)."""
        return engine_field.split(".")[0]

    @classmethod
    def data_of(cls, hand: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        """A stored hand's form data (``data``, made field by field) where a form names a field otherwise."""
        return data


class MatzlfangenForm(HandForm):
    contract = Segmented(_l("Contract"), _contracts(matzlfangen.CONTRACTS), default="rufen")
    declarer = Segmented(_l("Declarer"), required=True, say_kw=DECLARER_SAYS)
    partner = Segmented(_l("Partner (called card)"), required=True, say=PARTNER_SAY, joins=True)
    points = Points(_l("Points of the declaring side"), matzlfangen.TOTAL_POINTS)
    schwarz = BooleanField(_l("The losing side took no trick"))
    won = Segmented(_l("Result"), [("1", _l("won")), ("0", _l("lost"))], required=True)
    raises = Segmented(
        _l("Raised to"), [("0", "–"), *((str(i), n) for i, n in enumerate(matzlfangen.RAISE_NAMES, 1))], default="0"
    )
    matzl = Segmented(
        _l("Matzl caught by"), [("", _l("nobody")), ("declarers", _l("declarers")), ("defenders", _l("defenders"))], ""
    )
    matzl_claimed = BooleanField(_l("Matzl bonus claimed"), default=True)

    SEAT_FIELDS = ("declarer", "partner")
    ALLOWED = matzlfangen.ALLOWED

    def prepare(self, names: dict[int, str], hands: int, rules: Any, forehand_seat: int | None = None) -> None:
        super().prepare(names, hands, rules, forehand_seat)
        # in rufen forehand declares and calls a card it does not hold: it is not its own partner
        self.partner.choices = [c for c in self.partner.choices if c.value != str(forehand_seat)]
        # only the raises the night's rules allow
        self.raises.choices = self.raises.choices[: len(matzlfangen.raise_names(rules)) + 1]
        if self.matzl.data in (None, "", "None"):  # no Matzl: the bonus toggle (not posted then) is on when one is
            self.matzl_claimed.data = True

    def hand_json(self) -> dict[str, Any]:
        contract = self.contract.data
        allowed = self.ALLOWED.get(contract, matzlfangen.FIELDS)
        names = tuple(f for f in matzlfangen.FIELDS if f in allowed and f != "contract" and f in self)
        hand = {"contract": contract, **self._collect(names)}
        if "won" in hand:
            hand["won"] = hand["won"] == 1
        if hand.get("raises") == 0:
            del hand["raises"]
        if "matzl" in hand:
            hand["matzl_claimed"] = bool(self.matzl_claimed.data)
        else:
            hand.pop("matzl_claimed", None)
        if contract == "rufen":
            hand.pop("declarer", None)  # forehand declares: the engine completes it from the deal
        return hand


def _runner_choices() -> list[SelectChoice]:
    """0 to 14 runners; the counts a Wenz cannot have say which contracts they are offered for."""
    out = []
    for n in range(max(schafkopf.MAX_RUNNERS.values()) + 1):
        beyond = " ".join(c for c, most in schafkopf.MAX_RUNNERS.items() if n <= most)
        kw = {} if beyond == " ".join(schafkopf.MAX_RUNNERS) else {"data-contracts": beyond}
        out.append(SelectChoice(str(n), str(n), render_kw=kw))
    return out


class SchafkopfForm(HandForm):
    contract = Segmented(_l("Game"), _contracts(schafkopf.CONTRACTS), default="sauspiel")
    declarer = Segmented(_l("Declarer"), required=True, say_kw=DECLARER_SAYS)
    partner = Segmented(_l("Partner (called ace)"), required=True, say=PARTNER_SAY, joins=True)
    #: the engine's ``suit``: in a Sauspiel the called ace (never Herz, trumps), in a Solo the trump suit
    suit = Segmented(_l("Called ace"), [(s, SUIT_LABELS[s]) for s in schafkopf.CALLABLE_SUITS], required=True)
    solo_suit = Segmented(_l("Solo suit"), [(s, SUIT_LABELS[s]) for s in schafkopf.SUITS], required=True)
    tout = BooleanField(_l("Tout"))
    won = Segmented(_l("Result"), [("1", _l("won")), ("0", _l("lost"))], required=True)
    points = Points(_l("Points of the declaring side"), schafkopf.TOTAL_POINTS)
    schwarz = BooleanField(_l("The losing side took no trick"))
    laufende = Segmented(_l("Runners"), _runner_choices(), default="0", say=_l("{value} runners"))
    kontra = BooleanField(_l("Kontra"))
    re = BooleanField(_l("Re"))
    klopfen = Segmented(_l("Knocks"), [(str(i), str(i)) for i in range(0, 5)], default="0", say=_l("knocked {value}×"))
    ramsch_1 = Points(_l("Points"), schafkopf.TOTAL_POINTS, required=False, say=None)
    ramsch_2 = Points(_l("Points"), schafkopf.TOTAL_POINTS, required=False, say=None)
    ramsch_3 = Points(_l("Points"), schafkopf.TOTAL_POINTS, required=False, say=None)
    ramsch_4 = Points(_l("Points"), schafkopf.TOTAL_POINTS, required=False, say=None)
    jungfrau_1 = BooleanField(_l("Jungfrau"))
    jungfrau_2 = BooleanField(_l("Jungfrau"))
    jungfrau_3 = BooleanField(_l("Jungfrau"))
    jungfrau_4 = BooleanField(_l("Jungfrau"))
    #: a Ramsch's points as a whole (they must add up to 120): its refusal is said at the rows, under their label
    points_each = Field(_l("Card points per player"))  # never rendered as a control of its own
    durchmarsch = Segmented(_l("Durchmarsch"))
    loser = Segmented(_l("Loser of the tie"))

    SEAT_FIELDS = ("declarer", "partner", "durchmarsch", "loser")
    ALLOWED = schafkopf.ALLOWED
    SHOWS: ClassVar[Mapping[str, tuple[str, str | None]]] = {
        "solo_suit": ("suit", "solo"),
        "points_each": ("points", "ramsch"),
        **{f"ramsch_{s}": ("points", "ramsch") for s in range(1, 5)},
        **{f"jungfrau_{s}": ("jungfrau", "ramsch") for s in range(1, 5)},
    }

    def prepare(self, names: dict[int, str], hands: int, rules: Any, forehand_seat: int | None = None) -> None:
        super().prepare(names, hands, rules, forehand_seat)
        self.contract.choices = _contracts(GAMES["schafkopf"].contracts(rules))  # a Ramsch or a Rundpass
        self.deal_stays = " ".join(deal.deal_stays(GAMES["schafkopf"], rules))  # a Rundpass the rules deal again
        self.durchmarsch.choices = [*choices([("", _l("nobody"))]), *self.durchmarsch.choices]

    def validate_suit(self, field: RadioField) -> None:
        if self.contract.data == "sauspiel" and field.data == "herz":
            raise ValidationError(_l("Herz is trumps: its ace cannot be called. Call Eichel, Gras or Schellen."))

    def field_for(self, engine_field: str) -> str:
        name, _, seat = engine_field.partition(".")
        if name == "points" and self.contract.data == "ramsch":
            return f"ramsch_{seat}" if seat else "points_each"  # a Ramsch's points per seat, or all of them
        if name == "suit" and self.contract.data == "solo":
            return "solo_suit"
        return name

    @classmethod
    def data_of(cls, hand: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        if hand.get("contract") == "solo" and "suit" in data:
            data["solo_suit"] = data.pop("suit")
        return data

    def hand_json(self) -> dict[str, Any]:
        contract = self.contract.data
        allowed = self.ALLOWED.get(contract, schafkopf.FIELDS)
        if contract == "ramsch":
            hand: dict[str, Any] = {"contract": "ramsch"}
            points = {str(s): getattr(self, f"ramsch_{s}").data for s in range(1, 5)}
            jungfrau = [s for s in range(1, 5) if getattr(self, f"jungfrau_{s}").data]
            durchmarsch = self.durchmarsch.data not in (None, "", "None")
            if durchmarsch:
                hand["durchmarsch"] = _int_or_raw(self.durchmarsch.data)
            # after a Durchmarsch the points, Jungfrauen and loser do not apply: given anyway, the engine says so
            if not durchmarsch or any(v is not None for v in points.values()):
                hand["points"] = {k: (0 if v is None else v) for k, v in points.items()}
            if jungfrau:
                hand["jungfrau"] = jungfrau
            if self.loser.data not in (None, "", "None"):
                hand["loser"] = _int_or_raw(self.loser.data)
            if self.klopfen.data not in (None, "", "0"):
                hand["klopfen"] = _int_or_raw(self.klopfen.data)
            return hand
        names = tuple(
            f
            for f in (
                "declarer",
                "partner",
                "suit",
                "tout",
                "won",
                "points",
                "schwarz",
                "laufende",
                "kontra",
                "re",
                "klopfen",
            )
            if f in allowed
        )
        hand = {"contract": contract, **self._collect(names)}
        if contract == "solo":
            hand.pop("suit", None)
            hand.update(self._collect(("solo_suit",)))
            if "solo_suit" in hand:
                hand["suit"] = hand.pop("solo_suit")
        # points and schwarz with a tout, or won without one, go to the engine, which refuses them:
        # the page shows each only where it applies, so a value there was meant and is never dropped
        if "won" in hand:
            hand["won"] = hand["won"] == 1
        for name in ("laufende", "klopfen"):
            if hand.get(name) == 0:
                del hand[name]
        return hand


class KonterAMattForm(HandForm):
    trump_team = Segmented(
        _l("Trumps chosen by"), [("A", "A"), ("B", "B")], required=True, say=_l("trumps: team {value}")
    )
    points_a = Points(_l("Points of team A"), konter_a_matt.TOTAL_POINTS, say=_l("team A {value} points"))
    schwarz = BooleanField(_l("The losing team took no trick"))
    matt = BooleanField(_l("Matt"))
    konter = BooleanField(_l("Konter"))

    def prepare(self, names: dict[int, str], hands: int, rules: Any, forehand_seat: int | None = None) -> None:
        super().prepare(names, hands, rules, forehand_seat)
        teams = GAMES["konter_a_matt"].teams  # each team's seats
        self.trump_team.choices = choices(
            (team, f"{team}: {' + '.join(names[seat] for seat in seats)}") for team, seats in teams.items()
        )

    def hand_json(self) -> dict[str, Any]:
        return self._collect(("trump_team", "points_a", "schwarz", "matt", "konter"))


class MattForm(HandForm):
    mated_by = Segmented(_l("Mate given by"))
    move = Segmented(_l("On move"), [(str(i), str(i)) for i in range(1, 11)], say=_l("on move {value}"))
    card = Segmented(_l("Mating card"), [(c, CARD_LABELS.get(c, c)) for c in CARD_VALUES])
    vorablegen = Segmented(_l("Cards laid aside"), [("0", "0"), ("1", "1"), ("2", "2")], default="0")
    uebermatt = BooleanField(_l("Übermatt"))

    SEAT_FIELDS = ("mated_by",)
    TEXT_FIELDS = frozenset({"card"})

    def prepare(self, names: dict[int, str], hands: int, rules: Any, forehand_seat: int | None = None) -> None:
        super().prepare(names, hands, rules, forehand_seat)
        self.mated_by.choices = [*self.mated_by.choices, *choices([("draw", _l("draw"))])]

    def hand_json(self) -> dict[str, Any]:
        if self.mated_by.data == "draw":
            hand: dict[str, Any] = {"mated_by": None}
            if self.vorablegen.data not in (None, "", "0"):
                hand["vorablegen"] = _int_or_raw(self.vorablegen.data)
            return hand
        hand = self._collect(("mated_by", "move", "card", "vorablegen", "uebermatt"))
        if hand.get("vorablegen") == 0:
            del hand["vorablegen"]
        return hand


FORMS: dict[str, type[HandForm]] = {
    "matzlfangen": MatzlfangenForm,
    "schafkopf": SchafkopfForm,
    "konter_a_matt": KonterAMattForm,
    "matt": MattForm,
}
