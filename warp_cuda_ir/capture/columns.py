"""What a real row gets from the capture: its launch record, the replay verdict, and how to launch it.

`launch_columns(harvest_record, captured, replays)` gives the row's capture columns (see
`schema`'s capture block); `launch_from_record(data, kernel, namespace, device, requires_grad)` gives the
validation pass what `launch.prepare` gives for a synthetic row: grid, argument values, and per-argument
records (`role` is `inout` for the arrays the captured launch changed, `in` for the others), so the CPU
run, its digest, output statistics and the gradient check treat a replayable real row like a synthetic one.

Replay verdicts are cached per (source, kernel name, record bytes) in a `replays.ReplayCache`, which the
build fills in executor workers first (`replays.replay_all`); a verdict missing from it is replayed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warp_cuda_ir.capture import record as rec
from warp_cuda_ir.capture import replay
from warp_cuda_ir.capture.replays import ReplayCache

# `launch_replay` values. Rows with a usable reference launch: EQUAL, CLOSE.
EQUAL, CLOSE, DIFFERS, ERROR = "equal", "close", "differs", "error"
NOT_REPLAYABLE = "not replayable"  # a launch was captured, but an argument could not be stored
NOT_LAUNCHED = "not launched"  # no example or test of the capture launched this kernel on the CPU
REPLAY_VERDICTS: tuple[str, ...] = (EQUAL, CLOSE, DIFFERS, ERROR, NOT_REPLAYABLE, NOT_LAUNCHED)
USABLE = (EQUAL, CLOSE)


def launch_columns(
    harvest_record: dict[str, Any], captured: Any | None, replays: ReplayCache | None = None
) -> dict[str, Any]:
    """The capture columns of a real row, plus `launch_dim`/`launch_tiled` when its replay is usable, and
    `block_dim` when that launch named a block size of more than one thread.

    `captured`: a `Captured` (or anything with `record_for`), None when the build ran no capture (all null).
    """
    if captured is None:
        return {"launch_record": None, "launch_replay": None, "launch_replay_detail": None}
    got = captured.record_for(harvest_record)
    if got is None:
        return {"launch_record": None, "launch_replay": NOT_LAUNCHED, "launch_replay_detail": None}
    meta, data = got
    if data is None:
        return {"launch_record": None, "launch_replay": NOT_REPLAYABLE, "launch_replay_detail": meta.get("reason")}
    cache = replays or ReplayCache(None)
    fidelity = cache.verdict(harvest_record["source"], harvest_record["kernel_name"], data)
    columns: dict[str, Any] = {
        "launch_record": data,
        "launch_replay": fidelity.verdict,
        "launch_replay_detail": fidelity.detail or None,
    }
    if fidelity.verdict in USABLE:
        if meta.get("tile_block_dim") and len(meta["dim"]) > 1:
            # A `wp.launch_tiled` launch: the grid of tiles (on the CPU Warp ran each tile with one thread and
            # appended that 1 to `dim`). A GPU launch uses the row's `block_dim`, the one its CUDA code was
            # generated for; the block size the program asked for stays in the record (`tile_block_dim`).
            columns["launch_dim"] = list(meta["dim"][:-1])
            columns["launch_tiled"] = True
            asked = meta.get("tile_block_dim")
        else:
            columns["launch_dim"] = list(meta["dim"])
            columns["launch_tiled"] = False
            asked = meta.get("block_dim")
        if asked is not None and asked > 1:
            # The launch named its block size, and Warp built the module for it: a GPU launch of the row uses
            # it (a block size of 1 is the CPU's: newton asks for it on the CPU only). Tiles span the block,
            # so a tile kernel launched with other blocks loads other data (a `tile_load` of 8 matrices by
            # 256 threads of which 8 are launched left 7 of them unread on an H200).
            columns["block_dim"] = int(asked)
    return columns


@dataclass
class RecordLaunch:
    dim: tuple[int, ...]
    inputs: list[Any]
    arguments: list[dict[str, Any]]  # name, kind ("array" | "struct" | "scalar" | "none"), role


def launch_from_record(
    data: bytes, kernel: Any, namespace: dict[str, Any], device: str = "cpu", requires_grad: bool = False
) -> RecordLaunch:
    """The validation hook: a real row's launch, from its `launch_record`, on `device`."""
    r = rec.unpack(data)
    built = replay.arguments(r, kernel, namespace, device, requires_grad)
    changed = set(r.meta.get("changed", []))
    arguments = []
    for i, (name, spec) in enumerate(zip(r.meta["params"], r.meta["args"], strict=True)):
        kind = spec["t"]
        if kind == "array":
            kind = "none" if spec.get("none") else "array"
        elif kind != "struct":
            kind = "scalar"
        role = "inout" if str(i) in changed or spec.get("same_as") in changed else "in"
        argument = {"name": name, "kind": kind, "role": role}
        if kind == "struct":  # the arrays it holds that the launch wrote, by their path below it
            argument["changed"] = sorted(p.partition(".")[2] for p in changed if p.startswith(f"{i}."))
        arguments.append(argument)
    return RecordLaunch(tuple(built.dim), built.inputs, arguments)
