"""Adapters: the in-memory fixture backend, the OpenProject HTTP backend and the MCP server."""
