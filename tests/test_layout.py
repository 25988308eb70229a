"""The package's shape: private Warp kept to two modules, the layering contract, the Warp session."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT
from warp_cuda_ir import extraction, warp_session

PACKAGE = ROOT / "warp_cuda_ir"


def private_warp_importers() -> set[str]:
    """Modules of the package with an `import warp._src...` or `from warp._src... import` anywhere."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(name == "warp._src" or name.startswith("warp._src.") for name in names):
                found.add(path.relative_to(ROOT).as_posix())
    return found


def test_only_the_warp_session_and_extraction_import_private_warp() -> None:
    assert private_warp_importers() == {"warp_cuda_ir/warp_session.py", "warp_cuda_ir/extraction.py"}


def test_the_layering_contract_holds() -> None:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if command is None:
        pytest.skip("import-linter is a dev dependency: pip install -e '.[dev]'")
    lint = subprocess.run([command], capture_output=True, text=True, cwd=ROOT)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    assert "1 kept, 0 broken" in lint.stdout


def test_a_session_restores_helper_names_for_every_sample() -> None:
    # `wp.func` helpers are named from a process-wide counter: the session resets it per sample,
    # so a helper's name (and the row's text) does not depend on what the process loaded before.
    source = "import warp as wp\n\n@wp.func\ndef twice(x: float):\n    return 2.0 * x\n\n" + (
        "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[wp.tid()] = twice(a[wp.tid()])\n"
    )
    first = extraction.extract(source)
    for _ in range(3):
        with warp_session.loaded_kernel(source):
            pass
    assert extraction.extract(source) == first


def test_session_queries_answer_without_a_driver() -> None:
    assert warp_session.toolkit_version().count(".") == 1
    assert 90 in warp_session.supported_archs()
    assert warp_session.is_struct(object()) is False
    assert "sin" in warp_session.builtin_functions()
