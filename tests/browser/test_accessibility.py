"""Accessibility on a phone (390x844): axe-core (vendored by ``axe-playwright-python``, no CDN) finds no violation of
impact "serious" or "critical" on the pages used at the table and after it, in German and, for a few, in English.
Every segmented button is a native radio that names itself and says whether it is chosen."""

from __future__ import annotations

import pytest

from scorekeeper.core import db as database
from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import create_night
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BLOCKING = ("serious", "critical")
HAND_FORMS = {"matzlfangen": 4, "schafkopf": 5, "konter_a_matt": 4, "matt": 2}


def violations(page) -> list[dict]:
    """The page's axe-core violations of impact serious or critical."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [v for v in results.response["violations"] if v.get("impact") in BLOCKING]


def describe(found: list[dict], where: str) -> str:
    """One block per violation: rule, impact, help and link, then each element's selector and what axe says of it."""
    lines = [f"{len(found)} serious/critical accessibility violation(s) on {where}:"]
    for v in found:
        lines.append(f"- {v['id']} ({v['impact']}): {v['help']}  [{v.get('helpUrl', '')}]")
        for node in v["nodes"]:
            target = " ".join(" >> ".join(t) if isinstance(t, list) else t for t in node["target"])
            lines.append(f"    {target}")
            summary = (node.get("failureSummary") or "").replace("\n", " / ")
            if summary:
                lines.append(f"      {summary}")
    return "\n".join(lines)


def assert_accessible(page, path: str) -> None:
    found = violations(page)
    assert not found, describe(found, path)


def _night(live, roster, game: str, seats: int, hands=()) -> int:
    _, app = live
    with database.session(app.extensions["sk_engine"]) as db:
        night = create_night(db=db, game=game, rules=None, stake_cents=10, player_ids=roster[:seats], first_dealer=1)
        for hand in hands:
            record_hand(db=db, night_id=night.id, hand=hand)
        return night.id


MATZL_HANDS = [
    {"contract": "rufen", "partner": 4, "points": 70},
    {"contract": "rufen", "partner": 4, "points": 40},
    {"contract": "rufen", "partner": 1, "points": 90},
]


@pytest.fixture
def phone(browser, sign_in):
    """``phone(lang="de", signed_in=True, scheme="light")``: a phone of 390x844 in that language and colour scheme."""
    contexts = []

    def make(lang: str = "de", signed_in: bool = True, scheme: str = "light"):
        locale = "de-DE" if lang == "de" else "en-GB"
        context = browser.new_context(viewport=PHONE, locale=locale, color_scheme=scheme)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        if signed_in:
            sign_in(page)
        return page

    yield make
    for context in contexts:
        context.close()


def _open(page, base: str, path: str) -> None:
    page.goto(f"{base}{path}")
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("de", "dark")])  # German, light: test_every_page
def test_the_pages_around_the_table_have_no_serious_violation(phone, live, roster, lang, scheme):
    base, _ = live
    night = _night(live, roster, "matzlfangen", 4, MATZL_HANDS)
    page = phone(lang, scheme=scheme)
    pages = [
        "/",
        "/players/",
        f"/players/{roster[0]}",
        "/nights/new",
        "/nights/",
        f"/nights/{night}",
        f"/nights/{night}/summary",
        "/leaderboard",
    ]
    failures = []
    for path in pages:
        _open(page, base, path)
        found = violations(page)
        if found:
            failures.append(describe(found, f"{path} ({lang}, {scheme})"))
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_sign_in_page_has_no_serious_violation(phone, live, lang):
    base, _ = live
    page = phone(lang, signed_in=False)
    _open(page, base, "/login")
    assert_accessible(page, f"/login ({lang})")


@pytest.mark.parametrize("game", list(HAND_FORMS))
def test_each_hand_form_has_no_serious_violation(phone, live, roster, game):
    base, _ = live
    night = _night(live, roster, game, HAND_FORMS[game])
    page = phone()
    _open(page, base, f"/nights/{night}/hands/new")
    assert_accessible(page, f"the {game} hand form")


