"""Use cases, one per tool, and the search pipeline. Depends on the domain and ports only."""
