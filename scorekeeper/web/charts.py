"""Charts drawn on the server as inline SVG (no script): a night's running balances, a player's nights."""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup, escape

from scorekeeper.engine import ledger
from scorekeeper.web.view import decimal_mark

COLOURS = ("#0b5d3b", "#a4161a", "#1d4e89", "#b06a00", "#6b2d8c")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")  # tell the lines apart in black and white too
#: A page's chart: drawn this wide and high (in its units) with text this big, so that a phone's card
#: (310 px wide at 360 px, 340 at 390) shows it at about its own size, the legend and the axis at 16 px
#: and more, no smaller than the page's small text (``.hint``, 15.6 px). Drawn 480 wide, the text came
#: out at 11 px. A wider screen shows it at most ``.chart-box svg``'s ``max-width`` (static/style.css).
WIDTH, HEIGHT, FONT = 330, 200, 17
#: The PDF's chart: the page's width on A4, 182 mm (templates/nights/summary_pdf.html), its text at about 11 pt;
#: 44 mm high (its plot 33 mm), so that a short night's log has room on the first page: at 480 wide (125 mm) and
#: 200 high (52 mm), a closed night of three hands ran onto a second page, and with long names, whose legend then
#: took a row each, so did its log's head (at 240, 62 mm, Matt's five Durchgänge did). Its legend's rows hold two
#: names of 37 characters (``legend_chars``: at 480 wide, 24).
PDF_WIDTH, PDF_HEIGHT, PDF_FONT = 700, 170, 15
#: A character of a legend's name is at most this wide on average, in ems (DejaVu Sans).
LEGEND_EM = 0.56
#: The legend's rows (a name's first line) and a wrapped name's next lines, apart in ems.
LEGEND_ROW_EM, LEGEND_LINE_EM = 1.6, 1.2


def legend_chars(width: int = WIDTH, font: int = FONT) -> tuple[int, int]:
    """How many characters a legend's name may have to share its row with another (half the chart's
    width, after the sample of its line), and how many a line of a row to itself (the chart's width)."""
    per = font * LEGEND_EM
    return int((width / 2 - 38) / per), int((width - 60) / per)


#: A page's legend: a name at most ``LEGEND_HALF`` characters long shares its row with another; a longer
#: one has a row to itself, wrapped at its spaces into lines of at most ``LEGEND_FULL`` characters
#: (Konter a Matt's teams: "Team A: " and two players' names). A word longer than a line is cut short
#: with an ellipsis, and the name's title says it whole. (The PDF's chart: 37 and 76.)
LEGEND_HALF, LEGEND_FULL = legend_chars()