@pytest.mark.parametrize(("lang", "scheme"), [("en", "light"), ("de", "dark")])
def test_the_schafkopf_hand_form_in_english_and_in_the_dark_has_no_serious_violation(phone, live, roster, lang, scheme):
    base, _ = live
    night = _night(live, roster, "schafkopf", 5)
    page = phone(lang, scheme=scheme)
    _open(page, base, f"/nights/{night}/hands/new")
    assert_accessible(page, f"the schafkopf hand form ({lang}, {scheme})")


def test_a_refused_hand_and_its_error_summary_have_no_serious_violation(phone, live, roster):
    """Saving a Rufen without the points: the summary atop the form, the field marked invalid.
    (axe-core needs JavaScript in the page: Playwright's evaluate hangs in a context without it.)"""
    base, _ = live
    night = _night(live, roster, "matzlfangen", 4)
    page = phone()
    _open(page, base, f"/nights/{night}/hands/new")
    page.locator("#partner-group label").last.click()
    page.locator("#save").click()
    page.locator("#error-summary").wait_for()
    assert_accessible(page, "the refused hand form")


def test_the_audit_reports_a_control_without_a_name_readably(phone, live):
    """The check itself: an unnamed field and an unnamed button are caught and described."""
    base, _ = live
    page = phone()
    _open(page, base, "/players/")
    page.evaluate(
        """() => { const m = document.querySelector('main') || document.body;
                   m.insertAdjacentHTML('beforeend', '<input id="nameless"><button id="blank"></button>'); }"""
    )
    found = violations(page)
    rules = {v["id"] for v in found}
    assert {"label", "button-name"} <= rules, rules
    text = describe(found, "/players/")
    assert "label (critical)" in text and "#nameless" in text and "#blank" in text, text


@pytest.mark.parametrize("game", list(HAND_FORMS))
def test_segmented_buttons_are_named_radios_that_say_which_is_chosen(phone, live, roster, game):
    """Each shown segmented button is a native radio in the accessibility tree with its label as name; tapping
    the label checks it (and only it) for assistive technology too."""
    base, _ = live
    night = _night(live, roster, game, HAND_FORMS[game])
    page = phone()
    _open(page, base, f"/nights/{night}/hands/new")
    ids = page.locator("fieldset.segmented-field:visible").evaluate_all("els => els.map(e => e.id)")
    assert ids
    for gid in ids:
        group = page.locator(f"#{gid}")
        if not group.is_visible():  # an earlier tap (the contract) hid it
            continue
        legend = group.locator("legend").inner_text().strip()
        assert legend, f"group #{gid} has no legend"
        assert page.get_by_role("group", name=legend, exact=True).count() >= 1, f"#{gid}: not a group named {legend!r}"
        radios = group.get_by_role("radio")
        inputs = group.locator("input[type=radio]:not([hidden])")  # the choices ruled out are hidden
        assert radios.count() == inputs.count() > 0, f"{legend}: some radios are hidden from assistive technology"
        for i in range(inputs.count()):
            rid = inputs.nth(i).get_attribute("id")
            label = page.locator(f"label[for='{rid}']").inner_text().strip()
            assert label, f"{legend}: radio #{rid} has no name"
            assert group.get_by_role("radio", name=label, exact=True).count() >= 1, f"{legend}: {label!r} unnamed"
        # tap a label not chosen: its radio reports checked, and it alone among the group's
        choices = group.locator("input[type=radio]:not([hidden]):not(:checked):not(:disabled)")
        for i in range(choices.count()):
            label = page.locator(f"label[for='{choices.nth(i).get_attribute('id')}']")
            if label.is_visible():
                name = label.inner_text().strip()
                label.click()
                assert group.get_by_role("radio", name=name, exact=True).first.is_checked(), f"{legend}: {name}"
                chosen = group.get_by_role("radio", checked=True)
                assert chosen.count() == 1, f"{legend}: {chosen.count()} radios report checked"
                break
