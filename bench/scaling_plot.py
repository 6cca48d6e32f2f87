"""An SVG line plot of µs per op against ops (log x), one line per series, written without a plotting library."""

from __future__ import annotations

import html
import math

WIDTH, HEIGHT = 900, 540
LEFT, RIGHT, TOP, BOTTOM = 80, 330, 50, 70  # margins; the legend sits in the right one
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def log_ticks(low: float, high: float) -> list[float]:
    """1, 2 and 5 times the powers of ten from just below `low` to just above `high`."""
    ticks = []
    for exponent in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        ticks.extend(m * 10**exponent for m in (1, 2, 5))
    inside = [t for t in ticks if low <= t <= high]
    below = [t for t in ticks if t < low]
    above = [t for t in ticks if t > high]
    return below[-1:] + inside + above[:1]


def linear_ticks(high: float) -> list[float]:
    """About five round ticks from 0 to at least `high`."""
    raw = max(high, 1e-9) / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return [step * i for i in range(math.ceil(high / step) + 1)]


def number(value: float) -> str:
    return f"{value:,.0f}" if value >= 1000 else f"{value:g}"


def scaling_svg(series: dict[str, list[tuple[float, float]]], title: str, styles: dict[str, tuple[int, bool]]) -> str:
    """The plot of `series` (label -> (ops, µs/op) points); `styles` gives each label a color index and
    whether its line is dashed."""
    points = [point for values in series.values() for point in values]
    xs = log_ticks(min(x for x, _ in points), max(x for x, _ in points))
    ys = linear_ticks(max(y for _, y in points))
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(x: float) -> float:
        return LEFT + (math.log10(x) - math.log10(xs[0])) / (math.log10(xs[-1]) - math.log10(xs[0])) * plot_width

    def py(y: float) -> float:
        return TOP + plot_height - y / ys[-1] * plot_height

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'font-family="sans-serif" font-size="13">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text class="title" x="{LEFT + plot_width / 2}" y="28" text-anchor="middle" font-size="16">'
        f"{html.escape(title)}</text>",
        f'<g class="x-axis"><line x1="{LEFT}" y1="{TOP + plot_height}" x2="{LEFT + plot_width}" '
        f'y2="{TOP + plot_height}" stroke="black"/>',
    ]
    for x in xs:
        parts.append(
            f'<line x1="{px(x):.1f}" y1="{TOP}" x2="{px(x):.1f}" y2="{TOP + plot_height + 5}" stroke="#ddd"/>'
            f'<text class="tick" x="{px(x):.1f}" y="{TOP + plot_height + 20}" text-anchor="middle">{number(x)}</text>'
        )
    parts.append(
        f'<text class="axis-label" x="{LEFT + plot_width / 2}" y="{HEIGHT - 20}" text-anchor="middle">'
        "ops in the module (log scale)</text></g>"
    )
    parts.append(f'<g class="y-axis"><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_height}" stroke="black"/>')
    for y in ys:
        parts.append(
            f'<line x1="{LEFT - 5}" y1="{py(y):.1f}" x2="{LEFT + plot_width}" y2="{py(y):.1f}" stroke="#ddd"/>'
            f'<text class="tick" x="{LEFT - 8}" y="{py(y) + 4:.1f}" text-anchor="end">{number(y)}</text>'
        )
    parts.append(
        f'<text class="axis-label" transform="translate(22 {TOP + plot_height / 2}) rotate(-90)" '
        'text-anchor="middle">µs per op (median pass time / ops)</text></g>'
    )
    lines, legend = [], ['<g class="legend">']
    for index, (label, values) in enumerate(series.items()):
        color_index, dashed = styles[label]
        color = COLORS[color_index % len(COLORS)]
        dash = ' stroke-dasharray="6 4"' if dashed else ""
        coordinates = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in sorted(values))
        lines.append(
            f'<g class="series" data-label="{html.escape(label)}"><polyline points="{coordinates}" fill="none" '
            f'stroke="{color}" stroke-width="2"{dash}/>'
            + "".join(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3.5" fill="{color}"/>' for x, y in values)
            + "</g>"
        )
        legend_y = TOP + 10 + 22 * index
        legend_x = WIDTH - RIGHT + 20
        legend.append(
            f'<line x1="{legend_x}" y1="{legend_y}" x2="{legend_x + 30}" y2="{legend_y}" stroke="{color}" '
            f'stroke-width="2"{dash}/><text class="legend-entry" x="{legend_x + 38}" y="{legend_y + 4}">'
            f"{html.escape(label)}</text>"
        )
    legend.append("</g>")
    return "\n".join(parts + lines + legend + ["</svg>"]) + "\n"
