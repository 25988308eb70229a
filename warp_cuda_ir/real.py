"""Real rows: harvested kernels (`harvest` records) shaped as rows of the schema, each with its split.

A harvest record already holds the self-contained source and the code Warp generated for it (checked
against the kernel in its own package); here it becomes a row: id and source facts like a synthetic
row, `source` = "real", its provenance, and the arguments read off the kernel's signature. There is no
launch record, so `seed`, `launch_dim` and the argument recipes are null.

Splits: a hash of (package, file), joined over near-duplicate pairs (`harvest.assign_splits`), so the
kernels of one file, and near-copies across files, never straddle train and test.
"""

from __future__ import annotations

import ast
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import warp as wp

from warp_cuda_ir import adjoint_hazards, extraction, schema, source_facts, standalone
from warp_cuda_ir.engines import Executor, Outcome
from warp_cuda_ir.harvest import assign_splits, check, near_duplicates, splitting
from warp_cuda_ir.standalone.program import calls_tiles

SOURCE = "real"
# Warp's array annotations (`wp.array(dtype=...)`, `wp.array2d(...)`, indexed and fabric arrays).
_ARRAY_TYPES = {
    f"{prefix}array{suffix}"
    for prefix in ("", "indexed", "fabric", "indexedfabric")
    for suffix in ("", "1d", "2d", "3d", "4d")
}


@dataclass
class RealRows:
    """The rows of one harvest, in a stable order, and what was left out on the way."""

    rows: list[dict[str, Any]]  # schema columns, plus nothing else
    splits: list[str]  # the split of each row
    near_duplicate_pairs: int  # pairs of rows estimated >= threshold similar (MinHash/LSH)
    with_near_duplicate: int  # rows having at least one near-duplicate among the real rows
    threshold: float
    duplicates: dict[str, int] = field(default_factory=dict)  # package -> records whose normalized source repeated

    @property
    def near_duplicate_rate(self) -> float:
        return self.with_near_duplicate / len(self.rows) if self.rows else 0.0

    def per_package(self) -> dict[str, int]:
        return dict(sorted(Counter(r["category"] for r in self.rows).items()))


# Records per item of the rows' fan-out. A real row costs ~9-12 ms (its source's facts and hazards, its
# programs with the launch's inputs, the signature for near-duplicates): a default build's 5,755 rows took
# 49-66 s in one process. 64 keeps an item's pickling small beside that; a harvest of one item stays here.
ROWS_PER_ITEM = 64


