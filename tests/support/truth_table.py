"""The version truth table in ``docs/openproject-versions.md``, parsed.

The table says, per OpenProject release, what the real API does; each cell cites OpenProject's source.
This module reads it so tests can check the fake OpenProject's profiles against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = REPO_ROOT / "docs" / "openproject-versions.md"

VERSIONS: tuple[str, ...] = ("16.6", "17.3", "17.4", "17.5", "17.6", "17.7", "17.8", "18.0")

TABLE_BEGIN, TABLE_END = "<!-- truth-table:begin -->", "<!-- truth-table:end -->"
SOURCES_BEGIN, SOURCES_END = "<!-- sources:begin -->", "<!-- sources:end -->"

SPEC_FILE = "openproject-apiv3-17.3-stable.bundled.json"
UPSTREAM_SOURCE = re.compile(r"^opf/openproject@[0-9a-f]{40}:[^\s`]+$")
SPEC_SOURCE = re.compile(rf"^{re.escape(SPEC_FILE)}#(/[^\s`]*)?$")

Atom = bool | str | frozenset[str]
"""One value of a cell: ``yes``/``no`` as a bool, a set as a frozenset, anything else as text."""


@dataclass(frozen=True, slots=True)
class KeySpec:
    """What a key's cells may contain and which attribute of the fake's ``Profile`` plays it."""

    attribute: str | None
    """``None``: the key is a behaviour of every list, not a profile attribute."""
    vocabulary: frozenset[str] | None = None
    """Allowed words; ``None`` when the value is a bool or a set (checked by ``kind``)."""
    kind: type = bool
    always: Atom | None = None
    """A value every release must have (the key has no attribute because the fake always plays it)."""


API_SORT_NAMES = frozenset({"startTime", "id", "title", "type", "duration", "location", "projectName"})

KEYS: dict[str, KeySpec] = {
    "meetings.list": KeySpec("meeting_list"),
    "meetings.time_filter": KeySpec("meeting_time_filter", frozenset({"list", "operator"}), str),
    "meetings.sort_keys": KeySpec("meeting_sort_keys", API_SORT_NAMES, frozenset),
    "meetings.search_filter": KeySpec("meeting_search_filter"),
    "meetings.title_filter": KeySpec("meeting_title_filter"),
    "meetings.participants": KeySpec("meeting_participants"),
    "meetings.state": KeySpec("meeting_state"),
    "meetings.duration": KeySpec("meeting_duration", frozenset({"hours", "iso8601"}), str),
    "agenda_items.list": KeySpec("agenda_items"),
    "agenda_items.backlog": KeySpec("agenda_backlog"),
    "agenda_items.outcomes_embedded": KeySpec("outcomes_embedded"),
    "meeting_outcomes.flat": KeySpec("meeting_outcomes_endpoint"),
    "wiki_pages.get": KeySpec(None, always=True),
    "wiki_pages.list": KeySpec("wiki_page_list"),
    "wiki_pages.text": KeySpec("wiki_bodies"),
    "wiki_page_links.work_package": KeySpec("wiki_page_links"),
    "wiki_page_links.global": KeySpec("wiki_page_links_global"),
    "work_packages.display_id": KeySpec("display_ids"),
    "work_packages.display_id_lookup": KeySpec("display_id_lookup"),
    "time_entries.entity": KeySpec("time_entry_entity"),
    "activities.internal_comments": KeySpec(None, always=True),
    "work_packages.stale_lock_version": KeySpec(None, frozenset({"409 UpdateConflict"}), str),
    "principals.status_values": KeySpec("principal_status_values", None, frozenset),
    "users.status_values": KeySpec("user_status_values", None, frozenset),
    "errors.unknown_sort_key": KeySpec(None, frozenset({"400 InvalidQuery"}), str),
    "errors.invalid_filter_value": KeySpec(None, frozenset({"400 InvalidQuery"}), str),
}
"""The keys every table must have (more may be added); see the key list in the document."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One version's answer for one key."""

    candidates: tuple[Atom, ...]
    """One value when settled; every candidate when ``unsettled(A,B)``."""
    citations: tuple[str, ...]
    raw: str

    @property
    def settled(self) -> bool:
        return len(self.candidates) == 1


@dataclass(frozen=True, slots=True)
class TruthTable:
    versions: tuple[str, ...]
    rows: dict[str, dict[str, Cell]]
    sources: dict[str, str]
    """Citation id → the source (``opf/openproject@sha:path`` or the spec form), without its description."""
    text: str


class TableError(ValueError):
    """The document does not hold a well-formed table; the message says where."""


def _between(text: str, begin: str, end: str) -> str:
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < 0 or stop < start:
        raise TableError(f"markers {begin!r} … {end!r} not found in order")
    return text[start + len(begin) : stop]


def _table_lines(block: str) -> list[list[str]]:
    """The rows of a Markdown table, each split into trimmed cells (``\\|`` is a literal bar)."""
    rows = []
    for line in block.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip("|"))]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue
        rows.append(cells)
    return rows


def parse_atom(text: str) -> Atom:
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        return frozenset(text[1:-1].split())
    if text in ("yes", "no"):
        return text == "yes"
    return text


def _split_candidates(inner: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in inner:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p.strip() for p in parts]


CELL = re.compile(r"^(?P<value>.*?)\s*\[(?P<cites>[^\]]*)\]$")


