"""Verdict of a candidate's run: its digest lines against the row's reference (`standalone/digest.py`).

A line is `<kind> <array> <count> <hash> <sum> <sum of |x|> <max |x|>`. How lines are compared:
- CPU twin: exactly. The reference is Warp's own CPU launch and the row's own code reproduces it bit for
  bit (the validation pass checks it: `standalone_cpu_matches_warp`), so any changed bit is a wrong answer.
  Statistics within a tolerance are no proof (a permuted or shifted output has the same sums); a run whose
  sums agree within the GPU tolerance but whose bits differ says so in its detail.
- GPU: the hash where it matches, else the three sums within `standalone.stage.GPU_TOLERANCE` (rtol, and
  atol per component), as the validation pass compares the row's own CUDA program.
Before any tolerance, a line that is degenerate where the reference's is not fails: all zeros, one constant
value, or a copy of an input array (the `input` lines the candidate's program prints before the forward).
The backward is judged by its `adjoint` lines, the forward by its `output` lines; both must be right.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from warp_cuda_ir.standalone.digest import parse_line
from warp_cuda_ir.standalone.stage import GPU_TOLERANCE, digests_agree

Digest = tuple[str, str, int, str, float, float, float]


def _constant(d: Digest) -> bool:
    """Every component the same value (from the sums: all |x| equal the largest, and all of one sign)."""
    _, _, count, _, total, l1, max_abs = d
    if count < 2 or not all(math.isfinite(x) for x in (total, l1, max_abs)):
        return False
    return math.isclose(l1, count * max_abs, rel_tol=1e-12) and math.isclose(abs(total), l1, rel_tol=1e-12)


def _zeros(d: Digest) -> bool:
    return d[5] == 0.0  # the sum of |x| is zero only when every component is


def degenerate_kind(want: Digest, got: Digest, inputs: dict[str, tuple[int, str]]) -> str | None:
    """How `got` is degenerate where `want` (the reference's line) is not, or None."""
    if _zeros(got) and not _zeros(want):
        return "all zeros"
    if _constant(got) and not _constant(want) and not _zeros(got):
        return "one constant value"
    for name, (count, digest_hash) in inputs.items():
        if (got[2], got[3]) == (count, digest_hash) and (want[2], want[3]) != (count, digest_hash):
            return f"a copy of input {name!r}"
    return None


def _describe(want: Digest, got: Digest) -> str:
    return f"sum {got[4]:.9g}, sum|x| {got[5]:.9g} (reference {want[4]:.9g}, {want[5]:.9g})"


def judge(reference: Sequence[str], printed: str, exact: bool) -> tuple[str, str]:
    """(verdict, detail) of a run that exited normally and printed `printed`."""
    inputs: dict[str, tuple[int, str]] = {}
    got: list[Digest] = []
    got_lines: list[str] = []
    for line in printed.splitlines():
        try:
            d = parse_line(line)
        except ValueError:
            continue  # the kernel's own prints (wp.print) interleave with the digest lines
        if d[0] == "input":
            inputs[d[1]] = (d[2], d[3])
        elif d[0] in ("output", "adjoint"):
            got.append(d)
            got_lines.append(line)
    want = [parse_line(line) for line in reference]
    if [w[:3] for w in want] != [g[:3] for g in got]:
        names = " ".join(f"{g[0]}:{g[1]}[{g[2]}]" for g in got) or "nothing"
        return "wrong_output", f"printed digests of {names}; expected {len(want)} lines of the reference's arrays"
    degenerate, wrong = [], []
    tolerated = 0
    for w, g, w_line, g_line in zip(want, got, reference, got_lines, strict=True):
        if w[3] == g[3]:  # the hash covers every byte
            continue
        kind = degenerate_kind(w, g, inputs)
        if kind is not None:
            degenerate.append(f"{g[0]} {g[1]}: {kind} (the reference's is not)")
            continue
        agree = digests_agree([w_line], [g_line], GPU_TOLERANCE)
        if not exact and agree:
            tolerated += 1
            continue
        note = "; bits differ, sums agree within the GPU tolerance" if agree else ""
        wrong.append(f"{g[0]} {g[1]}: {_describe(w, g)}{note}")
    if degenerate:
        return "degenerate", "; ".join(degenerate + wrong)
    if wrong:
        return "wrong_output", "; ".join(wrong)
    if tolerated:
        return "correct", f"{len(want)} digest lines agree ({tolerated} within tolerance, the rest exactly)"
    return "correct", f"{len(want)} digest lines equal the reference's"
