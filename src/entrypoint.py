"""The command line: ``serve`` (default), ``tools``, ``call`` and ``doctor``."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from importlib import resources
from typing import Any

import anyio

from openproject_mcp import __version__, doctor
from openproject_mcp.adapters.mcp.arguments import input_schema
from openproject_mcp.adapters.mcp.catalog import TOOLS
from openproject_mcp.adapters.mcp.hosting import HttpOptions, InstanceRoute, build_http_app, serve_http
from openproject_mcp.adapters.mcp.hosting.guard import REJECTED_TOKEN_HINT
from openproject_mcp.adapters.mcp.hosting.limits import RateLimiter
from openproject_mcp.adapters.mcp.hosting.options import check_http_options, in_flight_per_caller
from openproject_mcp.adapters.mcp.hosting.signin import OpenProjectSignIn, SignInServer, SignInSite
from openproject_mcp.adapters.mcp.server import build_server, tool_model
from openproject_mcp.adapters.mcp.transports import call_in_process, serve_stdio
from openproject_mcp.adapters.openproject.network import tls_context
from openproject_mcp.composition import Application
from openproject_mcp.config import (
    ConfigurationError,
    Settings,
    SignInSettings,
    env_flag,
    load_http_settings,
    load_settings,
    load_signin_settings,
)

EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE = 0, 1, 2

EPILOG = """\
examples:
  openproject-mcp serve --demo                      serve the embedded demo data over stdio
  openproject-mcp serve                             serve OPENPROJECT_BASE_URL with OPENPROJECT_API_KEY
  openproject-mcp serve --http --port 8000          a shared server at /mcp; each request brings its token
  openproject-mcp tools                             list the tools
  openproject-mcp tools openproject_search_meetings one tool's arguments
  openproject-mcp doctor                            check the settings, the network, the token and the instance
  openproject-mcp call openproject_search_meetings '{"query": "budget aproval"}' --demo
  openproject-mcp call openproject_get_work_package '{"workPackageId": 42}'

