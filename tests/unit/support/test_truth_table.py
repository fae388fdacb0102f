"""The version truth table is well formed, cites OpenProject's source, and the fake plays it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import shared_path
from tests.support import truth_table
from tests.support.fake_openproject.profiles import PROFILE_FOR_VERSION, PROFILES, profile_named
from tests.support.truth_table import SPEC_FILE, SPEC_SOURCE, Cell, TableError, TruthTable


@pytest.fixture(scope="module")
def table() -> TruthTable:
    return truth_table.load()


def test_the_table_is_well_formed_and_every_cell_is_cited(table: TruthTable) -> None:
    assert truth_table.problems(table) == []


def test_the_document_states_its_version_anchors(table: TruthTable) -> None:
    anchors = table.text.split("## Version anchors", 1)
    assert len(anchors) == 2, "the document has no 'Version anchors' section"
    section = anchors[1].split("\n## ", 1)[0]
    for version in ("14.4.0", "17.6.0", "18.0.0"):
        assert version in section


def test_spec_citations_point_at_something_in_the_bundled_spec(table: TruthTable) -> None:
    spec = json.loads(shared_path("openproject-spec", SPEC_FILE).read_text(encoding="utf-8"))
    pointers = {source: match[1] or "" for source in table.sources.values() if (match := SPEC_SOURCE.match(source))}
    assert pointers, "no citation of the bundled 17.3 spec"
    for source, pointer in pointers.items():
        try:
            truth_table.resolve_pointer(spec, pointer)
        except KeyError:
            pytest.fail(f"{source} names nothing in {SPEC_FILE}")


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_each_fake_profile_plays_its_column(table: TruthTable, name: str) -> None:
    mismatches = truth_table.profile_mismatches(table, PROFILES[name], name)
    assert mismatches == [], "\n".join([f"profile {name} differs from docs/openproject-versions.md:", *mismatches])


@pytest.mark.parametrize("version", sorted(PROFILE_FOR_VERSION))
def test_each_version_a_profile_plays_for_another_matches_its_own_column(table: TruthTable, version: str) -> None:
    """17.4, 17.6 and 17.7 are played by another version's profile: what that profile serves must
    still be what the played version does."""
    mismatches = truth_table.profile_mismatches(table, profile_named(version), version)
    assert mismatches == [], "\n".join([f"version {version} differs from docs/openproject-versions.md:", *mismatches])


# The checks above only mean something if they can fail; these feed them broken tables.

GOOD_ROW = "| meetings.list | " + " | ".join(["yes [S1]"] * 8) + " |"
GOOD_SOURCE = "| S1 | `opf/openproject@" + "a" * 40 + ":lib/x.rb` — x |"


def _document(rows: list[str], sources: list[str]) -> str:
    header = "| key | " + " | ".join(truth_table.VERSIONS) + " |"
    return "\n".join(
        [
            truth_table.TABLE_BEGIN,
            header,
            "|---" * 9 + "|",
            *rows,
            truth_table.TABLE_END,
            truth_table.SOURCES_BEGIN,
            "| id | source |",
            "|---|---|",
            *sources,
            truth_table.SOURCES_END,
        ]
    )


def test_a_citation_of_an_unknown_source_is_reported() -> None:
    row = GOOD_ROW.replace("yes [S1] |", "yes [S9] |", 1)
    found = truth_table.problems(truth_table.parse(_document([row], [GOOD_SOURCE])))
    assert any("cites S9" in p for p in found)


def test_a_cell_without_citation_is_rejected() -> None:
    with pytest.raises(TableError, match="is not 'VALUE"):
        truth_table.parse(_document([GOOD_ROW.replace("yes [S1]", "yes", 1)], [GOOD_SOURCE]))


def test_a_source_that_is_not_a_full_upstream_commit_is_reported() -> None:
    short = "| S1 | `opf/openproject@abc1234:lib/x.rb` — x |"
    found = truth_table.problems(truth_table.parse(_document([GOOD_ROW], [short])))
    assert any("neither opf/openproject@<40 hex>" in p for p in found)


def test_a_word_outside_the_vocabulary_is_reported() -> None:
    row = GOOD_ROW.replace("yes [S1]", "maybe [S1]", 1)
    found = truth_table.problems(truth_table.parse(_document([row], [GOOD_SOURCE])))
    assert any("'maybe' is not yes/no" in p for p in found)


def test_missing_keys_are_reported() -> None:
    found = truth_table.problems(truth_table.parse(_document([GOOD_ROW], [GOOD_SOURCE])))
    assert "key meetings.sort_keys is missing" in found


def test_unsettled_cells_keep_every_candidate() -> None:
    cell = truth_table.parse_cell("unsettled({id startTime},{}) [S1,S2]")
    assert cell == Cell((frozenset({"id", "startTime"}), frozenset()), ("S1", "S2"), cell.raw)
    assert not cell.settled
    with pytest.raises(TableError, match="distinct candidates"):
        truth_table.parse_cell("unsettled(yes) [S1]")


class _Profile:
    def __init__(self, **attributes: object) -> None:
        self.__dict__.update(attributes)


def test_a_profile_is_held_to_settled_cells_and_unsettled_candidates() -> None:
    rows = [
        GOOD_ROW,
        "| meetings.time_filter | " + " | ".join(["unsettled(list,operator) [S1]"] * 8) + " |",
        "| meetings.sort_keys | " + " | ".join(["{id startTime} [S1]"] * 8) + " |",
    ]
    table = truth_table.parse(_document(rows, [GOOD_SOURCE]))
    playing = _Profile(meeting_list=True, meeting_time_filter="operator", meeting_sort_keys=frozenset({"startTime"}))
    found = truth_table.profile_mismatches(table, playing, "17.3")
    assert found[0] == "meetings.sort_keys: profile 17.3 has meeting_sort_keys={startTime}, table says {id startTime}"
    assert len(found) == 1
    assert truth_table.profile_mismatches(table, _Profile(meeting_list=True), "17.3") == [
        "meetings.time_filter: Profile has no attribute 'meeting_time_filter' "
        "(table says 'unsettled(list,operator) [S1]')",
        "meetings.sort_keys: Profile has no attribute 'meeting_sort_keys' (table says '{id startTime} [S1]')",
    ]
    assert truth_table.profile_mismatches(table, playing, "17.9") == [
        "profile '17.9' has no column in the truth table (columns: 16.6, 17.3, 17.4, 17.5, 17.6, 17.7, 17.8, 18.0)"
    ]
