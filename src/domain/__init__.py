"""The pure core: entities, errors, filters and the search unit (standard library only)."""