def parse_cell(raw: str) -> Cell:
    match = CELL.match(raw)
    if not match:
        raise TableError(f"cell {raw!r} is not 'VALUE [S1,S2]'")
    value = match["value"].strip()
    citations = tuple(c.strip() for c in match["cites"].split(",") if c.strip())
    if value.startswith("unsettled(") and value.endswith(")"):
        candidates = tuple(parse_atom(p) for p in _split_candidates(value[len("unsettled(") : -1]))
        if len(candidates) < 2 or len(set(candidates)) != len(candidates):
            raise TableError(f"cell {raw!r}: unsettled needs two or more distinct candidates")
    else:
        candidates = (parse_atom(value),)
    return Cell(candidates, citations, raw)


def parse(text: str) -> TruthTable:
    table = _table_lines(_between(text, TABLE_BEGIN, TABLE_END))
    if not table:
        raise TableError("the truth table is empty")
    header, body = table[0], table[1:]
    if header[0] != "key":
        raise TableError(f"the table's first column is {header[0]!r}, not 'key'")
    versions = tuple(header[1:])
    rows: dict[str, dict[str, Cell]] = {}
    for line in body:
        if len(line) != len(header):
            raise TableError(f"row {line[0]!r} has {len(line) - 1} cells for {len(versions)} versions")
        if line[0] in rows:
            raise TableError(f"key {line[0]!r} appears twice")
        rows[line[0]] = {version: parse_cell(raw) for version, raw in zip(versions, line[1:], strict=True)}

    sources: dict[str, str] = {}
    for line in _table_lines(_between(text, SOURCES_BEGIN, SOURCES_END))[1:]:
        if len(line) < 2:
            raise TableError(f"source row {line!r} has no source")
        found = re.match(r"^`([^`]+)`", line[1])
        if not found:
            raise TableError(f"source {line[0]} does not start with a `quoted` source")
        if line[0] in sources:
            raise TableError(f"source id {line[0]} appears twice")
        sources[line[0]] = found[1]
    return TruthTable(versions, rows, sources, text)


def load(path: Path = DOC_PATH) -> TruthTable:
    return parse(path.read_text(encoding="utf-8"))


def problems(table: TruthTable) -> list[str]:
    """Everything wrong with the table itself (its shape, vocabulary and citations); empty when sound."""
    found: list[str] = []
    if table.versions != VERSIONS:
        found.append(f"columns are {table.versions}, expected {VERSIONS}")
    for key in KEYS:
        if key not in table.rows:
            found.append(f"key {key} is missing")
    for ident, source in table.sources.items():
        if not re.fullmatch(r"S\d+", ident):
            found.append(f"source id {ident!r} is not S<number>")
        if not (UPSTREAM_SOURCE.match(source) or SPEC_SOURCE.match(source)):
            found.append(
                f"source {ident} ({source!r}) is neither opf/openproject@<40 hex>:<path> nor {SPEC_FILE}#<ptr>"
            )
    for key, cells in table.rows.items():
        spec = KEYS.get(key)
        for version, cell in cells.items():
            where = f"{key} @ {version}"
            if not cell.citations:
                found.append(f"{where}: no citation")
            for ident in cell.citations:
                if ident not in table.sources:
                    found.append(f"{where}: cites {ident}, which is not in the sources table")
            if spec is None:
                continue
            for candidate in cell.candidates:
                found.extend(f"{where}: {issue}" for issue in _vocabulary_issues(spec, candidate))
            if spec.always is not None and cell.candidates != (spec.always,):
                found.append(f"{where}: must be {_show(spec.always)} on every release, is {cell.raw!r}")
    return found


def _vocabulary_issues(spec: KeySpec, value: Atom) -> list[str]:
    if spec.kind is bool:
        return [] if isinstance(value, bool) else [f"{value!r} is not yes/no"]
    if spec.kind is frozenset:
        if not isinstance(value, frozenset):
            return [f"{value!r} is not a set {{…}}"]
        if spec.vocabulary is not None and not value <= spec.vocabulary:
            return [f"{sorted(value - spec.vocabulary)} not in {sorted(spec.vocabulary)}"]
        return []
    if not isinstance(value, str) or (spec.vocabulary is not None and value not in spec.vocabulary):
        return [f"{value!r} not in {sorted(spec.vocabulary or ())}"]
    return []


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, frozenset):
        return "{" + " ".join(sorted(value)) + "}"
    return str(value)


def profile_mismatches(table: TruthTable, profile: object, column: str) -> list[str]:
    """How one fake profile differs from the table's column for that version; empty when it matches.

    A settled cell must equal the profile's attribute, an unsettled cell must contain it, and a key whose
    attribute the profile does not have yet is reported by attribute name.
    """
    if column not in table.versions:
        return [f"profile {column!r} has no column in the truth table (columns: {', '.join(table.versions)})"]
    found: list[str] = []
    for key, spec in KEYS.items():
        if spec.attribute is None or key not in table.rows:
            continue
        cell = table.rows[key][column]
        if not hasattr(profile, spec.attribute):
            found.append(f"{key}: Profile has no attribute {spec.attribute!r} (table says {cell.raw!r})")
            continue
        actual = getattr(profile, spec.attribute)
        normalised: object = frozenset(str(v) for v in actual) if spec.kind is frozenset else actual
        if normalised not in cell.candidates:
            expected = " or ".join(_show(c) for c in cell.candidates)
            found.append(f"{key}: profile {column} has {spec.attribute}={_show(normalised)}, table says {expected}")
    return found


def resolve_pointer(document: object, pointer: str) -> object:
    """The value a JSON pointer (``/a/b~1c``) names in ``document``; ``KeyError`` when it names nothing."""
    node = document
    for token in [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise KeyError(pointer)
    return node
