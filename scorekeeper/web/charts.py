"""Charts drawn on the server as inline SVG (no script): a night's running balances, a player's nights."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

from scorekeeper.engine import ledger
from scorekeeper.web.view import decimal_mark

COLOURS = ("#0b5d3b", "#a4161a", "#1d4e89", "#b06a00", "#6b2d8c")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")  # tell the lines apart in black and white too
#: A legend's name at most this long shares its row with another (half the chart's width at 15px);
#: a longer one has a row to itself, wrapped at its spaces into lines of at most ``LEGEND_FULL``
#: characters (Konter a Matt's teams: "Team A: " and two players' names). A word longer than a line
#: is cut short with an ellipsis, and the name's title says it whole.
LEGEND_HALF = 24
LEGEND_FULL = 50
#: The legend's rows (a name's first line) and a wrapped name's next lines, apart in the chart's units.
LEGEND_ROW = 24
LEGEND_LINE = 18


def legend_lines(name: str, full: int = LEGEND_FULL) -> list[str]:
    """A legend's name as the lines it is written in, each at most ``full`` characters, broken at spaces.

    >>> legend_lines("Team A: Maximilian Obermeier-Schwarzenberger + Bartholomäus Huber")
    ['Team A: Maximilian Obermeier-Schwarzenberger +', 'Bartholomäus Huber']
    """
    lines: list[str] = []
    for word in name.split():
        if len(word) > full:
            word = word[: full - 1] + "…"
        if lines and len(lines[-1]) + 1 + len(word) <= full:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def money_tick(cents: int) -> str:
    """An axis's amount in the page's notation, without the currency: ``-3,50`` / ``-3.50``."""
    return ledger.format_money(cents, "", decimal_mark()).strip()


def _label(x: float, y: float, text: str) -> str:
    return f'<text x="{x}" y="{y:.1f}" text-anchor="end" font-size="15">{escape(text)}</text>'


#: How wide a character of the axis's values is at most (font size 15, in the chart's units).
AXIS_FIGURE = 10


def chart_svg(
    series: list[list[int]],
    names: list[str],
    width: int = 480,
    height: int = 240,
    ends: tuple[str, str] | None = None,
    label: str = "running balance",
    tick: Callable[[int], str] = money_tick,
) -> Markup:
    """Running balances (cents) as an SVG line chart, drawn on the server: each player's over a
    night, or one player's over the nights of the club's history. ``ends`` label the x axis's ends
    (the hand numbers if not given); ``tick`` writes the axis's values (``str`` for counts such as
    strokes or points). The legend puts two names a row, or one when a name is too long for half,
    wrapping a name too long for the row (:func:`legend_lines`)."""
    pad_r, pad_t, pad_b = 10, 12, 30
    points = max((len(s) for s in series), default=1)
    values = [v for s in series for v in s] or [0]
    lo, hi = min(0, *values), max(0, *values)
    if lo == hi:
        hi = lo + 100
    # room left of the axis for its longest value, whole (a figure at font size 15 is under 10 units wide)
    pad_l = max(62, 12 + AXIS_FIGURE * max(len(tick(hi)), len(tick(lo))))
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def x(i: int) -> float:
        return pad_l + (plot_w * i / (points - 1) if points > 1 else 0)

    def y(v: int) -> float:
        return pad_t + plot_h * (hi - v) / (hi - lo)

    first, last = ends or ("0", str(points - 1))
    per_row = 2 if all(len(name) <= LEGEND_HALF for name in names) else 1
    full = LEGEND_FULL * width // 480  # a line of the legend as wide as the chart
    written = [legend_lines(name, full) for name in names]
    tops, top = [], height + 12  # each name's first line; a row as deep as its most lines
    for row in range(0, len(names), per_row):
        tops += [top] * len(written[row : row + per_row])
        top += LEGEND_ROW + LEGEND_LINE * (max(len(lines) for lines in written[row : row + per_row]) - 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {top - 4}" '
        f'class="chart" role="img" aria-label="{escape(label)}">',
        f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" stroke="#888" stroke-width="1"/>',
        f'<text x="{pad_l - 6}" y="{y(0) + 4:.1f}" text-anchor="end" font-size="15">0</text>',
        # the top and the bottom value, unless the 0 is written right there
        *(_label(pad_l - 6, y(v) + 4, tick(v)) for v in (hi, lo) if abs(y(v) - y(0)) >= 16),
        f'<text x="{pad_l}" y="{height - 8}" font-size="15">{escape(first)}</text>',
        f'<text x="{width - pad_r}" y="{height - 8}" text-anchor="end" font-size="15">{escape(last)}</text>',
    ]
    for k, s in enumerate(series):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash_attr} points="{coords}"/>')
    for k, (name, lines) in enumerate(zip(names, written, strict=True)):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        lx, ly = 8 + (k % per_row) * (width // 2), tops[k]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        cut = "…" in "".join(lines) and "…" not in name
        text = (
            "".join(
                f'<tspan x="{lx + 30}" y="{ly + 5 + LEGEND_LINE * i}">{escape(line)}</tspan>'
                for i, line in enumerate(lines)
            )
            if len(lines) > 1
            else escape(lines[0])
        )
        if cut:
            text = f"<title>{escape(name)}</title>{text}"
        parts.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{colour}" stroke-width="2"{dash_attr}/>'
            f'<text x="{lx + 30}" y="{ly + 5}" font-size="15">{text}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