environment:
  OPENPROJECT_BASE_URL    your OpenProject address, e.g. https://openproject.example.com
  OPENPROJECT_API_KEY     an API token (My account -> Access tokens)
  OPENPROJECT_READ_ONLY   true to refuse every write tool (the same as --read-only)
  OPENPROJECT_TIMEOUT     seconds per request to OpenProject (default 30)
  OPENPROJECT_LOG_LEVEL   DEBUG, INFO, WARNING or ERROR (logs go to stderr; DEBUG logs every request sent)
  OPENPROJECT_CA_BUNDLE   a PEM file of CA certificates trusted besides the system's (internal CA)
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY   the proxy to reach the instance through, and hosts reached directly
  OPENPROJECT_SINGLE_TENANT  with --http: true to serve OPENPROJECT_API_KEY to callers without a token
  OPENPROJECT_HTTP_*      with --http: body limit, timeouts, allowed origins and hosts (see README)
  OPENPROJECT_OAUTH_*, OPENPROJECT_PUBLIC_URL  with --http: sign in with OpenProject (see README)
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="openproject-mcp",
        description="A read-only MCP server for OpenProject with ranked fuzzy search.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"openproject-mcp {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def data_options(command: argparse.ArgumentParser) -> None:
        source = command.add_mutually_exclusive_group()
        source.add_argument("--demo", action="store_true", help="use the embedded demo dataset")
        source.add_argument(
            "--dataset", metavar="PATH", help=f"use a dataset file (its format: {dataset_format_doc()})"
        )
        command.add_argument("--read-only", action="store_true", default=None, help="refuse every write tool")

    serve = commands.add_parser("serve", help="serve MCP over stdio (the default command) or HTTP")
    data_options(serve)
    serve.add_argument("--http", action="store_true", help="serve streamable HTTP at /mcp (remote mode)")
    serve.add_argument("--host", help="address to listen on with --http (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on with --http (default 8000)")
    tools = commands.add_parser("tools", help="list the tools with their titles, or one tool's arguments")
    tools.add_argument("tool", nargs="?", help="a tool name: print its description and arguments")
    tools.add_argument(
        "--read-only", action="store_true", default=None, help="list what a read-only server lists (no write tools)"
    )
    commands.add_parser(
        "doctor", help="check the settings, proxy, DNS, TLS, the token, the version and the detected features"
    )
    call = commands.add_parser("call", help="call one tool and print its result as JSON")
    call.add_argument("tool", help="tool name, e.g. openproject_search_work_packages")
    call.add_argument("arguments", nargs="?", default="{}", help="the arguments as a JSON object")
    data_options(call)
    return parser


def dataset_format_doc() -> str:
    """Where the dataset format's description is: shipped in the package, else its place in the repository."""
    shipped = resources.files("openproject_mcp").joinpath("dataset-format.md")
    return str(shipped) if shipped.is_file() else "docs/dataset-format.md"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`openproject-mcp call ... | head`): what it wanted it has; stop quietly.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")):
        args_list.insert(0, "serve")
    parser = _parser()
    args = parser.parse_args(args_list)
    if args.command == "tools":
        try:
            read_only = env_flag(os.environ, "OPENPROJECT_READ_ONLY") if args.read_only is None else args.read_only
        except ConfigurationError as exc:
            print(f"openproject-mcp: {exc}", file=sys.stderr)
            return EXIT_USAGE
        return _tools(args.tool, read_only=read_only)
    if args.command == "doctor":
        return doctor.run()
    http = args.command == "serve" and args.http
    if args.command == "serve" and not http and (args.host is not None or args.port is not None):
        parser.error("--host and --port only apply with --http")
    try:
        settings = load_settings(
            demo=args.demo, dataset=args.dataset, read_only=args.read_only, require_api_key=not http
        )
        if http:
            options = _http_options(settings, args.host, args.port)
            signin = _signin_settings(settings)
    except (ConfigurationError, ValueError) as exc:
        print(f"openproject-mcp: {exc}", file=sys.stderr)
        return EXIT_USAGE
    _configure_logging(settings)
    try:
        application = Application(settings, shared=http)
    except ValueError as exc:  # a dataset that cannot be served
        print(f"openproject-mcp: {exc}", file=sys.stderr)
        return EXIT_USAGE
    header_tokens = http and settings.backend == "openproject" and not settings.single_tenant
    server = build_server(
        application.scope,
        read_only=settings.read_only,
        max_result_chars=settings.limits.max_result_chars,
        auth_hint=REJECTED_TOKEN_HINT if header_tokens else None,
        result_format=settings.result_format,
        output_schemas=settings.output_schemas,
    )
    if args.command == "call":
        return _call(server, application, args.tool, args.arguments)
    if http:
        anyio.run(_serve_http, server, application, options, signin)
        return EXIT_OK
    anyio.run(_serve_stdio, server, application)
    return EXIT_OK


def _http_options(settings: Settings, host: str | None, port: int | None) -> HttpOptions:
    """Remote mode's options; the server's own token serves callers only in single-tenant mode."""
    if settings.single_tenant and settings.backend == "openproject" and settings.api_key is None:
        raise ConfigurationError("OPENPROJECT_SINGLE_TENANT=true needs OPENPROJECT_API_KEY, the token it serves.")
    options = load_http_settings(host=host, port=port)
    # Checked here too (the app checks them when built), so a bad entry is one line and exit 2.
    check_http_options(options)
    in_flight_per_caller(options, os.environ)
    return options