def real_rows(
    records: Sequence[dict[str, Any]],
    launch: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RealRows:
    """Rows for harvest records (in the harvest's order); a normalized source seen before is dropped.

    `launch(record)`: columns from the capture (`capture.columns.launch_columns`) that replace the row's.
    `executor`: makes the rows in its workers, `ROWS_PER_ITEM` records at a time (a row is a function of its
    record and launch alone, so the rows do not depend on the workers). `progress(records done, records)`.
    """
    items = [
        [(record, None if launch is None else launch(record)) for record in records[i : i + ROWS_PER_ITEM]]
        for i in range(0, len(records), ROWS_PER_ITEM)
    ]
    made: list[list[tuple[dict[str, Any], Any]]] = [[] for _ in items]
    outcomes = (
        (Outcome(i, "ok", rows_of(item)) for i, item in enumerate(items))
        if executor is None or len(items) < 2
        else executor.map(rows_of, items)
    )
    done = 0
    for outcome in outcomes:
        if outcome.status != "ok" or outcome.value is None:  # a pure function of harvested data: a bug
            raise RuntimeError(f"real rows {outcome.index * ROWS_PER_ITEM}+: {outcome.status}: {outcome.detail}")
        made[outcome.index] = outcome.value
        done += len(outcome.value)
        if progress is not None:
            progress(done, len(records))
    rows: list[dict[str, Any]] = []
    signatures: list[Any] = []
    seen: set[str] = set()
    duplicates: Counter[str] = Counter()
    for row, sig in (pair for item in made for pair in item):
        if row["id"] in seen:  # same AST as an earlier record (e.g. texts differing in comments only)
            duplicates[row["provenance"]["package"]] += 1
            continue
        seen.add(row["id"])
        rows.append(row)
        signatures.append(sig)
    near = near_duplicates([r["python_source"] for r in rows], signatures=signatures)
    keys = [(r["provenance"]["package"], r["provenance"]["file"]) for r in rows]
    return RealRows(
        rows=rows,
        splits=assign_splits(keys, near.pairs),
        near_duplicate_pairs=len(near.pairs),
        with_near_duplicate=near.with_partner,
        threshold=near.threshold,
        duplicates=dict(sorted(duplicates.items())),
    )


def rows_of(item: list[tuple[dict[str, Any], dict[str, Any] | None]]) -> list[tuple[dict[str, Any], Any]]:
    """Each (record, launch columns) as a row, with its source's near-duplicate signature."""
    out = []
    for record, capture in item:
        row = row_for_record(record, capture)
        out.append((row, splitting.signature(row["python_source"])))
    return out


def row_for_record(record: dict[str, Any], capture: dict[str, Any] | None = None) -> dict[str, Any]:
    """One harvest record (see `harvest.worker`) as a row of the schema (validation columns unset).

    `capture`: the record's capture columns (`capture.columns.launch_columns`); a usable launch gives the
    row `launch_dim` and argument roles, and its programs embed the launch's inputs.
    """
    texts = record["texts"]
    source = record["source"]
    tree = ast.parse(source)  # one parse for the source's facts, hazards and signature
    facts = source_facts.analyse(source, tree)
    row = {
        "id": facts.identity,
        "seed": None,
        "category": record["package"],
        "kernel_name": texts["kernel_name"],
        "kernel_symbol": texts["kernel_symbol"],
        "python_source": source,
        "cuda_forward": texts["cuda_forward"],
        "cuda_backward": texts["cuda_backward"],
        "cuda_helpers": texts["cuda_helpers"],
        "cpu_forward": texts["cpu_forward"],
        "cpu_backward": texts["cpu_backward"],
        "cpu_helpers": texts["cpu_helpers"],
        **extraction.backward_columns(texts),
        "launch_dim": None,
        "block_dim": int(texts.get("block_dim") or record["block_dim"]),
        "launch_tiled": None,
        "arguments": signature_arguments(source, texts["kernel_name"], tree),
        "warp_builtins": list(facts.builtins),
        "program_shape": facts.shape,
        "adjoint_hazards": adjoint_hazards.adjoint_hazards(source, tree=tree),
        "warp_version": wp.config.version,  # the harvest's cache key includes it
        "generator_version": None,
        "module_options": json.dumps({"cuda": texts["cuda_options"], "cpu": texts["cpu_options"]}, sort_keys=True),
        "source": SOURCE,
        "provenance": {
            "package": record["package"],
            "package_version": record.get("package_version"),
            "file": record["file"],
            "line": int(record["line"]),
            "license": record.get("license"),
            "upstream_source": record["upstream_source"],
            "chosen_overload": record.get("chosen_overload"),
            "factory_call": record.get("factory_call"),
        },
        **schema.NO_CAPTURE,  # real rows: filled in from the capture
        **schema.UNVALIDATED,
    }
    if capture is not None:
        harvested_block_dim = row["block_dim"]
        row = with_launch(row, capture)
        if row["block_dim"] != harvested_block_dim:
            row |= texts_for_block_dim(row, harvested_block_dim)
    # Standalone programs: compile-only unless the row has a captured launch to embed.
    row |= standalone.program_columns(row)
    assert row.keys() == set(schema.COLUMN_NAMES), "real.row_for_record and schema.COLUMNS disagree"
    return row


def texts_for_block_dim(row: dict[str, Any], harvested_block_dim: int) -> dict[str, Any]:
    """The row's code columns generated for its `block_dim` (the captured launch's), where they can differ.

    Only tile code depends on the block size (`WP_TILE_BLOCK_DIM` shapes, e.g. `wp.tile(x)` holds one value
    per thread), so other rows keep the harvest's texts. Where Warp cannot generate the code for that block
    size, the row keeps the harvest's texts and block size.
    """
    if not calls_tiles(row):
        return {}
    try:
        texts = extraction.extract(
            row["python_source"], row["kernel_name"], block_dim=row["block_dim"], force_backward=True
        )
    except Exception:  # any codegen failure keeps what the harvest checked
        return {"block_dim": harvested_block_dim}
    code = {name: getattr(texts, name) for name in ("kernel_symbol", *check.PARTS)}
    return code | extraction.backward_columns(texts)


def signature_arguments(source: str, kernel_name: str, tree: ast.Module | None = None) -> list[dict[str, Any]]:
    """The kernel's arguments as annotated in `source`: name, kind (array/struct/scalar) and dtype.

    dtype follows the synthetic rows' convention: the element type of an array, the type of a scalar,
    the struct's name, written without the `wp.` prefix; a generic kernel's row (one overload) gives the
    overload's types. Role, shape and input recipe need a launch
    record: role and init are null, shape is []. `tree`: `ast.parse(source)`, when the caller has it.
    """
    tree = ast.parse(source) if tree is None else tree
    structs = {node.name for node in tree.body if isinstance(node, ast.ClassDef) and _is_struct(node)}
    kernel = _kernel_def(tree, kernel_name)
    if kernel is None:  # not written as a def in the source (none seen in the fixtures or packages)
        return []
    args = [*kernel.args.posonlyargs, *kernel.args.args]
    annotations = {a.arg: a.annotation for a in args} | _overload_types(tree, kernel.name, [a.arg for a in args])
    out = []
    for arg in args:
        kind, dtype = _classify(annotations[arg.arg], structs)
        out.append({"name": arg.arg, "kind": kind, "dtype": dtype, "shape": [], "role": None, "init": None})
    return out


def _kernel_def(tree: ast.Module, name: str) -> ast.FunctionDef | None:
    """The kernel's top-level `def`: named `name`, decorated `@wp.kernel(name="name")` (Warp's key), or
    the function a `wp.kernel(f, name="name")` call (or `name = wp.kernel(f, ...)`) makes the kernel of."""
    defs = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and name in _decorator_names(node):
            return node
    for node in tree.body:
        call = node.value if isinstance(node, (ast.Assign, ast.Expr)) else None
        if not (isinstance(call, ast.Call) and _head(call.func) == "kernel" and call.args):
            continue
        targets = [t.id for t in node.targets if isinstance(t, ast.Name)] if isinstance(node, ast.Assign) else []
        keys = [k.value.value for k in call.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)]
        if (name in keys or (not keys and name in targets)) and isinstance(call.args[0], ast.Name):
            return defs.get(call.args[0].id)
    return defs.get(name)


