"""The OpenProject API v3 backend over aiohttp."""
