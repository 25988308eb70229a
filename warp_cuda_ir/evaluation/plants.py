"""Candidates that are wrong on purpose, to check that a checker catches them (tests, benchmarks, users).

Each plant rewrites a row's own `cpu_forward` or `cpu_backward` text. The first three make the arrays the
column is judged by (outputs for the forward, input adjoints for the backward) degenerate: the kernel fills
them and returns before doing its work. `operator` changes one arithmetic call (`wp::add` <-> `wp::sub`,
their adjoints too) chosen by a seed: the smallest slip a model makes.

- `zeros`: every judged array set to zero bytes;
- `constant`: every judged array filled with one byte pattern (0x41: every component the same value);
- `copy`: every judged array that an input of the same storage type and size exists for gets its bytes
  (None when no input fits: the row has no such plant);
- `operator`: one add/sub swapped (None when the column has none). Only calls on floating-point values are
  chosen: the others compute indices and loop bounds, where a swap reads out of bounds or never ends (measured
  on 8 rows: 1 of 8 backward swaps then timed out) or changes nothing the digests see.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

PLANTS: tuple[str, ...] = ("zeros", "constant", "copy", "operator")
_DIGEST = re.compile(r'wp_digest<(\w+)>\("(output|adjoint)", "(\w+)", \w+, (\d+)\);')
_INPUT = re.compile(r"^static const (\w+) wp_in_(\w+)\[(\d+)\] = ", re.M)
_OPERATOR = re.compile(r"\bwp::(adj_)?(add|sub)\(")
_BODY = "    //---------\n    // primal vars\n"
# A declaration of a generated variable: `wp::float32 var_3;`, `wp::vec_t<3, wp::float32> adj_7 = {};`.
_DECLARATION = re.compile(r"^\s+(?:const )?((?:wp::|bool)[^=;()]*?) ((?:var|adj)_\w+)(?: = [^;]*)?;$", re.M)
_RESULT = re.compile(r"(var_\w+) = wp::$|, (adj_\w+)\);")


def _floating(text: str, call: re.Match[str], types: dict[str, str]) -> bool:
    """Whether the add/sub `call` computes a floating-point value (its result variable's declared type)."""
    line_start = text.rfind("\n", 0, call.start()) + 1
    line_end = text.find("\n", call.end())
    before = text[line_start : call.start() + len("wp::")]
    result = _RESULT.search(before) if call.group(1) is None else _RESULT.search(text[call.start() : line_end])
    if result is None:
        return False
    declared = types.get(result.group(1) or result.group(2), "int")
    return "int" not in declared and declared != "bool"


def _judged(row: Mapping[str, Any], column: str) -> list[tuple[str, str, int]]:
    """(storage type, array name, components) of the arrays `column` is judged by."""
    kind = "output" if column.endswith("forward") else "adjoint"
    return [(s, n, int(c)) for s, k, n, c in _DIGEST.findall(row["cpu_program"]) if k == kind]


def _fill(text: str, column: str, statements: list[str]) -> str | None:
    """`text` with `statements` run by task 0 at the start of the kernel body, then every task returns."""
    at = text.find(_BODY)
    if at < 0 or not column.startswith("cpu_"):
        return None
    block = "    if (task_index == 0) {\n" + "".join(f"        {s}\n" for s in statements) + "    }\n    return;\n"
    return text[:at] + block + text[at:]


def plant(row: Mapping[str, Any], column: str, kind: str, seed: int = 0) -> str | None:
    """The row's `column` text with `kind` planted, or None when the row has no such plant."""
    text = row[column]
    prefix = "var" if column.endswith("forward") else "adj"
    judged = _judged(row, column)
    if kind == "operator":
        types = {name: kind for kind, name in _DECLARATION.findall(text)}
        spots = [m for m in _OPERATOR.finditer(text) if _floating(text, m, types)]
        if not spots:
            return None
        m = random.Random(seed).choice(spots)
        swapped = {"add": "sub", "sub": "add"}[m.group(2)]
        return text[: m.start()] + f"wp::{m.group(1) or ''}{swapped}(" + text[m.end() :]
    if not judged:
        return None
    if kind in ("zeros", "constant"):
        byte = "0" if kind == "zeros" else "0x41"
        return _fill(text, column, [f"memset({prefix}_{n}.data, {byte}, sizeof({s}) * {c});" for s, n, c in judged])
    if kind == "copy":
        inputs = [(s, n, int(c)) for s, n, c in _INPUT.findall(row["cpu_program"])]
        statements = []
        for s, n, c in judged:
            source = next((i for i in inputs if i[0] == s and i[2] == c and (i[1] != n or prefix == "adj")), None)
            if source is not None:
                statements.append(f"memcpy({prefix}_{n}.data, var_{source[1]}.data, sizeof({s}) * {c});")
        return _fill(text, column, statements) if statements else None
    raise ValueError(f"unknown plant {kind!r}: one of {', '.join(PLANTS)}")