def _decorator_names(node: ast.FunctionDef) -> set[str]:
    return {
        k.value.value
        for d in node.decorator_list
        if isinstance(d, ast.Call)
        for k in d.keywords
        if k.arg == "name" and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
    }


def _overload_types(tree: ast.Module, name: str, arg_names: list[str]) -> dict[str, ast.expr]:
    """A generic kernel's row is one overload: the types of `wp.overload(name, [...] or {...})` by argument."""
    for node in tree.body:
        call = node.value if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) else None
        if call is None or _head(call.func) != "overload" or len(call.args) < 2:
            continue
        if not (isinstance(call.args[0], ast.Name) and call.args[0].id == name):
            continue
        types = call.args[1]
        if isinstance(types, (ast.List, ast.Tuple)):
            return dict(zip(arg_names, types.elts, strict=False))
        if isinstance(types, ast.Dict):
            return {
                k.value: v
                for k, v in zip(types.keys, types.values, strict=True)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)
            }
    return {}


def _is_struct(node: ast.ClassDef) -> bool:
    return any(_head(d.func if isinstance(d, ast.Call) else d) == "struct" for d in node.decorator_list)


def _head(node: ast.expr) -> str | None:
    """The last name of `wp.array`, `array`, `wp.types.array`; None for anything else."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return None


def _text(node: ast.expr) -> str:
    return ast.unparse(node).removeprefix("wp.").removeprefix("warp.")


def _classify(annotation: ast.expr | None, structs: Sequence[str] | set[str]) -> tuple[str, str | None]:
    if annotation is None:
        return "scalar", None
    call = annotation.func if isinstance(annotation, ast.Call) else None
    base = annotation.value if isinstance(annotation, ast.Subscript) else None
    head = _head(call or base or annotation)
    if head in _ARRAY_TYPES:
        dtype_node: ast.expr | None = None
        if isinstance(annotation, ast.Call):
            keywords = {k.arg: k.value for k in annotation.keywords}
            dtype_node = keywords.get("dtype") or (annotation.args[0] if annotation.args else None)
        elif isinstance(annotation, ast.Subscript):
            dtype_node = annotation.slice
        return "array", _text(dtype_node) if dtype_node is not None else _text(annotation)
    if head in structs:
        return "struct", head
    return "scalar", _text(annotation)


def with_launch(row: dict[str, Any], columns: dict[str, Any]) -> dict[str, Any]:
    """The row with its capture columns; a usable launch also gives `launch_dim` and argument roles.

    Roles come from the captured launch: `inout` for the arrays it changed, `in` for the others (what the
    validation's output statistics and gradient check read). The standalone programs are not remade here.
    """
    row = {**row, **columns}
    if row.get("launch_dim") is not None and row.get("launch_record") is not None:
        from warp_cuda_ir.capture.record import unpack

        meta = unpack(row["launch_record"]).meta
        changed = set(meta.get("changed", []))
        roles = {name: ("inout" if str(i) in changed else "in") for i, name in enumerate(meta["params"])}
        row["arguments"] = [dict(a, role=roles.get(a["name"], a["role"])) for a in row["arguments"]]
        aliased = aliased_overwrites(meta)
        if aliased:
            row["adjoint_hazards"] = sorted({*(row.get("adjoint_hazards") or []), *aliased})
    return row


def aliased_overwrites(meta: dict[str, Any]) -> list[str]:
    """`aliased_overwrite:<param>` for each float array parameter a captured launch passes as the same array as
    an earlier one, where the launch changed that array: the kernel writes memory it also reads under the other
    name, and Warp's backward pass replays those reads after the forward overwrote it (mujoco-warp's
    `_next_position` integrates `qpos_out` as `qpos_in`: wrong_adjoint, which no reading of the source can flag).
    """
    changed = set(meta.get("changed", []))
    flags = []
    for param, spec in zip(meta["params"], meta["args"], strict=True):
        first = spec.get("same_as")
        if first is None or first not in changed:
            continue
        dtype = json.dumps(meta["args"][int(first)].get("dtype"))  # {"t": "vec", ..., "s": "float32"} and the like
        if "float" in dtype or "half" in dtype:
            flags.append(f"aliased_overwrite:{param}")
    return flags
