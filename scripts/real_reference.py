#!/usr/bin/env python
"""Regenerate `warp_cuda_ir/real_reference.json`: what real Warp kernels are made of, as counts.

python scripts/real_reference.py --packages newton,mujoco_warp,warp --cache /tmp/harvest-cache
python scripts/real_reference.py --packages mujoco_warp --parse newton,warp --cache /tmp/harvest-cache
python scripts/real_reference.py --harvested ~/.cache/warp_cuda_ir   # the harvests builds cached

Harvests `--packages` (`warp_cuda_ir.harvest.cached_harvest`: imports them, so only packages you would
import yourself; cached per package in `--cache`) and analyses every record's self-contained source with
`program_analysis.analyse`. `--parse` takes packages without importing them: every `@wp.kernel` in their
installed `.py` files, with the `@wp.func`s and `@wp.struct`s of its own file (faster than a harvest, which
on a loaded 2-core machine takes 20-30 minutes for newton and warp; kernels made by factories are missed).
`--harvested` reads the harvests cached in machine-cache folders (`harvest/` entries) as they are: the real rows
of a build, each record's self-contained source counted once (the shipped reference is made this way).
Writes the summed distributions of Warp built-ins, statement kinds and expression kinds, with the packages
and versions they came from. Only counts are stored, no source text.
"""

from __future__ import annotations

import argparse
import ast
import importlib.metadata
import importlib.util
import json
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from warp_cuda_ir.cli import fail


def parsed_kernels(package: str) -> Iterator[str]:
    """Each `@wp.kernel` of `package`'s installed files as a module text, without importing the package."""
    from warp_cuda_ir.synthesis import dataflow

    spec = importlib.util.find_spec(package)  # a top-level name: found, not imported
    if spec is None or not spec.submodule_search_locations:
        return
    for root in spec.submodule_search_locations:
        for path in sorted(Path(root).rglob("*.py")):
            try:
                tree = ast.parse(path.read_text(encoding="utf-8"))
            except (SyntaxError, UnicodeDecodeError, ValueError):
                continue
            defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
            shared = [n for n in defs if dataflow.is_decorated(n, "func") or dataflow.is_decorated(n, "struct")]
            by_name = {n.name: n for n in shared}
            for kernel in (n for n in defs if isinstance(n, ast.FunctionDef) and dataflow.is_decorated(n, "kernel")):
                reached, todo = {}, [kernel]  # the file's helpers and structs the kernel reaches by name
                while todo:
                    for n in ast.walk(todo.pop()):
                        name = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else None
                        if name in by_name and name not in reached:
                            reached[name] = by_name[name]
                            todo.append(by_name[name])
                parts = [*reached.values(), kernel]
                yield "import warp as wp\n\n" + "\n\n".join(ast.unparse(n) for n in parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--packages", default="newton,mujoco_warp,warp", help="comma-separated packages to harvest")
    p.add_argument("--parse", default="", help="comma-separated packages to parse without importing")
    p.add_argument("--cache", type=Path, help="cache folder (one harvest entry per package)")
    p.add_argument(
        "--harvested", type=Path, nargs="*", default=[], help="cache folders whose harvests to read as they are"
    )
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=None, help="default: the package's real_reference.json")
    args = p.parse_args(argv)
    from warp_cuda_ir import program_analysis
    from warp_cuda_ir.errors import WarpCudaIRError
    from warp_cuda_ir.harvest import cached_harvest

    specs = [s for s in args.packages.split(",") if s] if not args.harvested else []
    if specs and args.cache is None:
        return fail("--cache is needed to harvest packages (or give --harvested files)")
    try:
        harvested = cached_harvest(specs, args.cache, workers=args.workers) if specs else {"records": [], "targets": []}
    except WarpCudaIRError as e:
        return fail(str(e))
    sources = [(r["package"], r["source"]) for r in harvested["records"]]
    versions = {t["package"]: t["version"] for t in harvested["targets"]}
    from warp_cuda_ir.cache import Cache
    from warp_cuda_ir.harvest.cache import NAMESPACE

    for folder in args.harvested:
        entries = list(Cache(folder).values(NAMESPACE))
        if not entries:
            return fail(f"{folder}: a cache folder with no harvest in it")
        for data in entries:
            sources += [(r["package"], r["source"]) for r in data["records"]]
            versions[data["target"]["package"]] = data["target"]["version"]
            specs.append(data["target"]["spec"])
    for package in (s for s in args.parse.split(",") if s):
        found = [(package, text) for text in parsed_kernels(package)]
        if not found:
            return fail(f"no @wp.kernel found in the files of {package!r}")
        sources += found
        versions[package] = importlib.metadata.version(package if package != "warp" else "warp-lang")
    if not sources:
        return fail("no kernels to count")
    totals = {d: Counter() for d in program_analysis.DISTRIBUTIONS}
    kernels = Counter()
    for package, source in sources:
        try:
            facts = program_analysis.analyse(source)
        except SyntaxError:
            continue
        kernels[package] += 1
        for d in program_analysis.DISTRIBUTIONS:
            totals[d].update(getattr(facts, d))
    data = {
        "about": "Counts over harvested real Warp kernels (kernel plus the helpers it reaches), made by "
        "scripts/real_reference.py; see warp_cuda_ir/program_analysis.py for what each count means.",
        "packages": versions,
        "harvested": specs,
        "parsed": [p for p in args.parse.split(",") if p],
        "kernels": dict(sorted(kernels.items())),
        **{d: dict(sorted(totals[d].items())) for d in program_analysis.DISTRIBUTIONS},
    }
    out = args.out or program_analysis.REFERENCE_PATH
    out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{sum(kernels.values())} kernels ({', '.join(f'{k} {v}' for k, v in kernels.items())}) -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
