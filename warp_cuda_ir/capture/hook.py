"""The capture inside a running program: wraps Warp's launch and writes one file per completed launch.

For each kernel of a target package (each of its Warp keys), the first `per_kernel` launches on the CPU
device with a non-empty grid are recorded: the arguments before (`record.snapshot`), the launch itself,
then the arrays after.
A record file is written (atomically) only once its launch returned, so a program that dies later keeps
what completed and nothing half-done. A launch whose arguments cannot be stored is written as a small
record of why (`"replayable": false`), once per kernel.

The wrap goes in before the program's packages are imported (`install_hook`): a module that binds Warp's
launch by name at import (`from warp import launch`, as some of newton's solvers do) calls what it bound.
A fork server (`capture.forkserver`) imports the packages once, with the wrap in place, and each job it forks
activates its own `Capture`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir import warp_session
from warp_cuda_ir.cache import atomic_write
from warp_cuda_ir.capture import keys, record

_active: Capture | None = None  # the capture of this process's job, once it has one


def _before(*call: Any) -> Any:
    return None if _active is None else _active.before(*call)


def _after(token: Any) -> None:
    if _active is not None:
        _active.after(token)


def install_hook() -> None:
    """Wrap Warp's launch for whichever `Capture` this process installs; launches before that pass through.

    New CPU memory starts zeroed (`warp_session.zero_new_cpu_memory`): a record holds each array's contents
    before its launch, and what `wp.empty` left there must not decide the record's bytes."""
    warp_session.zero_new_cpu_memory()
    warp_session.install_launch_hook(_before, _after)


class Capture:
    def __init__(
        self,
        targets: list[keys.Target],
        out_dir: str | os.PathLike[str],
        per_kernel: int = 2,
        first_launch: Callable[[], None] | None = None,
    ) -> None:
        """`first_launch` is called once, after the first launch this process records (its module compiled)."""
        self.targets = targets
        self.first_launch = first_launch
        self.out = Path(out_dir)
        self.out.mkdir(parents=True, exist_ok=True)
        self.per_kernel = per_kernel
        self.counts: dict[str, int] = {}  # "<key>|<Warp key>" -> replayable records written
        self.refused: set[str] = set()  # "<key>|<Warp key>"s with a "not replayable" record written
        self.keys: dict[int, tuple[Any, str | None]] = {}  # id(kernel) -> (kernel, key) for plain kernels
        self.seq = 0

    def install(self) -> None:
        """Record this process's launches from now on."""
        global _active
        install_hook()
        _active = self

    def _key(self, kernel: Any) -> str | None:
        cached = self.keys.get(id(kernel))
        if cached is not None and cached[0] is kernel:
            return cached[1]
        key = keys.kernel_key(kernel, self.targets)
        self.keys[id(kernel)] = (kernel, key)  # holding the kernel keeps its id from being reused
        return key

    def before(
        self, kernel: Any, dim: Any, args: list[Any], device: Any, block_dim: Any, tiled: int | None = None
    ) -> Any:
        dev = wp.get_device(device)
        if not dev.is_cpu or dev.is_capturing:
            # During a CPU graph capture (`wp.ScopedCapture`, Warp 1.19 records it as an APIC byte stream)
            # the launch is only recorded and runs later: its before- and after-state would be wrong.
            # Measured: 26 of 28 replays that differed were such launches (mujoco_warp, warp's tests).
            return None
        dims = [int(dim)] if isinstance(dim, int) else [int(d) for d in dim]
        if not dims or any(d <= 0 for d in dims):
            return None
        if kernel.is_generic:
            # Resolving the overload here is what `wp.launch` does first; it is cached on the kernel.
            kernel = warp_session.launched_kernel(kernel, args)
        key = self._key(kernel)
        # Counted per Warp key too: a factory's kernels share a kernel key and differ by `key=` and their
        # annotations (warp's test_lerp makes 11, one per type); each is its own harvest record. Counted per
        # kernel key alone, only the first two got a record (114 harvest records of the default packages).
        counted = f"{key}|{kernel.key}"
        if key is None or self.counts.get(counted, 0) >= self.per_kernel:
            return None
        meta: dict[str, Any] = {
            "kernel": key,
            "warp_key": kernel.key,
            "dim": dims,
            "block_dim": None if block_dim is None else int(block_dim),
            "params": [name for name, _ in warp_session.kernel_params(kernel)],
        }
        if tiled is not None:
            # `wp.launch_tiled(..., block_dim=tiled)`: `dim` ends with the CPU's block of 1; a GPU launch of
            # the same tiles is `launch_tiled(dim=dim[:-1], block_dim=tiled)`.
            meta["tile_block_dim"] = int(tiled)
        try:
            snap = record.snapshot(warp_session.kernel_params(kernel), args)
        except record.NotStorable as e:
            if counted not in self.refused:
                self.refused.add(counted)
                self._write(key, {**meta, "replayable": False, "reason": str(e)[:300]}, None)
            return None
        self.counts[counted] = self.counts.get(counted, 0) + 1
        return key, meta, snap

    def after(self, token: Any) -> None:
        key, meta, snap = token
        wp.synchronize_device("cpu")
        if self.first_launch is not None:
            self.first_launch, call = None, self.first_launch
            call()
        changed = record.after_state(snap)
        meta = {
            **meta,
            "replayable": True,
            "args": snap.specs,
            "changed": sorted(changed),
            "overlaps": snap.overlaps,
            # No timing of the launch: a record is the row's `launch_record` column, and the same launch must
            # give the same bytes in every capture (one kept the launch's wall time, so two captures of the
            # default packages gave different bytes for 253 of 1,311 rows of one file; nothing read it).
        }
        data = record.pack(meta, snap.before, changed)
        if len(data) > record.MAX_RECORD_BYTES:
            meta = {
                k: meta[k] for k in ("kernel", "warp_key", "dim", "block_dim", "params", "tile_block_dim") if k in meta
            }
            reason = f"record of {len(data)} bytes (over the {record.MAX_RECORD_BYTES >> 20} MB cap)"
            self._write(key, {**meta, "replayable": False, "reason": reason}, None)
            return
        self._write(key, meta, data)

    def _write(self, key: str, meta: dict[str, Any], data: bytes | None) -> None:
        self.seq += 1
        name = f"{os.getpid()}-{self.seq:06d}"
        head = json.dumps(meta).encode()
        atomic_write(self.out / f"{name}.launch", len(head).to_bytes(8, "little") + head + (data or b""))


def read_launch_file(path: str | os.PathLike[str]) -> tuple[dict[str, Any], bytes | None]:
    """(meta, record bytes or None) of one file written by `Capture`."""
    raw = Path(path).read_bytes()
    n = int.from_bytes(raw[:8], "little")
    meta = json.loads(raw[8 : 8 + n])
    data = raw[8 + n :]
    return meta, (data or None)
