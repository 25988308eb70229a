"""Compound conditions whose every clause can change the outcome, and no helper defined twice: the reading in
`clauses` (independent of the generator's rules) on planted programs, and the generator held to it."""

from __future__ import annotations

import ast

import pytest

from warp_cuda_ir import clauses, program_analysis
from warp_cuda_ir.synthesis import synthesize

SEEDS = range(300)


def _idle(source: str, ranges: dict[str, tuple[float, float]] | None = None) -> list[str]:
    return [f.clause for f in clauses.findings(source, ranges)[1]]


@pytest.mark.parametrize(
    ("condition", "idle"),
    [
        ("val < -0.2599 and val < 0.3602", ["val < 0.3602"]),  # implied by the first
        ("r > 0.2089 and (r < -0.0047 or not flag)", ["r < -0.0047"]),  # contradicted by the first
        ("x > 0.3 and x < 0.1", ["x > 0.3", "x < 0.1"]),  # never holds: either clause alone decides it
        ("active or not active", ["active", "active"]),
        ("k > 1 and (k > 2 or m < 0)", []),  # over reals k in (1, 2] keeps both
        ("wp.length(v) < -0.5 or x > 0.2", ["wp.length(v) < -0.5"]),  # a length is never negative
        ("0.0 < t < 1.0 and t > 0.5", []),
        ("x > 0.1 and x < 0.5", []),  # an interval: neither bound implied nor contradicted
        ("x < -0.2 or x > 0.3", []),
        ("x < 0.3 and y > 0.1", []),
        ("(a < 0.1 and b > 0.2) or not c", []),
        # two expressions related by their form: decided whatever the values (the generator drew these)
        ("count < 3 and total - 0.9717 > total", ["count < 3", "total - 0.9717 > total"]),
        ("it < 8 and 1 * k_ >= k_", ["1 * k_ >= k_"]),
        ("a < 0.1 or float(s) > s", ["float(s) > s"]),
        ("it < 5 and wp.length(wp.vec2(phi, 0.8288)) >= phi", ["wp.length(wp.vec2(phi, 0.8288)) >= phi"]),
        ("0.8914 > -0.993 and y[0] > x[0]", ["0.8914 > -0.993"]),
        # related expressions that do vary, and one the evaluation cannot read: free, as before
        ("x < 0.3 and x * y > 0.1", []),
        ("k < 2 and m[1, 0] > v.x", []),
        ("a < 0.1 and wp.noise(state, x) > y", []),
        ("iters < 3 and wp.isfinite(wp.vec4(t, t, e, t))", []),  # a NaN input makes it False
        ("d > 1.0e6 or x < 0.5", []),  # values near the clause's constants are sampled too
    ],
)
def test_idle_clauses_of_planted_conditions(condition: str, idle: list[str]) -> None:
    assert _idle(f"if {condition}:\n    pass\n") == idle


def test_every_boolean_expression_is_read() -> None:
    source = "w = wp.where(s < 0.2 and s < 0.4, 1.0, 2.0)\nb = not (p > 0.1 or p > 0.5)\n"
    source += "while i < 3 and i < 4:\n    i += 1\n"
    assert _idle(source) == ["s < 0.4", "p > 0.5", "i < 4"]
    assert clauses.findings(source)[0] == 3


def test_declared_ranges_reach_copies_of_the_inputs() -> None:
    """An input drawn from [-1, 1] is never below -2: that clause cannot matter on the row's own inputs."""
    source = "i = wp.tid()\nx = a[i]\nif x < -2.0 or y > 0.1:\n    pass\n"
    arguments = [{"name": "a", "init": '{"dist": "uniform", "low": -1.0, "high": 1.0}'}]
    assert _idle(source) == []
    assert _idle(source, clauses.declared_ranges(arguments)) == ["x < -2.0"]
    # updated after its read, `x` no longer holds only the input's values
    assert _idle(source + "x = x * 5.0\n", clauses.declared_ranges(arguments)) == []


HELPERS = """import warp as wp


@wp.func
def store_a(dst: wp.array(dtype=float), i: int, value: float):
    dst[i] = value


@wp.func
def store_b(dst: wp.array(dtype=float), i: int, value: float):
    dst[i] = value


@wp.func
def store_c(dst: wp.array(dtype=wp.vec3), i: int, value: wp.vec3):
    dst[i] = value


@wp.kernel
def k(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    if a[i] > 0.2 and a[i] > 0.1:
        store_a(out, i, a[i])
"""


OVERLOADS = """import warp as wp


@wp.func
def store(dst: wp.array(dtype=float), i: int, value: float):
    dst[i] = value


@wp.func
def store(dst: wp.array(dtype=int), i: int, value: int):
    dst[i] = value


@wp.func
def put(dst: wp.array(dtype=float), k: int, value: float):
    dst[k] = value
"""


def test_helpers_defined_twice_and_the_tally() -> None:
    """One body under two names is one function written twice, for one type (store_b) or another (store_c);
    Warp's overloads of one name, and one body over other parameter names, are not."""
    assert clauses.duplicate_helpers(HELPERS) == [("store_a", "store_b"), ("store_a", "store_c")]
    assert clauses.duplicate_helpers(OVERLOADS) == []
    facts = program_analysis.analyse(HELPERS)
    assert (facts.idle_clause_conditions, facts.compound_conditions, facts.duplicate_helpers) == (1, 1, 2)
    figures = program_analysis.tally([(HELPERS, None)]).figures(reference={})
    assert figures["idle_clause_conditions"] == [1, 1] and figures["duplicate_helpers"] == 2


def test_generated_conditions_can_all_matter_and_no_helper_is_defined_twice() -> None:
    """On the row's own declared input ranges, at most 1% of compound conditions have a clause that cannot
    change the outcome, and no program defines a helper twice (the generator before this check: 13 of 63
    compound conditions and 16 programs with a store helper defined twice, on these seeds)."""
    compound = idle = 0
    twice = []
    for seed in SEEDS:
        p = synthesize(seed)
        n, found = clauses.findings(p.source, clauses.declared_ranges([a.to_row() for a in p.arguments]))
        compound += n
        idle += len({f.condition for f in found})
        twice += [(seed, pair) for pair in clauses.duplicate_helpers(p.source)]
        for f in found:
            ast.parse(f.condition)  # the finding names real source text
    assert compound >= 40, compound
    assert idle <= 0.01 * compound, (idle, compound)
    assert twice == []
