"""Memory-attention heatmaps: the viewer's numbers (straight from the engine) and their drawing.

Orientation follows Feng et al. 2022, Figs. 6/7: one row per token, one column per memory slot.
The engine returns Update Attention as (heads, slots, tokens) -- each slot's weights over the
sentence's tokens, which sum to 1 per slot -- so it is transposed here; Output Attention is
already (heads, tokens, slots), each token's weights over the slots.

Colours: a cell's weight blends the theme's background -> primary -> foreground colour, so the
ramp runs from "invisible" to "strongest contrast" on dark and on light themes alike, and
highlights use the theme's accent. The ramp is scaled to each map's maximum (printed in its
title): attention over 16 slots rarely goes near 1, and an absolute scale would show almost
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.color import Color

from doctrans.engine.interface import SentenceResult

# How many heads a viewer may select (mean = None). Engine maps are (heads, rows, cols).
MAPS = ("src_update", "tgt_update", "src_output", "tgt_output")


def head_view(attn: np.ndarray | None, head: int | None) -> np.ndarray | None:
    """(heads, rows, cols) -> (rows, cols): one head, or the mean over heads (``head=None``)."""
    if attn is None:
        return None
    a = np.asarray(attn, dtype=np.float32)
    return a.mean(axis=0) if head is None else a[head]


def n_heads(result: SentenceResult | None) -> int:
    att = result.attention if result is not None else None
    if att is None:
        return 0
    return max((getattr(att, m).shape[0] for m in MAPS if getattr(att, m) is not None), default=0)


@dataclass
class ViewerData:
    """The four maps the viewer draws for sentence t, rows = tokens, cols = slots.

    ``src_write`` / ``tgt_write``: what sentence t wrote (its Update Attention, transposed);
    ``src_read`` / ``tgt_read``: what sentence t+1 read back (its Output Attention).
    """

    src_write: np.ndarray | None
    tgt_write: np.ndarray | None
    src_read: np.ndarray | None
    tgt_read: np.ndarray | None


def viewer_data(result: SentenceResult | None, next_result: SentenceResult | None,
                head: int | None) -> ViewerData:
    def write(name: str) -> np.ndarray | None:
        att = result.attention if result is not None else None
        m = head_view(getattr(att, name), head) if att is not None else None
        return None if m is None else m.T  # (slots, tokens) -> (tokens, slots)

    def read(name: str) -> np.ndarray | None:
        att = next_result.attention if next_result is not None else None
        return head_view(getattr(att, name), head) if att is not None else None

    return ViewerData(write("src_update"), write("tgt_update"), read("src_output"), read("tgt_output"))


def slots_written(write: np.ndarray, token: int, top: int = 3) -> list[int]:
    """The slots that took most from ``token``: its ``top`` strongest, keeping only those at least
    half as strong as the strongest (so a token that barely wrote anywhere marks one slot)."""
    col = write[token]
    order = [int(s) for s in np.argsort(-col, kind="stable")[:top]]
    best = float(col[order[0]]) if order else 0.0
    return [s for s in order if col[s] >= 0.5 * best and col[s] > 0]


def readers(read: np.ndarray, slots: list[int], top: int = 3) -> list[tuple[int, float]]:
    """Tokens of a later sentence that read ``slots`` most: (token, attention mass on those slots),
    strongest first, only tokens that give them more than a uniform share of their attention."""
    if not slots or read.size == 0:
        return []
    mass = read[:, slots].sum(axis=1)
    uniform = len(slots) / read.shape[1]
    order = [int(t) for t in np.argsort(-mass, kind="stable")[:top]]
    return [(t, float(mass[t])) for t in order if mass[t] > uniform]


def token_label(piece: str, width: int = 0) -> str:
    """A SentencePiece piece for a row label, the word-start mark shown as a space; cut and
    right-aligned to ``width`` (0: as it is, stripped -- for running text)."""
    text = piece.replace("\u2581", " ").rstrip() or piece
    if width <= 0:
        return text.strip() or piece
    text = text if len(text) <= width else text[: width - 1] + "\u2026"
    return text.rjust(width)


@dataclass
class Palette:
    background: Color
    primary: Color
    foreground: Color
    accent: Color

    @classmethod
    def from_variables(cls, variables: dict[str, str]) -> Palette:
        """From a theme's resolved CSS variables (``App.get_css_variables()``)."""
        bg, fg = Color.parse(variables["background"]), Color.parse(variables["foreground"])
        primary, accent = Color.parse(variables["primary"]), Color.parse(variables["accent"])
        # The ramp must get monotonically further from the background; a theme whose primary
        # colour is not between its background and foreground in brightness gets a plain
        # background -> foreground ramp through their midpoint instead.
        lo, hi = sorted((bg.brightness, fg.brightness))
        if not lo <= primary.brightness <= hi:
            primary = bg.blend(fg, 0.5)
        return cls(bg, primary, fg, accent)

    def cell(self, v: float) -> Color:
        v = min(1.0, max(0.0, v))
        if v < 0.5:
            return self.background.blend(self.primary, v * 2)
        return self.primary.blend(self.foreground, (v - 0.5) * 2)


def render_heatmap(matrix: np.ndarray, tokens: list[str], palette: Palette, *, title: str, cell: int = 2,
                   label_width: int = 10, cursor: int | None = None, marked_slots: list[int] | None = None,
                   marked_rows: list[int] | None = None) -> Text:
    """Rows = tokens, columns = slots. ``cursor`` row gets a ▶ and a reversed label, ``marked_rows``
    an accent ●, ``marked_slots`` an accent header; cells are background colours only."""
    marked_slots = marked_slots or []
    marked_rows = marked_rows or []
    rows, slots = matrix.shape
    peak = float(matrix.max()) if matrix.size else 0.0
    scale = 1.0 / peak if peak > 0 else 0.0
    accent = Style(color=palette.accent.rich_color, bold=True)
    out = Text(no_wrap=True, overflow="crop")
    out.append(f"{title} (max {peak:.2f})\n", style="bold")
    # Slot numbers as two header lines, tens over units: one character per digit keeps 16 slots
    # readable in 1-wide cells, and 2-digit numbers never run into each other.
    marked = Style(reverse=True, bold=True, color=palette.accent.rich_color)
    for line in ("tens", "units"):
        out.append(" " * (label_width + 2))
        for s in range(slots):
            digit = (str(s // 10) if s >= 10 else " ") if line == "tens" else str(s % 10)
            out.append(digit.rjust(cell), style=marked if s in marked_slots else "dim")
        out.append("\n")
    for r in range(rows):
        label = token_label(tokens[r] if r < len(tokens) else "?", label_width)
        if r == cursor:
            out.append("\u25b6", style=accent)
            out.append(label, style=Style(reverse=True, bold=True))
        elif r in marked_rows:
            out.append("\u25cf", style=accent)
            out.append(label, style=accent)
        else:
            out.append(" " + label)
        out.append(" ")
        for s in range(slots):
            bg = palette.cell(float(matrix[r, s]) * scale)
            out.append(" " * cell, style=Style(bgcolor=bg.rich_color))
        out.append("\n")
    out.rstrip()
    return out
