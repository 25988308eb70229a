"""Is a drawn comparison decided by its own form? Evaluate it on sampled values of the names it reads.

The grammar's comparisons read varying values, yet some hold everywhere or nowhere because of how their two
sides relate: `total - 0.97 > total`, `float(s) > s`, `1 * k >= k`, `wp.length(v) <= -0.59`,
`wp.length(wp.vec2(p, 0.8)) >= p`, `wp.uint32(c) * wp.uint32(0) <= wp.uint32(1)`. Joined to another clause
such a comparison cannot change the condition's outcome (a reading of 2,000 programs found 10 in 314
compound tests, 3.2%). Recognising every form by its shape is a losing game; evaluating it is not: a
comparison that comes out the same on every one of `SAMPLES` draws of its inputs is treated as decided and
drawn again. A comparison this evaluator cannot read (a built-in it does not know) counts as undecided,
so the probe only ever removes conditions, never invents one.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Mapping
from typing import Any

import numpy as np

from warp_cuda_ir import expression_values
from warp_cuda_ir.synthesis import typesys

SAMPLES = 24  # draws per comparison; a varying one usually shows both outcomes within the first few


def _sample(type_name: str, mag: float, rng: random.Random) -> Any:
    t = typesys.parse(type_name)
    if t.kind == "bool":
        return rng.random() < 0.5
    scale = max(min(mag, 1e6), 1e-3)
    if t.kind == "int":
        low = 0 if t.scalar == "uint32" else -int(min(scale, 8)) - 1
        return rng.randint(low, int(min(scale, 8)) + 1)
    if t.is_scalar:
        return rng.uniform(-scale, scale)
    if t.kind == "mat":
        return np.array([[rng.uniform(-scale, scale) for _ in range(t.size)] for _ in range(t.size)])
    return np.array([rng.uniform(-scale, scale) for _ in range(t.components)])


def decided(text: str, variables: Mapping[str, tuple[str, float]]) -> bool:
    """True when the comparison `text` came out the same on every sampled input (names: `variables`, name
    -> (Warp type, magnitude bound)); False when it came out both ways or could not be read."""
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        return False
    rng = random.Random(text)  # the same text is judged the same in every process

    def draw() -> dict[str, Any]:
        return {name: _sample(t, mag, rng) for name, (t, mag) in variables.items()}

    return expression_values.constant_value(tree, draw, SAMPLES) is not None
