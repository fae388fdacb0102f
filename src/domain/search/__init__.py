"""The search unit: fold, tokenise, score and rank records against a query (standard library only).

Pure functions over their arguments, and a scorer that lives for one search; no I/O and no state
kept between searches. ADR 0016 records
the rules and why they are what they are.
"""

from openproject_mcp.domain.search.distance import bounded_distance
from openproject_mcp.domain.search.normalize import Token, normalize, query_spellings, query_tokens, tokenize
from openproject_mcp.domain.search.query import query_clauses, split_versions
from openproject_mcp.domain.search.rank import (
    DEFAULT_MIN_SCORE,
    Corpus,
    Extracted,
    Field,
    FieldMatch,
    FieldScore,
    ItemMatch,
    MatchMode,
    QueryScorer,
    Ranked,
    Ranking,
    TokenStore,
    extract_texts,
    field_ratio,
    rank_records,
    score_field,
)
from openproject_mcp.domain.search.score import EDIT_PENALTY, PHRASE_BONUS, STEM_SCORE, number_plural, score_token
from openproject_mcp.domain.search.snippet import SNIPPET_LEAD, SNIPPET_LENGTH, snippet
from openproject_mcp.domain.search.stem import shared_beginning, stem_keys

__all__ = [
    "DEFAULT_MIN_SCORE",
    "EDIT_PENALTY",
    "PHRASE_BONUS",
    "SNIPPET_LEAD",
    "SNIPPET_LENGTH",
    "STEM_SCORE",
    "Corpus",
    "Extracted",
    "Field",
    "FieldMatch",
    "FieldScore",
    "ItemMatch",
    "MatchMode",
    "QueryScorer",
    "Ranked",
    "Ranking",
    "Token",
    "TokenStore",
    "bounded_distance",
    "extract_texts",
    "field_ratio",
    "normalize",
    "number_plural",
    "query_clauses",
    "query_spellings",
    "query_tokens",
    "rank_records",
    "score_field",
    "score_token",
    "shared_beginning",
    "snippet",
    "split_versions",
    "stem_keys",
    "tokenize",
]
