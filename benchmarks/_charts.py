"""Grouped bar charts drawn with Pillow (matplotlib is not a dependency of cvparse)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

PALETTE = ((31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189))
_FONT_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
               "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf")


@dataclass
class Series:
    """One bar per group; ``notes`` (optional) is a short text printed under each bar's group."""

    name: str
    values: list[float | None]
    notes: list[str] | None = None


def _font(size: int) -> ImageFont.ImageFont:
    for f in _FONT_FILES:
        if Path(f).exists():
            return ImageFont.truetype(f, size)
    return ImageFont.load_default(size=size)


def _text_w(draw: ImageDraw.ImageDraw, text: str, font) -> int:
    x1, _, x2, _ = draw.textbbox((0, 0), text, font=font)
    return x2 - x1


def _fit(draw, text: str, font, width: int) -> str:
    """``text`` shortened with an ellipsis so it fits ``width`` pixels."""
    if _text_w(draw, text, font) <= width:
        return text
    while text and _text_w(draw, text + "…", font) > width:
        text = text[:-1]
    return text + "…"


def bar_chart(path: str | Path, title: str, groups: list[str], series: list[Series],
              y_max: float = 1.0, y_label: str = "") -> Path:
    """Draw a grouped bar chart (values in [0, ``y_max``], ``None`` = no bar) to a PNG."""
    bar_w, gap, left, top, plot_h = 26, 34, 70, 70, 300
    n_notes = sum(s.notes is not None for s in series)
    group_w = bar_w * len(series) + gap
    f_title, f_axis, f_small = _font(16), _font(12), _font(10)
    title_w = _text_w(ImageDraw.Draw(Image.new("RGB", (1, 1))), title, f_title)
    width = max(left + group_w * len(groups) + 30, left + title_w + 20, 520)
    bottom = 40 + 16 * n_notes
    height = top + plot_h + bottom + 24 * ((len(series) + 2) // 3)
    img = Image.new("RGB", (width, height), "white")
    d = ImageDraw.Draw(img)
    d.text((left, 14), title, fill="black", font=f_title)
    y0 = top + plot_h
    for k in range(6):
        v = y_max * k / 5
        y = y0 - plot_h * k / 5
        d.line([(left, y), (width - 20, y)], fill=(225, 225, 225))
        d.text((left - 8 - _text_w(d, f"{v:.1f}", f_axis), y - 7), f"{v:.1f}", fill="black",
               font=f_axis)
    if y_label:
        d.text((8, top - 22), y_label, fill="black", font=f_axis)
    d.line([(left, top), (left, y0), (width - 20, y0)], fill="black")
    for g, name in enumerate(groups):
        gx = left + gap // 2 + g * group_w
        for s_i, s in enumerate(series):
            v = s.values[g]
            x = gx + s_i * bar_w
            colour = PALETTE[s_i % len(PALETTE)]
            if v is None:
                d.text((x + 8, y0 - 14), "-", fill=colour, font=f_small)
                continue
            h = plot_h * max(0.0, min(v, y_max)) / y_max
            d.rectangle([x + 2, y0 - h, x + bar_w - 2, y0], fill=colour)
            label = f"{v:.2f}"
            d.text((x + bar_w / 2 - _text_w(d, label, f_small) / 2, y0 - h - 13), label,
                   fill="black", font=f_small)
        cx = gx + bar_w * len(series) / 2
        text = _fit(d, name, f_axis, group_w - 4)
        d.text((cx - _text_w(d, text, f_axis) / 2, y0 + 6), text, fill="black", font=f_axis)
        row = 0
        for s_i, s in enumerate(series):
            if s.notes is None:
                continue
            note = _fit(d, s.notes[g], f_small, group_w - 4)
            d.text((cx - _text_w(d, note, f_small) / 2, y0 + 24 + 14 * row), note,
                   fill=PALETTE[s_i % len(PALETTE)], font=f_small)
            row += 1
    ly = top + plot_h + bottom
    for s_i, s in enumerate(series):
        lx = left + (s_i % 3) * 220
        yy = ly + 22 * (s_i // 3)
        d.rectangle([lx, yy + 2, lx + 12, yy + 14], fill=PALETTE[s_i % len(PALETTE)])
        d.text((lx + 18, yy), s.name, fill="black", font=f_axis)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path)
    return path
