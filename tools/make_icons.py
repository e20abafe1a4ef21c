"""Draws Scorekeeper's icons: a playing card with a red heart on the club's green (static/)."""

from pathlib import Path

from PIL import Image, ImageDraw

GREEN, CARD, RED = (11, 93, 59, 255), (255, 255, 255, 255), (164, 22, 26, 255)
OUT = Path(__file__).resolve().parent.parent / "static"  # the checkout's static/


def draw(size: int, maskable: bool, rounded: bool) -> Image.Image:
    s = size * 4  # drawn large, scaled down: smooth edges
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if rounded and not maskable:
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.18, fill=GREEN)
    else:
        d.rectangle((0, 0, s, s), fill=GREEN)
    # the card: inside the maskable safe zone (a circle of 80 %) when maskable
    scale = 0.58 if maskable else 0.74
    cw, ch = s * scale * 0.72, s * scale
    x0, y0 = (s - cw) / 2, (s - ch) / 2
    d.rounded_rectangle((x0, y0, x0 + cw, y0 + ch), radius=cw * 0.1, fill=CARD)
    # the heart: two overlapping circles and the triangle tangent to them at 45 degrees
    r = cw * 0.19
    a, k = r * 0.8, r * 0.7071
    cx, cy = s / 2, s / 2 - r * 0.55
    d.ellipse((cx - a - r, cy - r, cx - a + r, cy + r), fill=RED)
    d.ellipse((cx + a - r, cy - r, cx + a + r, cy + r), fill=RED)
    d.rectangle((cx - a, cy, cx + a, cy + k + 2), fill=RED)
    d.polygon([(cx - a - k, cy + k), (cx + a + k, cy + k), (cx, cy + k + a + k)], fill=RED)
    return img.resize((size, size), Image.LANCZOS)


def main() -> None:
    """Write the icons into static/ (run by hand after changing the drawing: ``python tools/make_icons.py``)."""
    for size in (192, 512):
        draw(size, False, True).save(OUT / f"icon-{size}.png", optimize=True)
    draw(512, True, False).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180, False, False).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)
    draw(256, False, True).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])


if __name__ == "__main__":
    main()
