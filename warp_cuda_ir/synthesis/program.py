"""What the generator hands downstream: kernel source plus the record to launch it again."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from warp_cuda_ir.extraction import CUDA_BLOCK_DIM


@dataclass(frozen=True)
class Argument:
    """One kernel argument and the seeded recipe for its input values."""

    name: str
    kind: str  # "array" | "scalar" | "struct"
    dtype: str  # as written in the source: float32, vec3, mat33, int32, MyStruct ...
    shape: tuple[int, ...] = ()
    role: str = "in"  # "in" | "out" | "inout"
    init: dict[str, Any] = field(default_factory=dict)  # e.g. {"dist": "uniform", "low": -1, "high": 1}

    def to_row(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "dtype": self.dtype,
            "shape": list(self.shape),
            "role": self.role,
            "init": json.dumps(self.init, sort_keys=True),
        }


@dataclass(frozen=True)
class KernelProgram:
    """A generated Warp program: one `@wp.kernel` (plus helpers) and how to launch it."""

    category: str
    kernel_name: str
    source: str
    launch_dim: tuple[int, ...]
    arguments: tuple[Argument, ...]
    # CUDA threads per block; tile kernels' generated code depends on it (WP_TILE_BLOCK_DIM).
    block_dim: int = CUDA_BLOCK_DIM
    # True: `wp.launch_tiled(dim=launch_dim, block_dim=...)`, so `launch_dim` counts tiles, not threads.
    launch_tiled: bool = False
