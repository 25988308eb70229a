"""warp-cuda-ir: NVIDIA Warp kernels paired with the CUDA/CPU C++ Warp generates for them.

Stages, in the order data flows: synthesis -> extraction -> rows/generation (shards)
-> the builder (`warp_cuda_ir.py` at the repo root) -> writing (dataset folder) -> card.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__version__ = "0.1.0"

BUILDER_FILE = Path(__file__).resolve().parent.parent / "warp_cuda_ir.py"


def builder_module() -> ModuleType:
    """Load `warp_cuda_ir.py` by path: the package of the same name shadows it on import."""
    name = "warp_cuda_ir_builder"
    if name in sys.modules:
        return sys.modules[name]
    if not BUILDER_FILE.exists():
        raise FileNotFoundError(f"{BUILDER_FILE} not found: the builder ships with the source checkout, not the wheel")
    spec = importlib.util.spec_from_file_location(name, BUILDER_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # registered first so pickling (num_proc) can find its classes
    spec.loader.exec_module(module)
    return module


def builder_class() -> type:
    return builder_module().WarpCudaIR
