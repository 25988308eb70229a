"""Harvest a folder of Warp scripts renamed as users name them, and count the kernels found vs defined.

    python benchmarks/script_folder.py WARP_EXAMPLES            # warp/examples of the installed warp-lang
    python benchmarks/script_folder.py NEWTON_EXAMPLES --workers 2 --json out.json
    python benchmarks/script_folder.py path/to/scripts --keep /tmp/copy
    python benchmarks/script_folder.py WARP_EXAMPLES --skip 'benchmarks/*' --skip browse.py --skip fem/utils.py
    python benchmarks/script_folder.py benchmarks/user_scripts_2 --as-is

Every `.py` file under the source folder (except `__init__.py`) is copied into one flat temporary folder
under a name that is not a Python identifier, in turn `000.py`, `example-apic-fluid.py`,
`05_example_apic_fluid.py` (with `--as-is`, a folder whose scripts import each other by name and already have
such names, the tree is copied as it is), then harvested as `scripts/build.py --real <folder>` harvests it
(`harvest.harvest`, no cache). The kernels *defined* are counted from the copied sources alone, without Warp
or the harvester: every function decorated with `kernel` (`@wp.kernel`, `@wp.kernel(...)`, `@warp.kernel`,
`@kernel` from `from warp import kernel` or `*`, an alias `jit = wp.kernel`) at any depth, by file and first
line. A definition is *harvested* when a record comes from it (any overload or closure value of it) or its
upstream text is that of a record (the harvest keeps one record per self-contained text). "Distinct" counts
definitions with the same text once. A second figure leaves out the kernels Warp itself generates no code for
(its codegen refuses them, or a generic one nothing specialised), by the harvest's reason.
Prints the figures, the wall and CPU time (this process and its children) and each kernel missed with
the harvest's reason for it.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import resource
import shutil
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from warp_cuda_ir.harvest import harvest
from warp_cuda_ir.harvest.reasons import NOT_GENERATED_BY_WARP as NOT_GENERATED

WARP_EXAMPLES = "WARP_EXAMPLES"
NEWTON_EXAMPLES = "NEWTON_EXAMPLES"


def source_folder(spec: str) -> Path:
    """A folder, or one of the names above for the installed package's examples."""
    if spec == WARP_EXAMPLES:
        import warp

        return Path(warp.__file__).parent / "examples"
    if spec == NEWTON_EXAMPLES:
        import importlib.util

        found = importlib.util.find_spec("newton")
        if found is None or not found.submodule_search_locations:
            raise SystemExit("error: newton is not installed")
        return Path(next(iter(found.submodule_search_locations))) / "examples"
    return Path(spec)


def copy_renamed(src: Path, dst: Path, skip: list[str] = ()) -> dict[str, str]:
    """Copy the scripts flat under non-identifier names, but those matching a `skip` pattern (relative
    POSIX paths, fnmatch); returns new name -> path in `src`."""
    files = sorted(
        p
        for p in src.rglob("*.py")
        if p.name != "__init__.py"
        and "__pycache__" not in p.parts
        and not any(fnmatch.fnmatch(p.relative_to(src).as_posix(), pattern) for pattern in skip)
    )
    names: dict[str, str] = {}
    for i, path in enumerate(files):
        stem = path.stem
        name = (f"{i:03d}.py", stem.replace("_", "-") + ".py", f"{i:02d}_{stem}.py")[i % 3]
        if name in names:
            name = f"{i:03d}-{name}"
        shutil.copyfile(path, dst / name)
        names[name] = path.relative_to(src).as_posix()
    return names


def _warp_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names bound to the `warp` module, names bound to `warp.kernel`) anywhere in a file."""
    modules, kernels = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "warp":
                    modules.add(a.asname or "warp")
        elif isinstance(node, ast.ImportFrom) and node.module == "warp" and node.level == 0:
            kernels.update(a.asname or a.name for a in node.names if a.name in ("kernel", "*"))
    if "*" in kernels:  # `from warp import *` binds `kernel`
        kernels.add("kernel")
    for node in ast.walk(tree):  # `jit = wp.kernel`
        value = getattr(node, "value", None)
        if isinstance(node, ast.Assign) and isinstance(value, ast.Attribute) and value.attr == "kernel":
            if isinstance(value.value, ast.Name) and value.value.id in modules:
                kernels.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return modules, kernels


def _is_kernel_decorator(node: ast.expr, modules: set[str], kernels: set[str]) -> bool:
    """`@wp.kernel`, `@wp.kernel(...)`, `@kernel` (from warp): not another library's `@ti.kernel`."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr == "kernel" and isinstance(node.value, ast.Name) and node.value.id in modules
    return isinstance(node, ast.Name) and node.id in kernels


def copy_as_is(src: Path, dst: Path, skip: list[str] = ()) -> dict[str, str]:
    """Copy the tree of scripts with its own names and subfolders, but the files matching a `skip`
    pattern; returns path -> the same path (both relative, POSIX)."""
    names: dict[str, str] = {}
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src).as_posix()
        if "__pycache__" in path.parts or path.is_dir() or any(fnmatch.fnmatch(rel, p) for p in skip):
            continue
        (dst / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dst / rel)
        if path.suffix == ".py" and path.name != "__init__.py":
            names[rel] = rel
    return names


