"""The executor: one item that hangs, crashes or raises is blamed alone; signals stop every process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from tests.executor_items import (
    DiesAsTaken,
    behave,
    broken_start,
    deaf_hang,
    leave_temporary_files,
    marked_processes,
    shared_temp,
    square,
    start_grandchild,
    start_marked,
    string_hash,
    worker_pid,
)
from warp_cuda_ir.engines import Outcome, Resources, get_executor
from warp_cuda_ir.errors import WorkerStartError

ROOT = Path(__file__).resolve().parent.parent


def by_index(outcomes: list[Outcome[int]]) -> dict[int, Outcome[int]]:
    return {o.index: o for o in outcomes}


def test_each_bad_item_is_blamed_alone_and_the_rest_finish() -> None:
    items = [("ok", 1), ("hang", 0), ("ok", 2), ("segv", 0), ("exit", 0), ("raise", 7), ("ok", 3)]
    with get_executor("local", 2) as executor:
        got = by_index(list(executor.map(behave, items, time_limit=3)))
    assert [got[i].status for i in range(len(items))] == ["ok", "timeout", "ok", "crashed", "crashed", "error", "ok"]
    assert [got[i].value for i in (0, 2, 6)] == [1, 2, 3]
    assert got[1].detail == "cut at the 3 s limit"
    assert got[3].detail == "worker died: exit code -11 (SIGSEGV)"
    assert got[4].detail == "worker died: exit code 3"
    assert got[5].detail == "ValueError: bad item 7 second line"


def test_a_worker_dying_before_pebble_sees_its_item_is_blamed_on_that_item_alone() -> None:
    """pebble then fails every item in flight and marks its pool broken; a map that gave up there ("the worker
    processes could not start") lost a whole stage to one item (seen under load in the test suite)."""
    items = [("ok", 1), DiesAsTaken(), ("ok", 2), ("ok", 3), DiesAsTaken(), ("raise", 4), ("ok", 5)]
    with get_executor("local", 2) as executor:
        got = by_index(list(executor.map(behave, items, time_limit=60)))
        assert [o.value for o in executor.map(square, [6], time_limit=60)] == [36]  # the executor goes on
    assert [got[i].status for i in range(len(items))] == ["ok", "crashed", "ok", "ok", "crashed", "error", "ok"]
    assert [got[i].value for i in (0, 2, 3, 6)] == [1, 2, 3, 5]
    assert got[1].detail == "worker died: exit code unknown: its worker died as it took the item"


def test_workers_are_reused_across_items_and_maps() -> None:
    with get_executor("local", 2) as executor:
        first = {o.value for o in executor.map(worker_pid, range(6))}
        second = {o.value for o in executor.map(worker_pid, range(6))}
    assert len(first | second) <= 2 and os.getpid() not in first


def test_one_worker_without_a_time_limit_runs_in_this_process() -> None:
    with get_executor("local", 1) as executor:
        assert [o.value for o in executor.map(worker_pid, range(2))] == [os.getpid()] * 2
        assert [o.value for o in executor.map(square, [3], time_limit=30)] == [9]
        assert [o.value for o in executor.map(worker_pid, [0], time_limit=30)] != [os.getpid()]


def test_workers_that_cannot_start_stop_the_map_with_one_line() -> None:
    with get_executor("local", 2, initializer=broken_start) as executor:
        with pytest.raises(WorkerStartError, match=r"the worker processes could not start \(All workers expired\)"):
            list(executor.map(square, range(4)))


def test_stop_does_not_wait_for_workers_deaf_to_sigterm(tmp_path: Path) -> None:
    marker = str(tmp_path / "started")
    with get_executor("local", 2) as executor:
        for i in range(2):
            executor.submit(deaf_hang, marker, index=i, time_limit=None, resources=Resources())
        deadline = time.time() + 60
        while len(list(tmp_path.glob("started.*"))) < 2:
            assert time.time() < deadline
            time.sleep(0.1)
        pids = [int(p.suffix[1:]) for p in tmp_path.glob("started.*")]
        started = time.monotonic()
        executor.stop()
        assert time.monotonic() - started < 2.5  # pebble alone waits 3 s per worker before SIGKILL
    assert not any(Path(f"/proc/{pid}").exists() for pid in pids)


def test_map_is_lazy() -> None:
    pulled: list[int] = []

    def items():
        for i in range(100):
            pulled.append(i)
            yield i

    with get_executor("local", 2) as executor:
        outcomes = executor.map(square, items(), ahead=3)
        next(outcomes)
        outcomes.close()
    assert len(pulled) <= 4


def test_a_timed_out_item_leaves_no_grandchild() -> None:
    marker = f"executor-test-{uuid.uuid4().hex}"
    with get_executor("local", 1) as executor:
        [outcome] = executor.map(start_grandchild, [marker], time_limit=2)
    assert outcome.status == "timeout"
    assert _gone(marker)


def _gone(marker: str, within: float = 10.0) -> bool:
    deadline = time.time() + within
    while time.time() < deadline:
        if not marked_processes(marker):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_to_the_parent_stops_every_process_it_started(signum: int) -> None:
    marker = f"executor-test-{uuid.uuid4().hex}"
    driver = subprocess.Popen(
        [sys.executable, "-m", "tests.executor_items", marker],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # a background job may inherit SIGINT ignored: give the driver Ctrl-C's default action
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.time() + 60
        while len([p for p in marked_processes(marker) if p != driver.pid]) < 2:  # both grandchildren run
            assert time.time() < deadline and driver.poll() is None, driver.stderr.read().decode()
            time.sleep(0.2)
        signalled = time.time()
        driver.send_signal(signum)
        driver.wait(10)
        assert _gone(marker, within=10 - (time.time() - signalled))
        assert driver.returncode != 0
    finally:
        if driver.poll() is None:
            driver.kill()


def test_ctrl_c_while_workers_start_prints_no_worker_traceback() -> None:
    # The driver sends SIGINT to its whole process group, as a terminal does, 50 ms into its first worker's
    # Python: before the fix every run printed the workers' KeyboardInterrupt tracebacks under the one line.
    marker = f"executor-test-{uuid.uuid4().hex}"
    driver = start_marked(
        [sys.executable, "-m", "tests.executor_items", "--interrupt-start"], marker, cwd=ROOT, start_new_session=True
    )
    _, stderr = driver.communicate(timeout=60)
    assert driver.returncode == 130, stderr.decode()
    # The whole stderr on failure: a failure seen once under `-n 2` showed only pytest's truncated diff.
    assert "KeyboardInterrupt" not in stderr.decode() and "Traceback" not in stderr.decode(), stderr.decode()
    deadline = time.time() + 10
    while _environ_marked(marker) and time.time() < deadline:  # its workers and theirs are gone too
        time.sleep(0.2)
    assert not _environ_marked(marker)


def _environ_marked(marker: str) -> list[int]:
    return marked_processes(marker, "environ")


def _running(needle: str, pids: list[int], count: int = 1) -> bool:
    """At least `count` of `pids` run a command line holding `needle`."""
    found = 0
    for pid in pids:
        try:
            found += needle.encode() in Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
    return found >= count


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_build_signalled_during_its_capture_stops_everything_and_resumes(tmp_path: Path, signum: int) -> None:
    import shutil

    shutil.copytree(ROOT / "tests" / "data" / "capture" / "capfix", tmp_path / "capfix")
    marker = f"executor-build-{uuid.uuid4().hex}"
    command = [sys.executable, str(ROOT / "scripts" / "build.py"), "--out", str(tmp_path / "out")]
    command += ["--real", str(tmp_path / "capfix"), "--target-mb", "0.01", "--workers", "2"]
    command += ["--seeds-per-shard", "8", "--cache-dir", str(tmp_path / "cache"), "--no-validate"]
    build = start_marked(command, marker)
    try:
        deadline = time.time() + 300
        # a job running: forked by its fork server (the server and the job show the server's command line)
        while not _running("warp_cuda_ir.capture.forkserver", _environ_marked(marker), count=2):
            assert time.time() < deadline and build.poll() is None, build.stderr.read().decode()[-2000:]
            time.sleep(0.2)
        signalled = time.time()
        build.send_signal(signum)
        build.wait(10)
        while _environ_marked(marker) and time.time() - signalled < 10:
            time.sleep(0.2)
        assert _environ_marked(marker) == [], "processes left behind"
        assert build.returncode != 0
    finally:
        if build.poll() is None:
            build.kill()
    again = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    assert _environ_marked(marker) == []
    # Each stage reports on a bar of its own: the shards' MB on "generating", not on a bar made before it.
    assert "making real rows" in again.stderr and "generating" in again.stderr


def test_what_workers_leave_in_their_temporary_folder_goes_with_the_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Workers end with `os._exit` or are killed, so their temporary files outlive them (Warp's precompiled
    headers, ~4.5 MB per worker that compiled on the CPU, piled up in /tmp build after build)."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    marker = tmp_path / "died"
    items = [("keep", str(marker)), ("die", str(marker)), ("keep", str(marker))]
    with get_executor("local", 2) as executor:
        got = by_index(list(executor.map(leave_temporary_files, items, time_limit=60)))
        left = [Path(got[0].value), Path(got[2].value), Path(marker.read_text())]
        assert got[1].status == "crashed" and all(p.is_dir() and temp in p.parents for p in left)
        # What is made once per machine (the device-header copy) stays in the machine's folder.
        assert [o.value for o in executor.map(shared_temp, [0, 1], time_limit=60)] == [str(temp)] * 2
    assert not any(p.exists() for p in left) and list(temp.iterdir()) == []


def test_workers_hash_strings_with_one_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Warp orders some generated lines by iterating a set of strings: workers of every run agree."""
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    seen = set()
    for _ in range(2):
        with get_executor("local", 2) as executor:
            seen |= {o.value for o in executor.map(string_hash, ["warp"] * 2, time_limit=60)}
    assert len(seen) == 1
