#!/usr/bin/env python
"""Compound conditions with a clause that cannot change the outcome, and helpers defined twice (`clauses`).

    python benchmarks/conditions.py --seeds 0:640
    python benchmarks/conditions.py --seeds 0:0 --harvested <build>/.build/harvest/*.json.gz   # real kernels
    python benchmarks/conditions.py --seeds 0:2000 --forced      # and a second reading, by brute force

Generated programs are read twice: on their source alone (an atom's range is the whole line, or what its
built-in allows) and on the row's own declared input ranges (`clauses.declared_ranges`); real kernels on their
source alone. Prints the counts, the share, and the first findings.

`--forced` adds a reading that shares no code with `clauses` or the generator: every compound test of a
generated program is evaluated by Python itself (`eval`, the few built-ins below written with `math`) on random
values of the names it reads, and a clause is idle when forcing it to True, or to False, never changes the
outcome. It found the comparisons decided by their form that `meaning-4` drew (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import ast
import gzip
import json
import math
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from warp_cuda_ir import clauses
from warp_cuda_ir.synthesis import GENERATOR_VERSION, synthesize


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100.0 * part / whole:.2f}%)" if whole else f"{part} of 0"


def generated(seeds: range, show: int) -> None:
    compound = idle = idle_declared = twice = 0
    examples = []
    for seed in seeds:
        p = synthesize(seed)
        n, found = clauses.findings(p.source)
        _, declared = clauses.findings(p.source, clauses.declared_ranges([a.to_row() for a in p.arguments]))
        compound += n
        idle += len({f.condition for f in found})
        idle_declared += len({f.condition for f in declared})
        twice += len(clauses.duplicate_helpers(p.source))
        examples += [(seed, f.condition, f.clause) for f in declared][: max(0, show - len(examples))]
    print(f"generator {GENERATOR_VERSION}, seeds {seeds.start}:{seeds.stop}")
    print(f"  compound conditions with a clause that cannot matter: source alone {_share(idle, compound)};"
          f" on declared input ranges {_share(idle_declared, compound)}")  # fmt: skip
    print(f"  helpers defined twice: {twice}")
    for seed, condition, clause in examples:
        print(f"  seed {seed}: `{condition}`: `{clause}` cannot matter")


def _flat(values: tuple) -> list[float]:
    return [x for v in values for x in (v if isinstance(v, list) else [v])]


_BUILTINS = {
    "abs": abs, "min": min, "max": max, "sqrt": lambda x: math.sqrt(abs(x)), "sin": math.sin, "cos": math.cos,
    "floor": math.floor, "ceil": math.ceil, "tanh": math.tanh, "exp": lambda x: math.exp(min(x, 50.0)),
    "clamp": lambda x, a, b: min(max(x, a), b), "where": lambda c, a, b: a if c else b,
    "length": lambda v: math.sqrt(sum(x * x for x in _flat((v,)))),
    "dot": lambda a, b: sum(x * y for x, y in zip(_flat((a,)), _flat((b,)), strict=True)),
    "isfinite": lambda *a: all(map(math.isfinite, _flat(a))),
    **{t: float for t in ("float16", "float32", "float64")},
    **{t: int for t in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")},
    **{f"{k}{n}{s}": lambda *a: list(a)
       for k in ("vec", "quat") for n in ("", "2", "3", "4") for s in ("", "d", "f")},
}  # fmt: skip


class _Any:
    """A value read by index or component: a random number per index, fixed for one draw."""

    def __init__(self, rng: random.Random) -> None:
        self.rng, self.seen = rng, {}

    def __getitem__(self, k: object) -> float:
        return self.seen.setdefault(k, self.rng.uniform(-1, 1) * self.rng.choice((0.01, 0.1, 1, 10)))

    def __getattr__(self, k: str) -> float:
        if k.startswith("_"):
            raise AttributeError(k)
        return self[k]


def forced_idle(test: ast.expr, rng: random.Random, draws: int = 2000) -> list[str] | None:
    """Clauses of `test` that forcing to True or to False never changes it on `draws` random inputs; None when
    it cannot be evaluated here."""
    clauses_: list[ast.expr] = []

    def leaves(e: ast.expr) -> None:
        if isinstance(e, ast.BoolOp):
            for v in e.values:
                leaves(v)
        elif isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            leaves(e.operand)
        else:
            clauses_.append(e)

    leaves(test)
    indexed = {n.value.id for n in ast.walk(test) if isinstance(n, (ast.Subscript, ast.Attribute))
               and isinstance(n.value, ast.Name)}  # fmt: skip
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} - {"wp", "float", "int"}
    wp = type("wp", (), {k: staticmethod(f) for k, f in _BUILTINS.items()})

    def value(e: ast.expr, env: dict, forced: tuple[int, bool] | None) -> bool:
        if forced is not None and id(e) == forced[0]:
            return forced[1]
        if isinstance(e, ast.BoolOp):
            parts = [value(v, env, forced) for v in e.values]
            return all(parts) if isinstance(e.op, ast.And) else any(parts)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return not value(e.operand, env, forced)
        return bool(eval(compile(ast.Expression(e), "<clause>", "eval"), {"wp": wp}, env))

    same = {(id(c), k): True for c in clauses_ for k in (False, True)}
    evaluated = 0
    for _ in range(draws):
        env: dict = {}
        for n in names:
            kind = rng.random()
            if n in indexed:
                env[n] = _Any(rng)
            elif kind < 0.15:
                env[n] = rng.random() < 0.5
            else:
                env[n] = rng.randint(-20, 20) if kind < 0.35 else rng.uniform(-1, 1) * rng.choice((0.01, 1, 1000))
        try:
            outcome = value(test, env, None)
            for c in clauses_:
                for k in (False, True):
                    if value(test, env, (id(c), k)) != outcome:
                        same[id(c), k] = False
            evaluated += 1
        except Exception:  # a construct this reading does not know: not judged
            return None
    return [ast.unparse(c) for c in clauses_ if same[id(c), False] or same[id(c), True]] if evaluated else None


def forced(seeds: range, show: int) -> None:
    rng = random.Random(0)
    compound = idle = unread = 0
    for seed in seeds:
        for node in ast.walk(ast.parse(synthesize(seed).source)):
            test = node.test if isinstance(node, (ast.If, ast.While, ast.IfExp)) else None
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "wp.where":
                test = node.args[0]
            if not isinstance(test, ast.BoolOp):
                continue
            compound += 1
            found = forced_idle(test, rng)
            unread += found is None
            if found:
                idle += 1
                if idle <= show:
                    print(f"  seed {seed}: `{ast.unparse(test)}`: {found} cannot matter")
    print(f"  forced reading: {_share(idle, compound)} with an idle clause ({unread} not evaluable here)")


def real(paths: list[Path], show: int) -> None:
    compound = idle = twice = kernels = 0
    by_package: Counter[str] = Counter()
    examples = []
    for path in paths:
        for record in json.loads(gzip.decompress(path.read_bytes()))["records"]:
            kernels += 1
            n, found = clauses.findings(record["source"])
            bad = len({f.condition for f in found})
            compound += n
            idle += bad
            by_package[record.get("package", "?")] += bad
            twice += len(clauses.duplicate_helpers(record["source"]))
            where = f"{record['file']}:{record['kernel_name']}"
            examples += [(where, f.condition, f.clause) for f in found][: max(0, show - len(examples))]
    print(f"real kernels: {kernels} from {len(paths)} harvest file(s)")
    print(f"  compound conditions with a clause that cannot matter: {_share(idle, compound)}")
    print(f"  by package: {dict(by_package)}")
    print(f"  helpers defined twice: {twice}")
    for kernel, condition, clause in examples:
        print(f"  {kernel}: `{condition}`: `{clause}` cannot matter")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seeds", default="0:640", help="start:stop of the generated programs")
    p.add_argument("--harvested", type=Path, nargs="*", default=[], help="harvest cache files (real kernels)")
    p.add_argument("--show", type=int, default=10, help="findings to print")
    p.add_argument("--forced", action="store_true", help="also the brute-force reading of generated programs")
    args = p.parse_args()
    start, stop = (int(x) for x in args.seeds.split(":"))
    if stop > start:
        generated(range(start, stop), args.show)
        if args.forced:
            forced(range(start, stop), args.show)
    if args.harvested:
        real(args.harvested, args.show)


if __name__ == "__main__":
    main()
