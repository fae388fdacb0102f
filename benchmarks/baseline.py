"""The ranking code as it was before ADR 0016, rebuilt from the repository's history for comparison.

The speed targets of the ranking benchmark are ratios to the median of the code before the
relevance rules (``BASELINE_COMMIT``). Wall-clock medians on a shared machine move by a factor
of two or three from one run to the next, so the old code is timed in the same process, in
interleaved rounds, and only the ratio is read. The old ``src/`` tree is taken with
``git archive`` into a temporary directory as the package ``BASELINE_PACKAGE`` (its imports
rewritten), so both versions can be imported side by side. Without the repository's history
(an exported tarball, a shallow clone) the baseline is unavailable and the benchmark says so.
"""

from __future__ import annotations

import atexit
import importlib
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

BASELINE_COMMIT = "685d7094f1ad309d614aac055b1d649b573b43bb"
BASELINE_PACKAGE = "baseline_openproject_mcp"
_IMPORTS = re.compile(r"\bopenproject_mcp\.")
_REPOSITORY = Path(__file__).resolve().parent.parent
_built: dict[str, Path] = {}


class BaselineUnavailableError(RuntimeError):
    """The old code cannot be rebuilt here (no git, or the commit is not in this clone)."""


def _archive(commit: str) -> bytes:
    try:
        done = subprocess.run(
            ["git", "-C", str(_REPOSITORY), "archive", "--format=tar", commit, "src"],
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise BaselineUnavailableError(f"git is not usable here: {error}") from error
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise BaselineUnavailableError(f"commit {commit[:12]} is not in this clone: {message}")
    return done.stdout


def package_name(commit: str) -> str:
    return BASELINE_PACKAGE if commit == BASELINE_COMMIT else f"{BASELINE_PACKAGE}_{commit[:12]}"


def load(module: str, commit: str = BASELINE_COMMIT) -> ModuleType:
    """``openproject_mcp.<module>`` as it was at ``commit`` (e.g. ``domain.search``)."""
    package_root = package_name(commit)
    if commit not in _built:
        root = Path(tempfile.mkdtemp(prefix="ranking-baseline-"))
        atexit.register(shutil.rmtree, root, ignore_errors=True)
        package = root / package_root
        with tarfile.open(fileobj=io.BytesIO(_archive(commit))) as archive:
            for member in archive.getmembers():
                if not member.isfile() or not member.name.startswith("src/"):
                    continue
                target = package / member.name.removeprefix("src/")
                target.parent.mkdir(parents=True, exist_ok=True)
                extracted = archive.extractfile(member)
                if extracted is None:
                    continue
                data = extracted.read()
                if target.suffix == ".py":
                    data = _IMPORTS.sub(f"{package_root}.", data.decode("utf-8")).encode("utf-8")
                target.write_bytes(data)
        sys.path.insert(0, str(root))
        _built[commit] = root
    return importlib.import_module(f"{package_root}.{module}")
