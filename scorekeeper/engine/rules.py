"""Rule sets: frozen dataclasses whose fields are the house-rule options.

Each option is declared with :func:`option`, which keeps its constraints in the
field's metadata so that the engine validates a rule set, and the web builds
its form, from the same declaration.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from .errors import InvalidHand
from .fields import check_object, shown, type_name

R = TypeVar("R")


def option(
    default: Any,
    *,
    lo: int | None = None,
    hi: int | None = None,
    choices: tuple[str, ...] | None = None,
    nullable: bool = False,
    help: str = "",
) -> Any:
    """Declare one rule option: its default and what values it takes."""
    return dataclasses.field(
        default=default,
        metadata={"lo": lo, "hi": hi, "choices": choices, "nullable": nullable, "help": help},
    )


def options(rules_cls: type) -> list[dataclasses.Field]:
    """The option fields of a rule-set class (``preset`` excluded)."""
    return [f for f in dataclasses.fields(rules_cls) if f.name != "preset"]


def _check_value(f: dataclasses.Field, value: Any) -> Any:
    name = f"rules.{f.name}"
    meta = f.metadata
    if value is None:
        if meta["nullable"]:
            return None
        raise InvalidHand(None, name, "{name} may not be null", name=f.name)
    if meta["choices"] is not None:
        if type(value) is not str or value not in meta["choices"]:
            raise InvalidHand(
                None,
                name,
                "{name} must be one of {choices}, not {value}",
                name=f.name,
                choices=", ".join(meta["choices"]),
                value=shown(value),
            )
        return value
    if isinstance(f.default, bool):
        if type(value) is not bool:
            raise InvalidHand(
                None, name, "{name} must be true or false, not {type}", name=f.name, type=type_name(value)
            )
        return value
    if type(value) is not int:
        raise InvalidHand(None, name, "{name} must be a whole number, not {type}", name=f.name, type=type_name(value))
    lo, hi = meta["lo"], meta["hi"]
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InvalidHand(None, name, "{name} must be between {lo} and {hi}", name=f.name, lo=lo, hi=hi)
    return value


def parse_rules(rules_cls: type[R], presets: Mapping[str, Mapping[str, Any]], data: Any) -> R:
    """Validate a partial rule set; missing keys take the preset's or the defaults' values.

    :raises InvalidHand: (with ``hand`` None) for unknown keys, unknown presets and bad values.
    """
    if data is None:
        data = {}
    check_object(data, None, "rules", "rules")
    fields = {f.name: f for f in options(rules_cls)}
    preset = data.get("preset", "seed")
    if type(preset) is not str or preset not in presets:
        raise InvalidHand(
            None,
            "rules.preset",
            "preset must be one of {choices}, not {value}",
            choices=", ".join(presets),
            value=shown(preset),
        )
    values: dict[str, Any] = dict(presets[preset])
    for key, value in data.items():
        if key == "preset":
            continue
        if key not in fields:
            field = f"rules.{key}"
            raise InvalidHand(None, field, "unknown rule {key}", key=shown(key))
        values[key] = _check_value(fields[key], value)
    return rules_cls(preset=preset, **values)


def rules_to_json(rules: Any) -> dict[str, Any]:
    """The complete rule set as JSON (``preset`` first); its values are plain texts, numbers and booleans."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}
