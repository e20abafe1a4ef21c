"""What every engine test file checks the same way."""

from __future__ import annotations

from typing import Any


def check_steps(result: dict[str, Any]) -> None:
    """The steps contract: the last step is the value, the units before it add up to it, totals run along."""
    steps = result["steps"]
    assert steps, "a hand result carries its steps"
    last = steps[-1]
    assert last["key"] == "value"
    assert last["units"] == result["value"]
    assert last["total"] == result["value"]
    assert sum(step["units"] for step in steps[:-1]) == last["units"]
    running = 0
    for step in steps[:-1]:
        running += step["units"]
        assert step["total"] == running
        assert isinstance(step["what"], str) and step["what"]
        assert type(step["units"]) is int
