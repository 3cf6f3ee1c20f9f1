"""Text bar charts for probability tables that read well on a phone."""

from __future__ import annotations

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(p: float, width: int = 12) -> str:
    cells = max(0.0, min(1.0, p)) * width
    full = int(cells)
    rest = int(round((cells - full) * 8))
    if rest == 8:
        full, rest = full + 1, 0
    return "█" * full + (_EIGHTHS[rest] if rest and full < width else "")


def render_table(rows: list[tuple[str, float]] | dict, width: int = 12) -> str:
    """``OOA  ████████▍ 42.1%`` lines, labels padded, in a code block-friendly monospace layout."""
    items = list(rows.items()) if isinstance(rows, dict) else list(rows)
    pad = max((len(label) for label, _ in items), default=0)
    lines = []
    for label, p in items:
        pct = f"{100 * p:5.1f}%" if p >= 0.001 or p == 0 else "<0.1%"
        lines.append(f"{label.ljust(pad)}  {bar(p, width).ljust(width)} {pct}")
    return "\n".join(lines)
