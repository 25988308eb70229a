"""The Ray executor: the same items as Ray tasks, on a cluster or on a Ray instance started here.

Each item is one Ray task asking for `Resources` (`num_cpus`, `num_gpus`: a GPU stage waits for a node
with a GPU); results stream back as they finish (`ray.wait`). A task past its time limit is cancelled
with `force=True` (its worker process is killed) and reported `timeout`; a task whose worker dies is
`crashed` (no retry: the item is blamed, the rest go on). The time limit counts from submission, since
Ray does not say when a task starts, so with a time limit `map` keeps only as many items in flight as the
cluster has CPUs (twice that without one); a worker's start-up counts against its first item.

Workers may not share the driver's files (`shares_files` is False): the shard engine has a worker
return a shard's Arrow tables and the driver writes them, so resume, the stop-at-target rule and the
builder's writing work as with the local executor: same arguments, same rows.

The driver ships this package to the workers (`runtime_env` `py_modules`), so the cluster runs the
driver's code; its nodes need the dependencies installed (`pip install "warp-cuda-ir[ray]"`).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from warp_cuda_ir.engines import Executor, Outcome, Resources, Ticket
from warp_cuda_ir.errors import EngineUnavailable, one_line

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


def _run_item(fn: Callable[[Any], Any], item: Any, initializer: Callable[[], None] | None) -> Any:
    """The Ray task: the worker's initializer once per worker process, then the item."""
    global _initialised
    if initializer is not None and not _initialised:
        initializer()
        _initialised = True
    return fn(item)


_initialised = False
# How often `wait` wakes to check time limits and let signal handlers run.
WAIT_TICK_S = 0.5


class RayExecutor(Executor):
    shares_files = False

    def __init__(self, workers: int, address: str | None, *, initializer: Callable[[], None] | None = None) -> None:
        super().__init__()
        connect(address, num_cpus=workers)
        self.ray = _import_ray()
        self.workers = workers
        self.initializer = initializer
        self._task = self.ray.remote(max_retries=0)(_run_item)

    def capacity(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", self.workers)))

    def _default_ahead(self, time_limit: float | None) -> int:
        # A time limit counts from submission here: a queued item's clock would run while it waits.
        return self.capacity() if time_limit is not None else 2 * self.capacity()

    def submit(
        self, fn: Callable[[T], R], item: T, *, index: int, time_limit: float | None, resources: Resources
    ) -> Ticket:
        ref = self._task.options(num_cpus=resources.cpus, num_gpus=resources.gpus).remote(fn, item, self.initializer)
        return Ticket(index, ref, time.time(), time_limit)

    def wait(self, tickets: list[Ticket]) -> list[tuple[Ticket, Outcome[Any]]]:
        by_ref = {t.handle: t for t in tickets}
        while True:
            now = time.time()
            late = [t for t in tickets if t.time_limit is not None and now - t.started > t.time_limit]
            if late:
                for t in late:
                    self.ray.cancel(t.handle, force=True)
                return [(t, Outcome.timeout(t.index, t.time_limit)) for t in late]
            done, _ = self.ray.wait(list(by_ref), num_returns=1, timeout=WAIT_TICK_S)
            if done:
                ready, _ = self.ray.wait(list(by_ref), num_returns=len(by_ref), timeout=0)
                finished = sorted((by_ref[r] for r in ready), key=lambda t: t.index)
                return [(t, self._outcome(t)) for t in finished]

    def _outcome(self, ticket: Ticket) -> Outcome[Any]:
        ray = self.ray
        try:
            return Outcome(ticket.index, "ok", ray.get(ticket.handle))
        except ray.exceptions.RayTaskError as e:  # the item raised: report its own exception
            cause = e.cause if getattr(e, "cause", None) is not None else e
            return Outcome.error(ticket.index, cause)
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as e:
            return Outcome.crashed(ticket.index, None, str(e).splitlines()[0])
        except ray.exceptions.TaskCancelledError:
            return Outcome.timeout(ticket.index, ticket.time_limit)
        except ray.exceptions.RayError as e:
            return Outcome.crashed(ticket.index, None, f"{type(e).__name__}: {e}")

    def cancel(self, tickets: list[Ticket]) -> None:
        for ticket in tickets:
            self.ray.cancel(ticket.handle, force=True)

    def stop(self) -> None:
        """Ray owns its workers: tasks of this driver are cancelled by `cancel`; the cluster stays up."""

    def _shutdown(self) -> None:
        pass
