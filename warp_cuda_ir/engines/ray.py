"""Ray engine: the same shards on a Ray cluster, or on a Ray instance started on this machine.

Each missing shard is one Ray task (1 CPU) running `shards.generate_shard`, the function
the local engine runs too; the task returns the shard's Arrow tables and the driver writes them
into its shard cache. Workers therefore need no shared file system, and resume, the stop-at-target
rule and the builder's writing (`ShardFeed`) work exactly as with the local engine: same arguments,
same rows.

Plain Ray tasks rather than Ray Data: the number of shards is not known in advance (the build stops
once the first K shards reach the size target), and tasks let us submit shards lazily, as the local
engine does.

The driver ships this package to the workers (`runtime_env` `py_modules`), so the cluster runs the
driver's code; its nodes need the dependencies installed (`pip install "warp-cuda-ir[ray]"`).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from warp_cuda_ir.engines import always, schedule
from warp_cuda_ir.engines.local import SHARDS_PER_WORKER
from warp_cuda_ir.errors import EngineUnavailable, one_line
from warp_cuda_ir.shards import BuildSpec, ShardCache, ShardStats, generate_shard

T = TypeVar("T")
R = TypeVar("R")

# A cluster that does not answer must fail well within 30 s: Ray itself retries for minutes.
CONNECT_TIMEOUT_S = 24.0
PROBE_TIMEOUT_S = 5.0
DEFAULT_GCS_PORT = 6379
PACKAGE_DIR = Path(__file__).resolve().parent.parent


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise EngineUnavailable("--engine ray needs Ray: pip install 'warp-cuda-ir[ray]' (or 'ray[data]')") from None
    return ray


def connect(address: str | None, num_cpus: int) -> None:
    """Join the cluster at `address` ("auto", "host:port", "ray://host:port"), or start a local
    Ray instance with `num_cpus` CPUs when `address` is None. Already connected: nothing to do.
    """
    ray = _import_ray()
    if ray.is_initialized():
        return
    if address and address != "auto":
        _probe(address)
    kwargs: dict[str, Any] = {
        "include_dashboard": False,
        "runtime_env": {"py_modules": [str(PACKAGE_DIR)], "excludes": ["__pycache__"]},
    }
    if not address:  # a local instance: ray.init must run in the main thread to start one
        try:
            ray.init(address="local", num_cpus=num_cpus, **kwargs)  # "local": never join a stray cluster
        except Exception as e:
            raise EngineUnavailable(f"cannot start a local Ray instance: {type(e).__name__}: {one_line(e)}") from None
        return
    outcome: dict[str, BaseException] = {}

    def init() -> None:
        try:
            ray.init(address=address, **kwargs)
        except BaseException as e:  # handed to the caller's thread
            outcome["error"] = e

    # Against an address that accepts connections but is not a Ray head, ray.init can retry for
    # minutes and cannot be cancelled: it runs in a daemon thread the process may leave behind.
    thread = threading.Thread(target=init, name="ray-init", daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT_S)
    if thread.is_alive():
        raise EngineUnavailable(f"no answer from the Ray cluster at {address} within {CONNECT_TIMEOUT_S:.0f} s")
    if "error" in outcome:
        e = outcome["error"]
        raise EngineUnavailable(f"cannot connect to the Ray cluster at {address}: {type(e).__name__}: {one_line(e)}")


def _probe(address: str) -> None:
    """Fail fast when nothing listens at the address (Ray would retry for a minute or more)."""
    hostport = address.split("://", 1)[-1]
    host, _, port = hostport.rpartition(":") if ":" in hostport else (hostport, "", str(DEFAULT_GCS_PORT))
    try:
        with socket.create_connection((host, int(port)), timeout=PROBE_TIMEOUT_S):
            pass
    except (OSError, ValueError) as e:
        raise EngineUnavailable(f"no Ray cluster answers at {address}: {one_line(e)}") from None


def run_shards(
    spec: BuildSpec,
    indices: Iterable[int],
    cache_root: str,
    workers: int,
    wanted: Callable[[int], bool] = always,
) -> Iterator[ShardStats]:
    """Run shards as Ray tasks (`engines.RunShards`), yielding stats as each finishes.

    Up to twice the cluster's CPUs are in flight (`workers` sized the local instance in
    `connect`; a cluster brings its own).
    """
    ray = _import_ray()
    cache = ShardCache(cache_root)
    # max_calls recycles worker processes, as the local pool does.
    task = ray.remote(num_cpus=1, max_calls=SHARDS_PER_WORKER)(generate_shard)
    capacity = 2 * max(1, int(ray.cluster_resources().get("CPU", workers)))
    submitted: dict[Any, int] = {}

    def submit(index: int) -> Any:
        ref = task.remote(spec, index)
        submitted[ref] = index
        return ref

    def finished(refs: list[Any]) -> list[tuple[Any, ShardStats]]:
        done, _ = ray.wait(refs, num_returns=1)
        # The driver writes the shard: workers need no file system shared with it.
        return [(ref, cache.write(submitted.pop(ref), *ray.get(ref))) for ref in done]

    try:
        yield from schedule(indices, cache, capacity, wanted, submit, finished)
    finally:
        for ref in submitted:  # stopped early or failed: shards nobody will read
            ray.cancel(ref)
