"""The night's summary as a PDF (WeasyPrint), from the same template partial as the page."""

from __future__ import annotations

import dataclasses

from flask import current_app, render_template

from scorekeeper.core.summary import summarize
from scorekeeper.core.table import Table
from scorekeeper.engine import GAMES
from scorekeeper.web.charts import chart_svg
from scorekeeper.web.hands.forms import CONTRACT_LABELS
from scorekeeper.web.labels import GAME_LABELS


def changed_rules(table: Table) -> list[tuple[str, object]]:
    """The options of the night's rule set that differ from the game's defaults."""
    defaults = GAMES[table.night.game].rules_cls()
    return [
        (f.name, table.night.rules.get(f.name))
        for f in dataclasses.fields(defaults)
        if f.name != "preset" and table.night.rules.get(f.name) != getattr(defaults, f.name)
    ]


def context(table: Table) -> dict:
    """What the summary page and the PDF both show."""
    from scorekeeper.web.view import hand_views

    summary = summarize(table)
    contracts = sorted({c for ps in summary.players for c in ps.declared})
    return {
        "s": summary,
        "contracts": contracts,
        "log": hand_views(table, newest_first=False),
        "table": table,
        "night": table.night,
        "chart": chart_svg(summary.series, [line.name for line in summary.lines]),
        "changed": changed_rules(table),
        "club": current_app.config["CLUB_NAME"],
        "label": GAME_LABELS[table.night.game],
        "contract_label": CONTRACT_LABELS,
    }


def summary_document(table: Table):
    """The laid-out A4 summary with the full hand log (a WeasyPrint document: ``.pages``,
    ``.write_pdf()``); needs an app and request context for the language."""
    from weasyprint import HTML

    html = render_template("nights/summary_pdf.html", **context(table), full_log=True)
    return HTML(string=html, base_url=str(current_app.static_folder)).render()


def summary_pdf(table: Table) -> bytes:
    """The summary as PDF bytes."""
    return summary_document(table).write_pdf()
