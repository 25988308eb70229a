"""The README a newcomer reads and the comments a maintainer reads: short, and about the code, not the tracker."""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README_MAX_LINES = 250  # read in ten minutes; measurements live in benchmarks/README.md
# "#23", "issue 24", "(#7)": a tracker's number in a comment; "#20014" (a compiler's warning number) is not one.
ISSUE_REFERENCE = re.compile(r"(?<![\w#])(?:#\d{1,3}\b|\bissues? \d{1,3}\b)", re.IGNORECASE)


def test_readme_fits_ten_minutes_and_its_commands_are_what_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    assert len(readme) <= README_MAX_LINES, f"README.md has {len(readme)} lines (at most {README_MAX_LINES})"
    block = readme[readme.index("```bash") + 1 : readme.index("```")]
    assert len(block) == 2 and block[0].startswith("pip install -e "), block
    ci = (ROOT / ".ci" / "run").read_text().replace("pip install -q ", "pip install ")  # CI installs quietly
    for step in block[1].split(" && "):
        assert step in ci, f"CI does not run the README's {step!r}"


def _comments(path: Path) -> list[tuple[int, str]]:
    with path.open("rb") as f:
        return [(t.start[0], t.string) for t in tokenize.tokenize(f.readline) if t.type == tokenize.COMMENT]


def test_comments_say_why_not_which_issue() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for folder in ("warp_cuda_ir", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line, text in _comments(path)
        if ISSUE_REFERENCE.search(text)
    ]
    assert not found, "\n".join(found)


def test_the_reference_pattern_finds_what_it_is_for() -> None:
    assert ISSUE_REFERENCE.search("# fixed in #23") and ISSUE_REFERENCE.search("# see issue 24")
    assert not ISSUE_REFERENCE.search("# nvcc warning #20014") and not ISSUE_REFERENCE.search("# 0x1f, #define")
