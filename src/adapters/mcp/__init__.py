"""The MCP driving adapter: tools, schemas, error translation and transports."""
