"""What a kernel's Python source is made of: Warp built-ins, program shape, and identity.

The row columns `warp_builtins`, `program_shape` and `id` come from here, computed once per row
by the worker that generated it: the dataset card and `scripts/stats.py` then only count column
values, where parsing every row's source again in the final single-process pass cost seconds per
thousand rows. One parse and one traversal give all three (`ast.unparse` for the id cost more
than the traversal).
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass

from warp_cuda_ir.synthesis.catalogue import offered_builtins

# Python operators Warp implements as built-ins of these names.
_OPERATORS = {
    ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Mod: "mod", ast.FloorDiv: "floordiv",
    ast.BitAnd: "bit_and", ast.BitOr: "bit_or", ast.BitXor: "bit_xor", ast.LShift: "lshift", ast.RShift: "rshift",
    ast.USub: "neg", ast.Invert: "invert", ast.Not: "unot", ast.MatMult: "mul",
}  # fmt: skip


# Fields that declare rather than compute: argument and return annotations, decorators.
_DECLARATIONS = frozenset({"annotation", "returns", "decorator_list"})


@dataclass(frozen=True)
class SourceFacts:
    builtins: tuple[str, ...]  # sorted Warp built-in names the source uses
    shape: str  # hash of the AST with identifiers and literals erased
    identity: str  # hash of the whole AST: equal for sources that differ only in layout and comments


def analyse(source: str, tree: ast.Module | None = None) -> SourceFacts:
    """The facts of `source` (`tree`: its `ast.parse`, when the caller has it already)."""
    offered = offered_builtins()
    used: set[str] = set()
    tokens: list[str] = []  # node types and structure: the shape
    values: list[str] = []  # identifiers and literals, in the same order: with `tokens`, the identity
    token, value_of = tokens.append, values.append  # bound once: this runs for every row of a build

    def warp_name(node: ast.AST) -> str | None:
        """`name` when `node` spells `wp.<name>` for a Warp built-in."""
        if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == "wp":
            return node.attr if node.attr in offered else None
        return None

    def visit(node: ast.AST, counting: bool = True) -> None:
        """`counting` is off inside annotations and decorators: `wp.array(dtype=float)` declares, it does not call."""
        cls = type(node)
        token(cls.__name__)
        if not counting:
            pass
        elif cls is ast.Call:
            func = node.func
            if name := warp_name(func):
                used.add(name)
                # Built-ins passed as functions (`wp.tile_map(wp.sin, t)`, `wp.tile_reduce(wp.max, t)`);
                # positional only: keywords such as `dtype=wp.float64` name types, not calls.
                used.update(n for arg in node.args if (n := warp_name(arg)))
            elif type(func) is ast.Name and func.id in offered:
                used.add(func.id)  # float(x), int(x), min/max/abs/range as Warp resolves them
        elif (cls is ast.BinOp or cls is ast.UnaryOp or cls is ast.AugAssign) and type(node.op) in _OPERATORS:
            if not (cls is ast.UnaryOp and type(node.operand) is ast.Constant):  # `-1.0` is one literal
                used.add(_OPERATORS[type(node.op)])
        for name in cls._fields:
            value = getattr(node, name, None)
            inner = counting and name not in _DECLARATIONS
            if type(value) is list:
                token("[")
                for item in value:
                    if isinstance(item, ast.AST):
                        visit(item, inner)
                    else:
                        token("_")
                        value_of(repr(item))
                token("]")
            elif isinstance(value, ast.AST):
                visit(value, inner)
            else:  # an identifier, a literal or an absent field: erased, only its presence counts
                token("_" if value is not None else "-")
                value_of(repr(value))
        token(")")

    visit(ast.parse(source) if tree is None else tree)
    shape = hashlib.sha256(" ".join(tokens).encode())
    identity = shape.copy()
    identity.update("\x00".join(values).encode())
    return SourceFacts(tuple(sorted(used)), shape.hexdigest()[:16], identity.hexdigest()[:16])
