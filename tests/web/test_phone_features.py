"""The app on a phone at the table: the screen stays on while a night is open, a dark theme with the
phone's setting (and the light theme's contrast), a home-screen icon (manifest, icons, favicon), and
sharing the settlement as text. The browser's side is in tests/browser/test_phone_features.py."""

from __future__ import annotations

import html
import io
import re

import pytest
from PIL import Image

from scorekeeper.core.hands import record_hand
from scorekeeper.core.nights import close_night
from tests.support import ROOT

CSS = (ROOT / "static" / "style.css").read_text(encoding="utf-8")
LINK = re.compile(r'<link rel="(?P<rel>[^"]+)" href="(?P<href>[^"]+)"')


def rufen(partner: int, points: int, matzl: str | None = None) -> dict:
    hand = {"contract": "rufen", "partner": partner, "points": points}
    if matzl is not None:
        hand["matzl"] = matzl
    return hand


def body(client, url: str) -> bytes:
    answer = client.get(url, follow_redirects=True)
    assert answer.status_code == 200, url
    data = answer.get_data()
    answer.close()
    return data


# --- 16: on the home screen ----------------------------------------------------------------


def test_favicon_ico_is_the_apps_icon_not_a_404(anon):
    answer = anon.get("/favicon.ico")
    assert answer.status_code in (301, 302, 307, 308)
    icon = Image.open(io.BytesIO(body(anon, "/favicon.ico")))
    assert icon.format == "ICO" and (32, 32) in icon.info["sizes"]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_links_the_manifest_icons_and_both_colour_schemes(client, night, lang):
    for path in ("/nights/", f"/nights/{night.id}", f"/nights/{night.id}/hands/new", f"/nights/{night.id}/summary"):
        page = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        assert '<meta name="color-scheme" content="light dark">' in page, path
        assert page.count('<meta name="theme-color"') == 2, path
        links = {m["rel"]: m["href"] for m in LINK.finditer(page)}
        assert links.get("manifest") == "/manifest.webmanifest", path
        assert {"icon", "apple-touch-icon"} <= set(links), path
        for rel in ("icon", "apple-touch-icon"):
            assert body(client, html.unescape(links[rel])), (path, rel)


def test_the_sign_in_page_links_them_too(anon):
    page = anon.get("/login").get_data(as_text=True)
    assert 'rel="manifest"' in page and 'rel="apple-touch-icon"' in page and 'content="light dark"' in page


def test_the_manifest_makes_the_app_installable(anon):
    answer = anon.get("/manifest.webmanifest")  # browsers fetch it without the session cookie
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    m = answer.get_json()
    assert m["name"] and m["short_name"] and len(m["short_name"]) <= 12
    assert m["display"] == "standalone" and m["start_url"] == "/nights/"
    assert m["start_url"].startswith(m["scope"])
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
    seen = set()
    for icon in m["icons"]:
        image = Image.open(io.BytesIO(body(anon, icon["src"])))
        assert image.format == "PNG" and icon["type"] == "image/png"
        assert f"{image.width}x{image.height}" == icon["sizes"]
        seen.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen


def test_the_maskable_icon_keeps_its_picture_in_the_safe_zone():
    """A launcher may cut the maskable icon down to a circle of 80 %: only the ground lies outside it."""
    image = Image.open(ROOT / "static" / "icon-maskable-512.png").convert("RGB")
    ground = image.getpixel((0, 0))
    for x in range(0, 512, 4):
        for y in range(0, 512, 4):
            if (x - 255.5) ** 2 + (y - 255.5) ** 2 > (0.4 * 512) ** 2:
                assert image.getpixel((x, y)) == ground, (x, y)
    assert image.getpixel((256, 256)) != ground


# --- 14: the screen stays on ----------------------------------------------------------------


def test_the_screen_stays_on_at_an_open_nights_table_and_hand_form_only(client, db, night):
    def keeps_awake(path: str) -> bool:
        page = client.get(path).get_data(as_text=True)
        return "data-keep-awake" in page.split("<head>")[0]

    assert keeps_awake(f"/nights/{night.id}")
    assert keeps_awake(f"/nights/{night.id}/hands/new")
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70))
    assert keeps_awake(f"/nights/{night.id}/hands/1/edit")
    assert not keeps_awake(f"/nights/{night.id}/summary")
    assert not keeps_awake("/nights/")
    close_night(db=db, night_id=night.id)
    assert not keeps_awake(f"/nights/{night.id}")


def test_every_page_loads_the_script_that_keeps_it_on(anon):
    page = anon.get("/login").get_data(as_text=True)
    assert re.search(r'<script src="/static/app\.[0-9a-f]{12}\.js" defer></script>', page)


# --- 15: the dark theme ----------------------------------------------------------------------


def _variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([a-z-]+):\s*([^;]+);", block))


def _themes() -> tuple[dict[str, str], dict[str, str]]:
    light = _variables(re.search(r"^:root \{(.*?)\n\}", CSS, re.S | re.M)[1])
    dark_block = re.search(r"@media \(prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}\s*\}", CSS, re.S)
    assert dark_block, "no dark theme in static/style.css"
    return light, {**light, **_variables(dark_block[1])}


