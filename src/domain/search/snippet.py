"""Excerpts cut around where a field matched, so a caller sees why a long text was returned."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["ELLIPSIS", "SNIPPET_LEAD", "SNIPPET_LENGTH", "needs_anchor", "snippet"]

SNIPPET_LENGTH = 160
SNIPPET_LEAD = 40
ELLIPSIS = "..."


def snippet(text: str, offsets: Sequence[int], max_length: int = SNIPPET_LENGTH, lead: int = SNIPPET_LEAD) -> str:
    """A window of ``max_length`` characters opening ``lead`` characters before the earliest offset.

    Near the end of the text the window slides back rather than shrinking, so a late match still
    gets a full excerpt. Whitespace runs become single spaces (a snippet is one line), and
    ``...`` marks each side where text was cut, so the result is at most ``max_length + 6`` long.
    """
    if max_length < 1:
        raise ValueError(f"max_length must be >= 1, got {max_length}")
    if lead < 0:
        raise ValueError(f"lead must be >= 0, got {lead}")
    if not text:
        return ""
    start = 0
    if offsets:
        earliest = min(max(0, min(offsets)), len(text))
        start = max(0, min(earliest - lead, len(text) - max_length))
    end = min(len(text), start + max_length)
    body = " ".join(text[start:end].split())
    # Cutting through whitespace alone hides nothing, so it earns no ellipsis.
    prefix = ELLIPSIS if start > 0 and not text[:start].isspace() else ""
    suffix = ELLIPSIS if end < len(text) and not text[end:].isspace() else ""
    if not body:
        return ""
    return f"{prefix}{body}{suffix}"


def needs_anchor(text: str, max_length: int = SNIPPET_LENGTH) -> bool:
    """Whether ``snippet(text, offsets, max_length)`` depends on ``offsets`` at all: a text that
    fits in the window is shown whole, wherever it matched, so its anchor need not be found."""
    return len(text) > max_length
