"""``python -m openproject_mcp`` is the ``openproject-mcp`` command."""

from openproject_mcp.entrypoint import main

raise SystemExit(main())