def served(settings: Settings, *, http: bool) -> str:
    """What the server serves, for its startup line: the data, the instance, and whose token is used."""
    if settings.backend == "demo":
        source = "the embedded demo dataset"
    elif settings.backend == "dataset":
        source = f"the dataset {settings.dataset_path}"
    else:
        source = f"OpenProject at {settings.base_url}"
        proxy = settings.network.proxy
        if proxy.url is not None:
            source += f" through the proxy {proxy.shown}"
    mode = f"{len(TOOLS)} tools" + (", write tools refused" if settings.read_only else "")
    if not http:
        who = " with OPENPROJECT_API_KEY" if settings.backend == "openproject" else ""
        return f"serving {source}{who} over stdio ({mode})"
    if settings.backend != "openproject":
        tenancy = "no token needed"
    elif settings.single_tenant:
        tenancy = "single tenant: requests without a token of their own use OPENPROJECT_API_KEY"
    else:
        tenancy = "remote multi-tenant: each request brings its own token"
    return f"serving {source} over streamable HTTP ({tenancy}; {mode})"


def _signin_settings(settings: Settings) -> SignInSettings | None:
    """Sign-in with OpenProject when its settings are given (remote mode over OpenProject only)."""
    signin = load_signin_settings()
    if signin is not None and settings.backend != "openproject":
        raise ConfigurationError(
            "Sign-in with OpenProject needs OPENPROJECT_BASE_URL; it does not apply to --demo or --dataset."
        )
    if signin is not None and settings.single_tenant:
        raise ConfigurationError(
            "OPENPROJECT_SINGLE_TENANT=true and sign-in with OpenProject exclude each other: "
            "single-tenant mode serves callers without a token, so none would ever sign in."
        )
    return signin


def _signin_server(application: Application, signin: SignInSettings, options: HttpOptions) -> SignInServer:
    store, upstream = application.signin_parts(signin)
    provider = OpenProjectSignIn(store, upstream, SignInSite(signin.public_url))
    return SignInServer(provider, limiter=RateLimiter(options.rate_limit_per_minute, options.rate_limit_burst))


def instance_route(settings: Settings) -> InstanceRoute:
    """The way tool calls reach the instance, for the readiness probe: the same proxy and CA bundle."""
    bundle = settings.network.ca_bundle
    return InstanceRoute(proxy=settings.network.proxy.url, tls=tls_context(str(bundle)) if bundle else None)


async def _serve_http(
    server: Any, application: Application, options: HttpOptions, signin: SignInSettings | None = None
) -> None:
    settings = application.settings
    logging.getLogger("openproject_mcp").info("%s", served(settings, http=True))
    if settings.api_key is not None and not settings.single_tenant:
        logging.getLogger("openproject_mcp").warning(
            "OPENPROJECT_API_KEY is not used over HTTP: every request brings its own token "
            "(OPENPROJECT_SINGLE_TENANT=true serves that one token to callers without one)."
        )
    app = build_http_app(
        server,
        options,
        credentials_required=settings.backend == "openproject" and not settings.single_tenant,
        instance=settings.instance,
        instance_url=settings.base_url,
        instance_route=instance_route(settings),
        signin=_signin_server(application, signin, options) if signin else None,
        shared_state=application.shared_state_reachable if settings.redis_url else None,
    )
    if signin is not None:
        logging.getLogger("openproject_mcp").info(
            "sign-in with OpenProject is on: OAuth clients connect to %s/mcp; OpenProject sends users back to %s",
            signin.public_url,
            signin.callback_url,
        )
    try:
        await application.start()
        await serve_http(app, options)
    finally:
        await application.aclose()


async def _serve_stdio(server: Any, application: Application) -> None:
    logging.getLogger("openproject_mcp").info("%s", served(application.settings, http=False))
    if sys.stdin.isatty():
        print(
            "openproject-mcp: waiting for an MCP client on stdin (an MCP client starts this command itself). "
            "By hand, try 'openproject-mcp call TOOL JSON', 'openproject-mcp tools' or 'openproject-mcp doctor'. "
            "Ctrl-C stops.",
            file=sys.stderr,
            flush=True,
        )
    try:
        await application.start()
        await serve_stdio(server)
    finally:
        await application.aclose()


async def _call_once(server: Any, application: Application, tool: str, arguments: dict[str, Any]) -> Any:
    try:
        await application.start()
        return await call_in_process(server, tool, arguments)
    finally:
        await application.aclose()