def defined_kernels(folder: Path) -> dict[tuple[str, int], dict[str, str]]:
    """(file relative to `folder`, first line with decorators) -> {"qualname", "text"} for every kernel
    the sources define."""
    out: dict[tuple[str, int], dict[str, str]] = {}
    for path in sorted(folder.rglob("*.py")):
        # A byte-order mark (Notepad's "UTF-8 with BOM") is no character of the text: Python skips it.
        text = path.read_text(errors="replace").removeprefix("\ufeff")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        lines = text.splitlines(keepends=True)
        modules, kernels = _warp_names(tree)
        for node, qualname in _definitions(tree, []):
            if any(_is_kernel_decorator(d, modules, kernels) for d in node.decorator_list):
                first = min([d.lineno for d in node.decorator_list] + [node.lineno])
                body = textwrap.dedent("".join(lines[first - 1 : node.end_lineno]))
                out[(path.relative_to(folder).as_posix(), first)] = {"qualname": qualname, "text": body}
    return out


def _definitions(node: ast.AST, scope: list[str]) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str]]:
    """Every function defined under `node`, with its `__qualname__`."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            yield from _definitions(child, [*scope, child.name])
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield child, ".".join([*scope, child.name])
            yield from _definitions(child, [*scope, child.name, "<locals>"])
        else:
            yield from _definitions(child, scope)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help=f"a folder of scripts, or {WARP_EXAMPLES} / {NEWTON_EXAMPLES}")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, help="write the figures and the kernels missed here")
    parser.add_argument("--skip", action="append", default=[], help="leave out files matching this (repeatable)")
    parser.add_argument("--as-is", action="store_true", help="keep the scripts' names and subfolders")
    parser.add_argument("--keep", type=Path, help="copy the scripts here (an empty or new folder) and keep them")
    args = parser.parse_args()

    src = source_folder(args.source)
    if not src.is_dir():
        raise SystemExit(f"error: {src}: not a folder")
    if args.keep is not None:
        if args.keep.exists() and any(args.keep.iterdir()):
            raise SystemExit(f"error: --keep {args.keep}: not empty")
        args.keep.mkdir(parents=True, exist_ok=True)
        folder = args.keep
    else:
        folder = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_scripts_")) / "my scripts"
        folder.mkdir()
    try:
        origin = (copy_as_is if args.as_is else copy_renamed)(src, folder, args.skip)
        defined = defined_kernels(folder)
        started, cpu0 = time.perf_counter(), _cpu()
        result = harvest([str(folder)], workers=args.workers)
        wall, cpu = time.perf_counter() - started, _cpu() - cpu0
    finally:
        if args.keep is None:
            shutil.rmtree(folder.parent, ignore_errors=True)

    from_sites = {(r["file"], r["line"]) for r in result.records}
    texts = {textwrap.dedent(r["upstream_source"]) for r in result.records}
    harvested = {k for k, d in defined.items() if k in from_sites or d["text"] in texts}
    distinct_defined = {d["text"] for d in defined.values()}
    distinct_harvested = {defined[k]["text"] for k in harvested}
    why: dict[tuple[str, int], str] = {}
    for r in result.reasons:
        if r.line is not None:
            why.setdefault((r.file, r.line), f"{r.category}: {r.detail}")
    file_reasons = {r.file: f"{r.category}: {r.detail}" for r in result.reasons if r.kernel is None}
    missed = [
        {
            "file": f,
            "source_file": origin.get(f, f),
            "line": line,
            "qualname": defined[(f, line)]["qualname"],
            "reason": why.get((f, line)) or file_reasons.get(f) or "not found at import",
        }
        for f, line in sorted(set(defined) - harvested)
    ]
    rate = len(distinct_harvested) / len(distinct_defined) if distinct_defined else 0.0
    # Kernels Warp itself makes no code for (a kernel its codegen refuses, a generic one nothing specialised).
    refused = {defined[(m["file"], m["line"])]["text"] for m in missed if m["reason"].split(":")[0] in NOT_GENERATED}
    generated = distinct_defined - (refused - distinct_harvested)
    generated_rate = len(distinct_harvested) / len(generated) if generated else 0.0
    print(f"source: {src} ({len(origin)} scripts, copied under non-identifier names)")
    print(f"kernels defined: {len(defined)} definitions, {len(distinct_defined)} distinct texts")
    print(f"harvested:       {len(harvested)} definitions, {len(distinct_harvested)} distinct texts ({rate:.1%})")
    print(f"of those Warp generates code for: {len(distinct_harvested)} of {len(generated)} ({generated_rate:.1%})")
    print(f"records: {len(result.records)}; files with a reason: {len(file_reasons)}")
    load = os.getloadavg()
    print(
        f"harvest: {wall:.1f} s wall, {cpu:.1f} s CPU (process + children), {args.workers} workers, load {load[0]:.2f}"
    )
    for m in missed:
        print(f"  missed {m['file']}:{m['line']} {m['qualname']} ({m['source_file']}): {m['reason'][:200]}")
    if args.json:
        figures = {
            "source": str(src),
            "scripts": len(origin),
            "defined": len(defined),
            "defined_distinct": len(distinct_defined),
            "harvested": len(harvested),
            "harvested_distinct": len(distinct_harvested),
            "rate": round(rate, 4),
            "generated_by_warp_distinct": len(generated),
            "generated_rate": round(generated_rate, 4),
            "wall_s": round(wall, 1),
            "cpu_s": round(cpu, 1),
            "load": round(load[0], 2),
            "missed": missed,
            "file_reasons": file_reasons,
        }
        args.json.write_text(json.dumps(figures, indent=1))


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
