"""Remote mode: the MCP server over stateless streamable HTTP, shared by callers who each bring a token.

The SDK's streamable-HTTP app speaks the protocol. Around it this package adds what a shared
server needs: a guard on the MCP endpoint (``guard``: Origin, method, credentials, rate and
in-flight limits, body size and timeout, a deadline per request counted from its first byte),
liveness and readiness routes that need no credentials (``health``), one JSON access-log line
per request (``access``), and a uvicorn runner with header timeouts, a connection cap and a
draining shutdown on SIGTERM (``server``). The settings are read with all the others
(``config.HttpSettings``); ``options`` names what this package uses of them.

The server keeps no state between requests (``stateless_http``, JSON responses), so any replica
behind any load balancer can answer any request. The OpenProject address is fixed by the
server's configuration; a request only ever chooses *whose* token is used, never *where* it goes.
"""

from openproject_mcp.adapters.mcp.hosting.app import RemoteApp, build_http_app
from openproject_mcp.adapters.mcp.hosting.health import InstanceRoute
from openproject_mcp.adapters.mcp.hosting.options import HttpOptions
from openproject_mcp.adapters.mcp.hosting.server import DrainingServer, make_server, serve_http

__all__ = [
    "DrainingServer",
    "HttpOptions",
    "InstanceRoute",
    "RemoteApp",
    "build_http_app",
    "make_server",
    "serve_http",
]
