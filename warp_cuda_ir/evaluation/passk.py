"""pass@k with the unbiased estimator, and the summary of a report grouped by column, source, category, package.

For a problem (a row and a target column) with n judged samples of which c are correct, the chance that at
least one of k samples drawn without replacement is correct is 1 - C(n-c, k) / C(n, k) (Chen et al. 2021,
"Evaluating Large Language Models Trained on Code"); computed as a product so large n does not overflow.
A group's pass@k is the mean over its problems that have at least k judged samples.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

KS: tuple[int, ...] = (1, 5, 10, 100)
GROUPS: tuple[str, ...] = ("column", "source", "category", "package")
# Not a judgement of the candidate: left out of n. Everything else (bad_input for a known row and column
# included: an empty answer is a wrong answer) counts as a sample that is not correct.
UNJUDGED = "not_checkable"


def pass_at_k(n: int, c: int, k: int) -> float:
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def _scores(problems: Iterable[tuple[int, int]]) -> dict[str, Any]:
    problems = list(problems)
    out: dict[str, Any] = {"problems": len(problems), "samples": sum(n for n, _ in problems)}
    for k in KS:
        eligible = [(n, c) for n, c in problems if n >= k]
        if eligible:
            out[f"pass@{k}"] = sum(pass_at_k(n, c, k) for n, c in eligible) / len(eligible)
            if len(eligible) != len(problems):
                out[f"pass@{k}_problems"] = len(eligible)
    return out


def summarize(
    records: Sequence[Mapping[str, Any]], groups: Mapping[tuple[str, str], Mapping[str, str]]
) -> dict[str, Any]:
    """The summary of report `records` (`id`, `column`, `verdict`, `detail`).

    `groups[(id, column)]`: the problem's column, source, category and package (a record whose id or column
    is not the dataset's is counted as bad input and in no problem). CUDA candidates compiled on a machine
    without a GPU are `not_checkable` ("compiles; no GPU to run") or `does_not_compile`: `compile_only`
    counts them apart.
    """
    verdicts: dict[str, int] = defaultdict(int)
    tally: dict[tuple[str, str], list[int]] = {}
    compile_only = {"candidates": 0, "compiles": 0}
    for r in records:
        verdicts[r["verdict"]] += 1
        key = (r.get("id"), r.get("column"))
        compiled_only = r["detail"].startswith(COMPILES) or r["detail"].startswith(NOT_RUN_NO_GPU)
        if compiled_only:
            compile_only["candidates"] += 1
            compile_only["compiles"] += r["verdict"] == UNJUDGED
        if r["verdict"] == UNJUDGED:
            continue
        if key not in groups:
            continue
        n_c = tally.setdefault(key, [0, 0])
        n_c[0] += 1
        n_c[1] += r["verdict"] == "correct"
    summary: dict[str, Any] = {
        "candidates": len(records),
        "verdicts": dict(sorted(verdicts.items())),
        "compile_only": compile_only,
        "overall": _scores(tuple(v) for v in tally.values()),
    }
    for group in GROUPS:
        by: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for key, (n, c) in tally.items():
            by[groups[key][group]].append((n, c))
        summary[f"by_{group}"] = {name: _scores(p) for name, p in sorted(by.items())}
    return summary


# Details of CUDA candidates compiled on a machine without a GPU (compile-only, reported apart).
COMPILES = "compiles; no GPU to run"
NOT_RUN_NO_GPU = "no GPU to run; "  # starts the detail of such a candidate that does not compile
