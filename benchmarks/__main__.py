"""Run every ``benchmarks/bench_*.py`` in name order, after a header naming the machine.

Each benchmark module exposes ``main() -> None``. Arguments, when given, keep only the modules
whose name contains one of them (``python -m benchmarks ranking``). A benchmark that raises is
reported and the run carries on; the exit status is then 1.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import platform
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

import benchmarks


def cpu_model() -> str:
    """The CPU's marketing name: /proc/cpuinfo where it exists, else what ``platform`` knows."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine() or "unknown"


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform; the machine total is the best left
        return os.cpu_count() or 1


def header() -> str:
    return "\n".join(
        [
            "openproject-mcp benchmarks",
            f"  cpu:    {cpu_model()} ({available_cores()} cores usable, {os.cpu_count()} online)",
            f"  python: {platform.python_implementation()} {platform.python_version()} on {platform.platform()}",
        ]
    )


def discover(filters: Sequence[str]) -> list[str]:
    names = sorted(
        module.name
        for module in pkgutil.iter_modules(benchmarks.__path__)
        if module.name.startswith("bench_") and not module.ispkg
    )
    return [name for name in names if not filters or any(part in name for part in filters)]


def run(filters: Sequence[str]) -> int:
    print(header())
    failed: list[str] = []
    for name in discover(filters):
        print(f"\n== {name} ==", flush=True)
        try:
            module = importlib.import_module(f"benchmarks.{name}")
            entry = getattr(module, "main", None)
            if not callable(entry):
                raise TypeError(f"benchmarks.{name} has no main() function")
            entry()
        except Exception:
            traceback.print_exc()
            failed.append(name)
        sys.stdout.flush()
    if failed:
        print(f"\nfailed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
