"""Build the wheel and sdist, install the wheel into a fresh virtual environment, and use it there.

What a user without a clone gets: the build must print no warning of ours, the wheel must hold
every module of the package and the files the command line cites, and the installed command must
answer a demo call from outside the source tree. Run by ``make dist-check`` (part of ``make test``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
WARNING = re.compile(r"\b\w*Warning\b|\bdeprecat", re.IGNORECASE)
SHIPPED = ("openproject_mcp/dataset-format.md", "openproject_mcp/adapters/fixture/demo_dataset.json")


def fail(message: str) -> None:
    print(f"check_dist: {message}", file=sys.stderr)
    raise SystemExit(1)


def build() -> tuple[Path, Path]:
    shutil.rmtree(DIST, ignore_errors=True)
    shutil.rmtree(ROOT / "build", ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(DIST), str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
    )
    log = done.stdout + done.stderr
    if done.returncode != 0:
        fail(f"the build failed:\n{log}")
    # setuptools' notes that byte-compiling is off are about this machine, not the project.
    warnings = [line for line in log.splitlines() if WARNING.search(line) and "byte-compiling is disabled" not in line]
    if warnings:
        fail("the build printed warnings:\n" + "\n".join(warnings))
    wheels, sdists = list(DIST.glob("*.whl")), list(DIST.glob("*.tar.gz"))
    if len(wheels) != 1 or len(sdists) != 1:
        fail(f"expected one wheel and one sdist in {DIST}, found {sorted(p.name for p in DIST.iterdir())}")
    return wheels[0], sdists[0]


def check_contents(wheel: Path, sdist: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {f"openproject_mcp/{p.relative_to(ROOT / 'src').as_posix()}" for p in (ROOT / "src").rglob("*.py")}
    missing = sorted(modules - names) + [name for name in SHIPPED if name not in names]
    if missing:
        fail(f"the wheel lacks {missing}")
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    if "License-Expression: MIT" not in text or not any(n.endswith("licenses/LICENSE") for n in names):
        fail("the wheel's metadata has no SPDX licence expression or no LICENSE file")
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    wanted = ("/LICENSE", "/docs/dataset-format.md")
    if not all(any(m.endswith(suffix) for m in members) for suffix in wanted):
        fail("the sdist lacks LICENSE or docs/dataset-format.md")


def check_installed(wheel: Path) -> None:
    with tempfile.TemporaryDirectory(prefix="openproject-mcp-dist-") as scratch:
        home = Path(scratch) / "venv"
        venv.create(home, with_pip=True)
        python = home / "bin" / "python"
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--no-compile", "--only-binary", ":all:", str(wheel)],
            check=True,
            cwd=scratch,
        )
        command = home / "bin" / "openproject-mcp"
        call = subprocess.run(
            [str(command), "call", "openproject_search_meetings", '{"query": "budget aproval"}', "--demo"],
            capture_output=True,
            text=True,
            cwd=scratch,
            check=False,
        )
        if call.returncode != 0 or "Q4 budget approval" not in call.stdout:
            fail(f"the installed command did not answer the demo call:\n{call.stdout}\n{call.stderr}")
        helped = subprocess.run([str(command), "call", "--help"], capture_output=True, text=True, cwd=scratch)
        if "".join(str(home).split()) not in "".join(helped.stdout.split()):  # help lines wrap anywhere
            fail(f"--dataset help does not point into the installed package:\n{helped.stdout}")
    print(f"check_dist: {wheel.name} installs into a fresh venv and answers a demo call")


def main() -> None:
    wheel, sdist = build()
    check_contents(wheel, sdist)
    check_installed(wheel)


if __name__ == "__main__":
    main()