def legend_lines(name: str, full: int = LEGEND_FULL) -> list[str]:
    """A legend's name as the lines it is written in, each at most ``full`` characters, broken at spaces.

    >>> legend_lines("Team A: Maximilian Obermeier-Schwarzenberger + Bartholomäus Huber")  # the page's
    ['Team A: Maximilian', 'Obermeier-Schwarzenberger +', 'Bartholomäus Huber']
    >>> legend_lines("Team A: Maximilian Obermeier-Schwarzenberger + Bartholomäus Huber", full=76)  # the PDF's
    ['Team A: Maximilian Obermeier-Schwarzenberger + Bartholomäus Huber']
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


def _label(x: float, y: float, text: str, font: int) -> str:
    return f'<text x="{x}" y="{y:.1f}" text-anchor="end" font-size="{font}">{escape(text)}</text>'


#: How wide a character of the axis's values is at most, at the page's font size (in the chart's units).
AXIS_FIGURE = 12


def chart_svg(
    series: list[list[int]],
    names: list[str],
    width: int = WIDTH,
    height: int = HEIGHT,
    ends: tuple[str, str] | None = None,
    label: str = "running balance",
    tick: Callable[[int], str] = money_tick,
    font: int = FONT,
    coda: str | None = None,
    legend: bool = True,
) -> Markup:
    """Running balances (cents) as an SVG line chart, drawn on the server: each player's over a
    night, or one player's over the nights of the club's history. ``ends`` label the x axis's ends
    (the hand numbers if not given; ends alike, such as the one day of a player's nights, are written once,
    in the middle); ``tick`` writes the axis's values (``str`` for counts such as
    strokes or points). The legend puts two names a row, or one when a name is too long for half,
    wrapping a name too long for the row (:func:`legend_lines`). ``font``: the text's size in the
    chart's units (:data:`FONT` on a page, :data:`PDF_FONT` in the PDF, with their widths).

    ``coda`` names a last step that is no hand: each series' last point is what the close adds (a
    pot shared out), drawn past a dotted line at the last hand, in a strip of its own at the right,
    and labelled ``coda`` under it; the x axis's end label stands at the last hand.

    ``legend=False``: the chart alone, its legend written beside it as HTML (:func:`legend_html`, the PDF's)."""
    pad_r, pad_t, pad_b = 10, 12, 2 * font
    points = max((len(s) for s in series), default=1)
    values = [v for s in series for v in s] or [0]
    lo, hi = min(0, *values), max(0, *values)
    flat = lo == hi  # every value 0: the lines lie on the 0, and no other value is written beside the axis
    if flat:
        hi = lo + 100
    # room left of the axis for its longest value, whole
    figure = AXIS_FIGURE * font / FONT
    pad_l = round(max(62, 12 + figure * max(len(tick(hi)), len(tick(lo)))))
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    steps = points - 1 - (coda is not None)  # the hands' steps
    strip = round(font * (0.62 * len(coda) + 1)) if coda is not None else 0
    hands_w = plot_w - strip

    def x(i: int) -> float:
        if i > steps:  # the coda's point
            return width - pad_r
        return pad_l + (hands_w * i / steps if steps > 0 else 0)

    def y(v: int) -> float:
        return pad_t + plot_h * (hi - v) / (hi - lo)

    first, last = ends or ("0", str(max(steps, 0)))
    half, full = legend_chars(width, font)
    per_row = _per_row(names, half)
    written = [legend_lines(name, full) for name in names] if legend else []
    row_h, line_h = LEGEND_ROW_EM * font, LEGEND_LINE_EM * font
    tops, top = [], height + round(0.8 * font)  # each name's first line; a row as deep as its most lines
    for row in range(0, len(written), per_row):
        tops += [top] * len(written[row : row + per_row])
        top += row_h + line_h * (max(len(lines) for lines in written[row : row + per_row]) - 1)
    below = height - 8  # the x axis's labels' baseline
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {round(top - 4) if legend else height}" '
        f'class="chart" role="img" aria-label="{escape(label)}">',
        f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" stroke="#888" stroke-width="1"/>',
        _label(pad_l - 6, y(0) + 4, "0", font),
        # the top and the bottom value, unless the 0 is written right there (or nothing reached them)
        *(_label(pad_l - 6, y(v) + 4, tick(v), font) for v in (hi, lo) if not flat and abs(y(v) - y(0)) >= font + 1),
    ]
    if coda is None and first == last:
        # the ends alike (a player's nights all on one day, a single night): the day once, in the middle
        parts.append(
            f'<text x="{pad_l + plot_w / 2:.1f}" y="{below}" text-anchor="middle" font-size="{font}">'
            f"{escape(first)}</text>"
        )
    elif coda is None:
        parts.append(f'<text x="{pad_l}" y="{below}" font-size="{font}">{escape(first)}</text>')
        parts.append(
            f'<text x="{width - pad_r}" y="{below}" text-anchor="end" font-size="{font}">{escape(last)}</text>'
        )
    else:
        parts.append(f'<text x="{pad_l}" y="{below}" font-size="{font}">{escape(first)}</text>')
        end = x(steps)
        parts.append(
            f'<line x1="{end:.1f}" y1="{pad_t}" x2="{end:.1f}" y2="{pad_t + plot_h}" stroke="#888" '
            f'stroke-width="1" stroke-dasharray="2 3"/>'
        )
        if steps > 0:  # the last hand's number, left of the line
            parts.append(_label(round(end - 4, 1), below, last, font))
        parts.append(_label(width - pad_r, below, coda, font))
    for k, s in enumerate(series):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        coords = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2"{dash_attr} points="{coords}"/>')
    for k, (name, lines) in enumerate(zip(names, written, strict=True) if legend else ()):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        lx, ly = 8 + (k % per_row) * (width // 2), tops[k]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        cut = "…" in "".join(lines) and "…" not in name
        text = (
            "".join(
                f'<tspan x="{lx + 30}" y="{ly + 5 + line_h * i:.1f}">{escape(line)}</tspan>'
                for i, line in enumerate(lines)
            )
            if len(lines) > 1
            else escape(lines[0])
        )
        if cut:
            text = f"<title>{escape(name)}</title>{text}"
        parts.append(
            f'<line x1="{lx}" y1="{ly:.1f}" x2="{lx + 24}" y2="{ly:.1f}" '
            f'stroke="{colour}" stroke-width="2"{dash_attr}/>'
            f'<text x="{lx + 30}" y="{ly + 5:.1f}" font-size="{font}">{text}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def _per_row(names: list[str], half: int) -> int:
    """How many names a legend's row holds: two, or one where a name is too long for half the chart."""
    return 2 if all(len(name) <= half for name in names) else 1


def legend_html(names: list[str], width: int = WIDTH, font: int = FONT) -> Markup:
    """A chart's legend as HTML text, for beside a chart drawn without it (``chart_svg(..., legend=False)``):
    each name after a sample of its line, two a row or one where a name is too long for half the chart,
    as :func:`chart_svg` puts them. The PDF's: WeasyPrint draws an SVG's text letter by letter, unshaped
    (an accent typed apart from its letter beside a dotted circle, Arabic's letters apart and backwards),
    and HTML's text as the rest of the PDF (templates/nights/summary_pdf.html sizes it as the chart's)."""
    per_row = _per_row(names, legend_chars(width, font)[0])
    keys = []
    for k, name in enumerate(names):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        keys.append(
            f'<li><svg class="sample" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 4" aria-hidden="true">'
            f'<line x1="0" y1="2" x2="24" y2="2" stroke="{colour}" stroke-width="2"{dash_attr}/></svg>'
            f'<span dir="auto">{escape(name)}</span></li>'
        )
    return Markup(f'<ul class="legend per-row-{per_row}">{"".join(keys)}</ul>')