def _tools(name: str | None, *, read_only: bool) -> int:
    # What the server lists: a read-only server leaves the write tools out of tools/list, so this does too.
    listed = [spec for spec in TOOLS if not (read_only and spec.writes)]
    if name is None:
        for each in listed:
            print(f"{each.name:<44} {each.title}")
        return EXIT_OK
    spec = next((s for s in listed if s.name == name), None)
    if spec is None:
        refused = " (a write tool; this server is read-only)" if any(s.name == name for s in TOOLS) else ""
        print(
            f"openproject-mcp: unknown tool {name!r}{refused}; run 'openproject-mcp tools' for the list.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    model = tool_model(spec)
    print(f"{spec.name}: {spec.title}\n\n{model.description}\n")
    schema = input_schema(spec.arguments)  # the full schema, with the limits tools/list leaves to the server
    properties: dict[str, Any] = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    if not properties:
        print("arguments: none ('{}')")
        return EXIT_OK
    print("arguments:")
    for argument, prop in properties.items():
        facts = [_schema_type(prop)]
        if argument in required:
            facts.append("required")
        if "default" in prop:
            facts.append(f"default {json.dumps(prop['default'], ensure_ascii=False)}")
        description = prop.get("description") or " / ".join(
            str(option["description"]) for option in prop.get("anyOf", ()) if "description" in option
        )
        print(f"  {argument} ({', '.join(facts)}){': ' + description if description else ''}")
    return EXIT_OK


def _schema_type(prop: dict[str, Any]) -> str:
    """A property's JSON type in a few words: ``integer``, ``one of "open", "closed"``, ``integer or string``."""
    if "enum" in prop:
        return "one of " + ", ".join(json.dumps(v) for v in prop["enum"])
    if "anyOf" in prop:
        return " or ".join(dict.fromkeys(_schema_type(option) for option in prop["anyOf"]))
    kind = prop.get("type", "any")
    if isinstance(kind, list):
        return " or ".join(kind)
    low, high = prop.get("minimum", prop.get("minLength")), prop.get("maximum", prop.get("maxLength"))
    if low is not None and high is not None:
        return f"{kind} {low}..{high}" if kind != "string" else f"{kind} of {low} to {high} characters"
    if low is not None and kind != "string":
        return f"{kind} >= {low}"
    return str(kind)


def _call(server: Any, application: Application, tool: str, raw_arguments: str) -> int:
    names = {spec.name for spec in TOOLS}
    if tool not in names:
        print(f"openproject-mcp: unknown tool {tool!r}; run 'openproject-mcp tools' for the list.", file=sys.stderr)
        return EXIT_USAGE
    try:
        arguments = json.loads(raw_arguments)
    except json.JSONDecodeError as exc:
        print(f"openproject-mcp: the arguments are not valid JSON ({exc.msg} at {exc.pos}).", file=sys.stderr)
        return EXIT_USAGE
    if not isinstance(arguments, dict):
        print('openproject-mcp: the arguments must be a JSON object, e.g. \'{"query": "budget"}\'.', file=sys.stderr)
        return EXIT_USAGE
    result = anyio.run(_call_once, server, application, tool, arguments)
    if result.is_error:
        text = "\n".join(getattr(c, "text", "") for c in result.content)
        print(text, file=sys.stderr)
        return EXIT_TOOL_ERROR
    if result.structured_content is None:  # OPENPROJECT_RESULT_FORMAT=content: the text is the answer
        print("\n".join(getattr(c, "text", "") for c in result.content))
    else:
        print(json.dumps(result.structured_content, indent=2, ensure_ascii=False))
    return EXIT_OK


def _configure_logging(settings: Settings) -> None:
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, settings.log_level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # One audit line per write, whatever the log level (it carries no text and no token).
    logging.getLogger("openproject_mcp.audit").setLevel(logging.INFO)


if __name__ == "__main__":
    raise SystemExit(main())