def _luminance(colour: str) -> float:
    colour = colour.strip()
    if colour.startswith("rgba"):
        colour = "#" + "".join(f"{int(c):02x}" for c in re.findall(r"\d+", colour)[:3])
    hexa = colour.lstrip("#")
    if len(hexa) == 3:
        hexa = "".join(c * 2 for c in hexa)
    channels = [int(hexa[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: (text, ground) as the stylesheet puts them together: page and card text, links and outlined
#: buttons, filled buttons and the chosen segmented button, the top bar, money in plus and minus,
#: badges and group headings, inputs and segmented buttons, a player sitting out, flash messages,
#: errors, the sticky bar, the join token, the share message
PAIRS = [
    ("ink", "bg"), ("ink", "card"), ("muted", "bg"), ("muted", "card"), ("muted", "field"),
    ("accent", "bg"), ("accent", "card"), ("accent", "field"), ("accent", "bar"),
    ("accent-ink", "accent"), ("top-ink", "top"), ("on-minus", "minus"),
    ("plus", "bg"), ("plus", "card"), ("minus", "bg"), ("minus", "card"), ("minus", "field"), ("minus", "error-bg"),
    ("minus", "flash-error"), ("warn", "soft"), ("ink", "soft"), ("ink", "field"), ("ink", "out"),
    ("ink", "flash"), ("ink", "flash-error"), ("ink", "error-bg"), ("ink", "bar"), ("ink", "token"),
    ("chart-ink", "chart"),
]  # fmt: skip


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_colour_has_aa_contrast_on_its_ground(theme):
    colours = dict(zip(("light", "dark"), _themes(), strict=True))[theme]
    poor = {f"{fg} on {bg}": round(contrast(colours[fg], colours[bg]), 2) for fg, bg in PAIRS}
    assert {pair: ratio for pair, ratio in poor.items() if ratio < 4.5} == {}


def test_the_dark_theme_sets_every_colour_the_light_one_does():
    light, _ = _themes()
    dark = _variables(re.search(r"@media \(prefers-color-scheme: dark\) \{\s*:root \{(.*?)\}", CSS, re.S)[1])
    colours = {name for name, value in light.items() if re.match(r"\s*(#|rgb)", value)}
    assert colours - set(dark) == set()


def test_the_rules_use_the_themes_colours_not_their_own():
    """A colour written into a rule would stay light in the dark theme (the print styles and the QR code's
    white ground excepted)."""
    rules = re.sub(r":root \{.*?\}", "", CSS, flags=re.S)
    rules = re.sub(r"@media print \{.*?\n\}", "", rules, flags=re.S)
    rules = re.sub(r"/\*.*?\*/", "", rules, flags=re.S)
    found = [line for line in rules.splitlines() if re.search(r"#[0-9a-fA-F]{3,8}\b|rgba?\(", line)]
    assert [line for line in found if not line.startswith(".join img.qr")] == []


# --- 17: sharing the settlement -----------------------------------------------------------------


def _share_text(page: str) -> str:
    match = re.search(r'<pre class="card share-text" id="share-text" hidden>(.*?)</pre>', page, re.S)
    assert match, "no share text on the page"
    return html.unescape(match[1])


def _balance(page: str) -> list[tuple[str, str]]:
    table = re.search(r'<table class="balance">.*?<tbody>(.*?)</tbody>', page, re.S)[1]
    rows = re.findall(r"<tr[^>]*>\s*<td>(.*?)</td>.*?<td class=\"num\">([^<]*)</td>\s*</tr>", table, re.S)
    return [(html.unescape(name), html.unescape(money)) for name, money in rows]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ("Zwischenabrechnung", "Geld:", "Wer zahlt wem:", " zahlt ", "Teilen")),
        ("en", ("Interim settlement", "Money:", "Who pays whom:", " pays ", "Share")),
    ],
)
def test_the_settlement_page_carries_its_text_to_share_in_the_pages_language(client, db, night, lang, words):
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70, "defenders"))
    record_hand(db=db, night_id=night.id, hand=rufen(1, 100))
    page = client.get(f"/nights/{night.id}/summary?lang={lang}").get_data(as_text=True)
    text = _share_text(page)
    heading, words = words[0], words[1:]
    assert text.startswith(f"{heading}: Matzlfangen")
    for word in words[:-1]:
        assert word in text
    assert re.search(rf'<button type="button" class="primary" id="share" hidden[^>]*>{words[-1]}</button>', page)
    assert 'id="share-status" role="status"' in page
    # each player's money as the balance table shows it, and each payment of the list
    balance = _balance(page)
    assert len(balance) == 4
    for name, money in balance:
        assert f"{name}: {money}" in text.splitlines()
    payment = r"<li><strong>(.*?)</strong> \w+ <strong>(.*?)</strong> <span class=\"num\">(.*?)</span></li>"
    payments = re.findall(payment, page)
    assert payments
    for payer, payee, money in payments:
        assert any(line.startswith(payer) and payee in line and line.endswith(money) for line in text.splitlines())


def test_a_night_without_payments_says_so_in_its_text(client, night):
    text = _share_text(client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True))
    assert text.splitlines()[-1] == "Nobody owes anybody anything."


def test_a_closed_nights_text_is_the_settlement(client, db, night):
    record_hand(db=db, night_id=night.id, hand=rufen(4, 70))
    close_night(db=db, night_id=night.id)
    text = _share_text(client.get(f"/nights/{night.id}/summary?lang=en").get_data(as_text=True))
    assert text.startswith("Settlement: ")
