"""openproject-mcp: a read-only MCP server for OpenProject with ranked fuzzy search."""

__version__ = "0.1.0"
