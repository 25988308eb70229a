"""Capture -> launch record -> replay -> fidelity verdicts.

Quick tests record launches of small sources in this process (the pieces the capture hook runs around a
launch) and replay them; the slow ones run the fixture package `tests/data/capture/capfix` as capture jobs
in subprocesses (time limit, crash, cache), harvest it, and replay every harvest record from its capture.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
import warp as wp

from tests.helpers import SPINLOCK
from warp_cuda_ir import warp_session
from warp_cuda_ir.capture import Captured, forkserver, jobs, keys, record, replay

FIXTURE = Path(__file__).resolve().parent / "data" / "capture" / "capfix"

SOURCE = """
import warp as wp

@wp.struct
class Body:
    gravity: wp.vec3
    damping: float
    mass: wp.array(dtype=float)

@wp.kernel
def step(body: Body, x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), q: wp.quat, m: wp.mat22,
         n: int, dt: float, unused: wp.array(dtype=float), same: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = (v[i] + body.gravity * body.mass[i] * dt * m[0, 1]) * body.damping
    x[i] = x[i] + wp.quat_rotate(q, v[i]) * dt + same[i] * float(n)
"""

SHIFT = """
import warp as wp

@wp.kernel
def shift(src: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = src[i] + 1.0
"""


def _capture(source: str, make_args, dim: int | None = None) -> bytes:
    """What the hook does around one launch: snapshot, launch, after-state, pack (`dim`: the second
    argument's length unless given)."""
    with warp_session.loaded_kernel(source) as (kernel, namespace):
        args = make_args(namespace)
        params = warp_session.kernel_params(kernel)
        snap = record.snapshot(params, args)
        dim = len(args[1]) if dim is None else dim
        wp.launch(kernel, dim=dim, inputs=args, device="cpu")
        changed = record.after_state(snap)
        meta = {
            "kernel": "t",
            "warp_key": kernel.key,
            "dim": [dim],
            "block_dim": None,
            "params": [p for p, _ in params],
            "replayable": True,
            "args": snap.specs,
            "changed": sorted(changed),
            "overlaps": snap.overlaps,
        }
        return record.pack(meta, snap.before, changed)


def _warp_reference(source: str, name: str, row: dict, backward: bool) -> list[str]:
    """The digest lines of Warp's own CPU launch of `row` (`reference.reference_run`)."""
    from warp_cuda_ir.standalone import reference

    with warp_session.loaded_kernel(source, name, backward=backward) as (kernel, namespace):
        return reference.reference_run(row, kernel, namespace)[1]


def _twin_columns(row: dict, expected: list[str], tmp_path: Path) -> dict:
    """The standalone stage's columns for `row`'s CPU twin, compared with `expected`."""
    from warp_cuda_ir.standalone import stage

    return stage.run_stage([("k", row, expected)], tmp_path, stage.find_tools(), "no GPU")["k"]


def _step_args(ns):
    rng = np.random.default_rng(1)
    body = ns["Body"]()
    body.gravity = wp.vec3(0.0, -9.8, 0.5)
    body.damping = 0.9
    body.mass = wp.array(rng.uniform(1, 2, 6).astype(np.float32), dtype=float, device="cpu")
    x = wp.array(rng.uniform(-1, 1, (6, 3)).astype(np.float32), dtype=wp.vec3, device="cpu")
    v = wp.array(rng.uniform(-1, 1, (6, 3)).astype(np.float32), dtype=wp.vec3, device="cpu")
    return [body, x, v, wp.quat_rpy(0.1, 0.2, 0.3), wp.mat22(1.0, 0.25, 0.0, 1.0), 3, 0.01, None, x]


def test_record_round_trip_replays_equal() -> None:
    data = _capture(SOURCE, _step_args)
    r = record.unpack(data)
    specs = r.meta["args"]
    assert [s["t"] for s in specs] == [
        "struct",
        "array",
        "array",
        "quaternion",
        "matrix",
        "scalar",
        "scalar",
        "array",
        "array",
    ]
    assert specs[0]["fields"]["mass"]["shape"] == [6]
    assert specs[7] == {"t": "array", "none": True}
    assert specs[8] == {"t": "array", "same_as": "1"}  # the very array passed twice stays one array
    assert r.meta["changed"] == ["1", "2"]  # x and v changed; body.mass did not
    assert r.before["1"].shape == (6, 3) and r.after["1"].shape == (6, 3)
    assert not np.array_equal(r.before["1"], r.after["1"])
    fidelity = replay.replay(SOURCE, "step", data)
    assert fidelity.verdict == "equal", fidelity


def test_record_is_plain_numpy_archive() -> None:
    data = _capture(
        SHIFT,
        lambda ns: [wp.array(np.arange(4, dtype=np.float32), device="cpu"), wp.zeros(4, dtype=float, device="cpu")],
    )
    with np.load(io.BytesIO(data), allow_pickle=False) as z:
        meta = json.loads(z["meta"].tobytes())
        assert meta["format"] == record.FORMAT
        np.testing.assert_array_equal(z["out/1"], [1.0, 2.0, 3.0, 4.0])
        assert "out/0" not in z.files  # src was not changed: its after-state is its before-state


def test_tampered_after_state_is_reported_as_differing() -> None:
    data = _capture(
        SHIFT,
        lambda ns: [wp.array(np.arange(4, dtype=np.float32), device="cpu"), wp.zeros(4, dtype=float, device="cpu")],
    )
    r = record.unpack(data)
    out = r.after["1"].copy()
    out[2] += 4e-6  # a few float32 ulps: within tolerance
    close = record.pack(r.meta, r.before, {"1": out})
    assert replay.replay(SHIFT, "shift", close).verdict == "close"
    out[2] += 0.5
    far = record.pack(r.meta, r.before, {"1": out})
    fidelity = replay.replay(SHIFT, "shift", far)
    assert fidelity.verdict == "differs" and "dst (1 of 4 elements)" in fidelity.detail


def test_overlapping_arguments_replay_differs() -> None:
    def args(ns):
        ramp = wp.zeros(9, dtype=float, device="cpu")
        return [ramp[:8], ramp[1:]]

    data = _capture(SHIFT, args)
    assert record.unpack(data).meta["overlaps"] == [["0", "1"]]
    fidelity = replay.replay(SHIFT, "shift", data)
    # Captured in place, each thread read its predecessor's write (a ramp 1..8); the replay's separate
    # arrays give all ones.
    assert fidelity.verdict == "differs" and "overlapping arguments" in fidelity.detail


@pytest.mark.slow
def test_replays_run_in_worker_processes_that_may_crash_or_hang(tmp_path: Path) -> None:
    """A replay that kills its process or never ends costs its own verdict only; the build's process lives on."""
    from warp_cuda_ir.capture import replays

    data = _capture(
        SHIFT,
        lambda ns: [wp.array(np.arange(4, dtype=np.float32), device="cpu"), wp.zeros(4, dtype=float, device="cpu")],
    )
    # The record holds `shift`'s launch; these sources replay it with a kernel of the same signature.
    crash = SHIFT.replace("dst[i] = src[i] + 1.0", "dst[i - 2000000000] = src[i] + 1.0")  # a store 8 GB away
    endless = "x = src[i]\n    while x < 1.0e30:\n        x = x * 1.0\n    dst[i] = x"  # x stays 0.0, 1.0, ...
    hang = SHIFT.replace("dst[i] = src[i] + 1.0", endless)
    again = SHIFT + "\n# the same kernel, another source text: its own verdict\n"
    items = [(SHIFT, "shift", data), (crash, "shift", data), (hang, "shift", data), (again, "shift", data)]
    cache = replays.ReplayCache(tmp_path / "cache")
    seen: list[tuple[str, int, int]] = []
    replays.replay_all(items, cache, workers=1, time_limit=20.0, progress=lambda *report: seen.append(report))
    got = [cache.get(*item) for item in items]
    assert got[0].verdict == "equal" and got[3].verdict == "equal"  # the worker after the crash and the hang
    assert got[1].verdict == "error" and "replay worker died: exit code -11 (SIGSEGV)" in got[1].detail, got[1]
    assert got[2].verdict == "error" and got[2].detail == "replay cut at the 20 s limit"
    # The four records' modules are one chunk, compiled before the first replay.
    assert seen == [("compile", 1, 1)] + [("replay", d, 4) for d in (1, 2, 3, 4)]
    entries = lambda: {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (tmp_path / "cache").rglob("*")}  # noqa: E731
    files = entries()
    assert len([p for p in (tmp_path / "cache" / replays.NAMESPACE).rglob("*") if p.is_file()]) == 4
    replays.replay_all(items, cache, workers=2, time_limit=20.0)  # all cached: no verdict is written again
    assert entries() == files


@pytest.mark.slow
def test_replays_load_modules_a_prebuild_compiled_in_one_unit(tmp_path: Path) -> None:
    """`replays.prebuild` compiles a chunk's modules as the replays load them (forward only, -O0) in one Clang
    call: each replay then loads that object file, compiles nothing, and gives the verdict it gave alone."""
    from warp_cuda_ir.capture import replays

    shift_args = lambda ns: [  # noqa: E731
        wp.array(np.arange(4, dtype=np.float32), device="cpu"),
        wp.zeros(4, dtype=float, device="cpu"),
    ]
    data = _capture(SHIFT, shift_args)
    twice = SHIFT.replace("src[i] + 1.0", "src[i] * 2.0")
    broken = SHIFT.replace("dst[i] = src[i] + 1.0", "dst[i] = src[i] + undefined_name")
    items = [
        (SHIFT, "shift", data),
        (twice, "shift", data),
        (broken, "shift", data),
        (SOURCE, "step", _capture(SOURCE, _step_args)),
    ]
    alone = [replay.replay(*item) for item in items]
    saved = wp.config.kernel_cache_dir
    wp.config.kernel_cache_dir = str(tmp_path / "kernel_cache")
    try:
        assert replays.prebuild(items) == 3  # the broken source does not generate: its replay says why
        binaries = list((tmp_path / "kernel_cache").glob("*/*.o"))
        assert len(binaries) == 3 and len({b.stat().st_ino for b in binaries}) == 1  # one object file
        batched = [replay.replay(*item) for item in items]
        assert len(list((tmp_path / "kernel_cache").glob("*/*.o"))) == 3  # loaded, none compiled again
    finally:
        wp.config.kernel_cache_dir = saved
    assert batched == alone
    assert [f.verdict for f in batched] == ["equal", "differs", "error", "equal"]


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (
            lambda: wp.indexedarray(
                wp.zeros(4, dtype=float, device="cpu"), [wp.array([0, 2], dtype=wp.int32, device="cpu")]
            ),
            "indexedarray",
        ),
        (lambda: wp.zeros(600_000, dtype=wp.vec4, device="cpu"), "over the 8 MB cap"),
    ],
)
def test_values_that_cannot_be_stored(value, reason) -> None:
    declared = wp.array(dtype=float)
    with pytest.raises(record.NotStorable, match=reason):
        record.snapshot([("arg", declared)], [value()])


def test_uint64_values_are_stored_as_the_numbers_they_are() -> None:
    # Hash keys and bit masks use all 64 bits: no float or int64 detour may round or wrap them.
    big = np.array([2**64 - 1, 2**63 + 1, 12345], dtype=np.uint64)
    params = [("keys", wp.array(dtype=wp.uint64)), ("seed", wp.uint64), ("n", wp.uint64)]
    snap = record.snapshot(params, [wp.array(big, dtype=wp.uint64, device="cpu"), wp.uint64(2**64 - 59), 2**63 + 7])
    stored = record.unpack(record.pack({"args": snap.specs}, snap.before, {}))
    assert stored.before["0"].dtype == np.uint64 and stored.before["0"].tolist() == big.tolist()
    assert int(stored.before["1"]) == 2**64 - 59 and int(stored.before["2"]) == 2**63 + 7
    assert [spec.get("dtype", spec)["s"] for spec in stored.meta["args"]] == ["uint64"] * 3


IDS = {  # one module per kernel, as a harvested row is: its helpers are the functions it reaches
    "by_mesh": """
import warp as wp


@wp.func
def nearest(mesh: wp.uint64, p: wp.vec3) -> float:
    q = wp.mesh_query_point_no_sign(mesh, p, 1.0e6)
    return q.u


@wp.kernel
def by_mesh(mesh: wp.uint64, x: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    out[wp.tid()] = nearest(mesh, x[wp.tid()])
""",
    "by_address": """
import warp as wp


@wp.kernel
def by_address(ptr: wp.uint64, n: int, out: wp.array(dtype=float)):
    a = wp.array(ptr=ptr, shape=(n,), dtype=float)
    out[wp.tid()] = a[wp.tid()]
""",
    "by_value": """
import warp as wp


@wp.kernel
def by_value(keys: wp.array(dtype=wp.uint64), salt: wp.uint64, out: wp.array(dtype=wp.uint64)):
    out[wp.tid()] = (keys[wp.tid()] ^ salt) * wp.uint64(31)
""",
}


def test_the_plan_tells_ids_and_addresses_from_uint64_data_in_generated_code() -> None:
    from dataclasses import asdict

    from warp_cuda_ir import extraction
    from warp_cuda_ir.capture import plan

    texts = {name: asdict(extraction.extract(source, name)) for name, source in IDS.items()}
    assert plan.id_use(texts["by_mesh"]) == "wp.mesh_query_point_no_sign"  # in a function the kernel calls
    assert plan.id_use(texts["by_address"]) == "wp.array(ptr=...)"
    assert plan.id_use(texts["by_value"]) is None
    assert [plan.storable({"texts": t}) for t in texts.values()] == [False, False, True]


def test_record_key_matches_harvest_ident() -> None:
    harvest_record = {"package": "newton", "ident": "2|newton/_src/a.py|10|k|a1f4_a1f4|-", "kernel_name": "k"}
    assert keys.record_key(harvest_record) == "newton|newton/_src/a.py|10|k|a1f4_a1f4|-"
    # A factory's kernels that differ only by `name=` share a kernel key: the Warp key tells them apart.
    base = "p|t.py|15|make.<locals>.k||-"
    records = {f"{base}|k_int32": "int32 launch", f"{base}|k_float64": "float64 launch"}
    first = {"package": "p", "ident": "0|t.py|15|make.<locals>.k||-", "kernel_name": "k_float64"}
    second = {"package": "p", "ident": "0|t.py|15|make.<locals>.k||-#2", "kernel_name": "k_int32"}
    assert keys.match(records, first) == "float64 launch" and keys.match(records, second) == "int32 launch"
    assert keys.match(records, dict(first, kernel_name="renamed")) is None  # ambiguous: no record
    # Another overload's record never stands in for a row's own (its bytes would be read as other types) ...
    assert keys.match({f"{base}|k_float16": "float16 launch"}, first) is None
    # ... but a kernel defined in a class is found under the key Warp prefixes with the class name.
    assert keys.match({f"{base}|Partition__k_float64": "only"}, first) == "only"


def test_example_arguments_follow_the_parser() -> None:
    text = 'parser.add_argument("--device")\nparser.add_argument("--num-frames")\nparser.add_argument("--headless")'
    assert jobs._example_args(text) == ["--device", "cpu", "--num-frames", str(jobs.EXAMPLE_FRAMES), "--headless"]


# --- end to end: the fixture package as capture jobs --------------------------------------------------


def _fixture_jobs(limit: float) -> list[jobs.Job]:
    return [
        jobs.Job("capfix", name, "path", str(FIXTURE / name), (), limit)
        for name in ("example_run.py", "example_crash.py")
    ]


@pytest.mark.slow
def test_a_job_leaves_the_shared_kernel_cache_and_no_temporary_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """unit_cases.py run as a script calls `wp.clear_kernel_cache()`, as Warp's test files do. The jobs beside
    it build their modules in the same kernel cache: in CI one lost its build folder mid-compile ("LLVM ERROR:
    IO failure on output stream") and with it every launch. A job's process ends with `os._exit` or a kill, so
    its temporary files (Warp's precompiled headers, ~4.5 MB each) must go with the job, not stay in /tmp."""
    kernel_cache = tmp_path / "kernels"
    building = kernel_cache / wp.config.version / "wp_another_job_0123abc_p1_t1"  # another job's build folder
    building.mkdir(parents=True)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    target = keys.resolve(str(FIXTURE))
    assert keys.resolve(str(FIXTURE)).sys_path == target.sys_path  # the package's link is made once
    before = set(temp.iterdir())
    job = jobs.Job("capfix", "unit_cases.py", "path", str(FIXTURE / "unit_cases.py"), (), 240)
    result = jobs.run_job(job, [target], kernel_cache=kernel_cache)
    assert "1 != 2" in result.detail and result.launches  # it ran its tests, and `scale` compiled and ran
    assert building.is_dir() and any(kernel_cache.glob("*/wp_capfix*"))
    assert set(temp.iterdir()) == before


_HEADERS_PROCESS = """
import sys
from pathlib import Path
from warp_cuda_ir import warp_session
warp_session.init_warp()
import warp as wp
wp.config.optimization_level = 0
keep = warp_session.share_precompiled_headers(sys.argv[1])
own = Path(wp._src.context.runtime.get_clang_pch_dir())
before = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in own.glob("*.pch")}
source = f'''
import warp as wp
@wp.kernel
def scale(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] * {sys.argv[2]}.0
'''
with warp_session.loaded_kernel(source) as (kernel, _):
    a = wp.array([1.0, 2.0], dtype=float, device="cpu")
    wp.launch(kernel, dim=2, inputs=[a], device="cpu")
    keep()
    after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in own.glob("*.pch")}
    print(repr((before, after, a.numpy().tolist())))
"""


@pytest.mark.slow
def test_capture_jobs_start_from_the_precompiled_headers_an_earlier_job_left(tmp_path: Path) -> None:
    """Each job is a fresh process, whose first CPU compile builds Warp's precompiled headers (~2 CPU-s of
    the ~2.1 its first module costs). The first process leaves them beside the shared kernel cache; the next
    one compiles against the copy as it was put there (Clang did not build them again) and runs correctly."""
    kernels = tmp_path / "kernels"

    def process(factor: int) -> tuple[dict, dict, list[float]]:
        done = subprocess.run(
            [sys.executable, "-c", _HEADERS_PROCESS, str(kernels), str(factor)],
            capture_output=True,
            text=True,
            env={**os.environ, "WARP_CACHE_PATH": str(kernels), "TMPDIR": str(tmp_path)},
            timeout=240,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return eval(done.stdout.strip().splitlines()[-1])

    before, after, values = process(3)
    assert before == {} and values == [3.0, 6.0]
    kept = sorted(p.name for p in kernels.glob(f"{warp_session.PRECOMPILED_HEADERS_DIR}/*/*.pch"))
    assert kept == sorted(after) and any("_o0_" in name for name in kept)
    before, after, values = process(5)
    assert before == after and sorted(before) == kept and values == [5.0, 10.0]


@pytest.mark.slow
def test_the_same_launches_give_the_same_record_bytes_in_every_capture(tmp_path: Path) -> None:
    """A record is the row's `launch_record` column: two captures of a program whose inputs are seeded give
    byte-identical records (one kept the launch's wall time, so rebuilds from empty caches differed)."""
    target = keys.resolve(str(FIXTURE))
    job = _fixture_jobs(240)[0]
    captured = []
    for run in ("first", "second"):
        result = jobs.run_job(job, [target], kernel_cache=tmp_path / run)
        # `by_id` takes a mesh's id, an address in the capturing process: its record never becomes a row's
        # launch (`Captured.record_for` refuses it), and it differs from process to process.
        launches = [(meta["kernel"], meta["warp_key"], data) for meta, data in result.launches if data]
        captured.append(sorted(launch for launch in launches if launch[1] != "by_id"))
    assert len(captured[0]) >= 5 and captured[0] == captured[1]


_EMPTY_AFTER_FREE = """
import sys
import warp as wp
from warp_cuda_ir import warp_session
from warp_cuda_ir.capture import hook
warp_session.init_warp()
hook.install_hook()
left = 0
for _ in range(20):  # the heap hands a freed block straight back: 4,096 sevens, then `wp.empty` of that size
    full = wp.full(4096, 7.0, dtype=float, device="cpu")
    del full
    fresh = wp.empty(4096, dtype=float, device="cpu")
    left += int((fresh.numpy() != 0).sum())
    del fresh
print(left)
"""


def test_memory_a_captured_program_allocates_starts_zeroed() -> None:
    """A record holds each array's contents before its launch; `wp.empty` and Warp's own scratch arrays held
    whatever the heap held (two captures of the default packages differed in 448 of 3,397 records). Without
    the capture's hook the same process reads back 71,876 leftover sevens."""
    done = subprocess.run([sys.executable, "-c", _EMPTY_AFTER_FREE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "0"


@pytest.mark.slow
def test_capture_jobs_harvest_and_replay(tmp_path: Path) -> None:
    from warp_cuda_ir.harvest import harvest

    target = keys.resolve(str(FIXTURE))
    results = jobs.cached_capture(_fixture_jobs(240), [target], tmp_path / "cache", workers=2)
    status = {r.job.name: r.status for r in results}
    assert status == {"example_run.py": "ok", "example_crash.py": "failed"}
    crash = next(r for r in results if r.job.name == "example_crash.py")
    assert "fails here on purpose" in crash.detail
    assert len(crash.launches) == 1  # the launch before the crash completed, so it is kept

    ran = []
    again = jobs.cached_capture(
        _fixture_jobs(240), [target], tmp_path / "cache", workers=2, progress=lambda r, d, t: ran.append(r)
    )
    assert ran == [] and [len(r.launches) for r in again] == [len(r.launches) for r in results]

    best = jobs.best_records(results)
    tiled = next(meta for meta, _ in best.values() if meta["warp_key"] == "row_sums")
    assert tiled["dim"] == [4, 1] and tiled["tile_block_dim"] == 32  # the CPU's grid, the block asked for
    harvested = harvest([str(FIXTURE)], workers=1)
    captured = Captured(best, results, [target], 0.0)
    verdicts = {}
    for rec_ in harvested.records:
        meta, data = captured.record_for(rec_)  # every fixture kernel was launched and found by its key
        name = rec_["qualname"] + (f"[{rec_['overload']}]" if rec_["overload"] else "")
        verdicts[name] = replay.replay(rec_["source"], rec_["kernel_name"], data).verdict if data else meta["reason"]
    assert verdicts == {
        "scale": "equal",
        "integrate": "equal",
        "apply_params": "equal",
        "add_generic[a1f4_a1f4]": "equal",
        "add_generic[a1v3f4_a1v3f4]": "equal",
        "count": "equal",
        "row_sums": "equal",
        "gather": "argument 'a': indexedarray (only plain arrays are stored)",
        # A uint64 is data unless the kernel's code uses it as an id (here in a function it calls).
        "by_id": "argument 'mesh': uint64 the kernel uses as an id or an address (wp.mesh_query_point_no_sign)",
        "hash_keys": "equal",
        "shift": "differs",
    }
    # The plan's reading of the generated C++ agrees with what the capture refused, kernel by kernel.
    from warp_cuda_ir.capture import plan

    for rec_ in harvested.records:
        meta, data = captured.record_for(rec_)
        assert plan.storable(rec_) == (data is not None), rec_["qualname"]


@pytest.mark.slow
def test_longest_expected_job_starts_first_and_results_keep_the_planned_order(tmp_path: Path) -> None:
    target = keys.resolve(str(FIXTURE))
    scripts = []
    for name in ("example_short.py", "example_long.py"):
        (tmp_path / name).write_text("print('ran')\n")
        scripts.append(jobs.Job("capfix", name, "path", str(tmp_path / name), (), 60))
    expected = {"example_short.py": 1.0, "example_long.py": 50.0}
    started = []
    results = jobs.cached_capture(
        scripts,
        [target],
        tmp_path / "cache",
        workers=1,
        progress=lambda r, done, total: started.append(r.job.name),
        expected_s=lambda job: expected[job.name],
    )
    assert started == ["example_long.py", "example_short.py"]  # one worker: finished in the order started
    assert [r.job.name for r in results] == ["example_short.py", "example_long.py"]
    # With a budget the planned order decides what runs first (a cut keeps the jobs worth most).
    started.clear()
    jobs.cached_capture(
        [replace(j, args=("again",)) for j in scripts],
        [target],
        tmp_path / "cache",
        workers=1,
        budget_s=600,
        progress=lambda r, done, total: started.append(r.job.name),
        expected_s=lambda job: expected[job.name],
    )
    assert started == ["example_short.py", "example_long.py"]


def test_expected_seconds_order_the_plan_by_kind_of_job() -> None:
    from warp_cuda_ir.capture import plan

    warp_test = jobs.Job("warp-lang", "warp/tests/test_x.py", "unittest", "warp.tests.test_x", (), 180)
    newton_test = jobs.Job("newton", "newton/tests/test_x.py", "unittest", "newton.tests.test_x", (), 180)
    example = jobs.Job("newton", "newton/examples/e.py", "path", "/x/e.py", (), 150)
    assert plan.cost(warp_test) == plan.WARP_TEST_S < plan.cost(newton_test) == plan.TEST_S < plan.cost(example) == 150


def test_low_yield_jobs_are_left_out_of_the_default_packages_jobs_and_shortened_ones_shortened() -> None:
    made = {j.name: j for spec in ("warp", "newton", "mujoco_warp") for j in jobs.default_jobs(keys.resolve(spec))}
    assert "warp/tests/test_quat.py" in made and not jobs.LOW_YIELD_JOBS & set(made)
    assert {name: made[name].time_limit for name in jobs.SHORTENED_JOBS} == jobs.SHORTENED_JOBS
    assert made["newton/tests/test_coupled_solver.py"].time_limit == jobs.NEWTON_TEST_TIME_LIMIT_S
    site = Path(keys.resolve("warp").base)
    # each name is a file of the installed packages: a stale name would leave nothing out
    assert [
        name for name in sorted(jobs.LOW_YIELD_JOBS | set(jobs.SHORTENED_JOBS)) if not (site / name).is_file()
    ] == []


@pytest.mark.slow
def test_a_sleeping_script_is_cut_by_the_wall_clock_ceiling(tmp_path: Path) -> None:
    target = keys.resolve(str(FIXTURE.parent))  # the scripts' folder: their kernels are its
    job = jobs.Job("capfix", "example_hang.py", "path", str(FIXTURE.parent / "example_hang.py"), (), 5)
    started = time.monotonic()
    result = jobs.run_job(job, [target])
    assert result.status == "timeout" and result.detail == "cut at the 15 s limit of wall-clock time"
    assert job.wall_limit == 5 * jobs.WALL_PER_CPU_S and time.monotonic() - started < 35
    # the killed script's CPU time is counted (forked, Warp's start and its cached kernel's load: 0.04-0.13 s
    # measured), not the 15 s it slept
    assert 0 < result.cpu_seconds < result.seconds - 5
    assert [meta["kernel"].split("|")[3] for meta, _ in result.launches] == ["double"]


@pytest.mark.slow
def test_a_computing_script_is_cut_at_its_cpu_time_whatever_the_load(tmp_path: Path) -> None:
    # Its limit counts CPU seconds: beside a process spinning on the same core it runs longer in wall-clock
    # time (1.45x to 2x measured), and is cut after its CPU time, its launch kept; a limit of wall-clock time cut
    # it at 8 s.
    target = keys.resolve(str(FIXTURE.parent))
    job = jobs.Job("capfix", "example_spin.py", "path", str(FIXTURE.parent / "example_spin.py"), (), 8)
    rival = subprocess.Popen([sys.executable, "-c", "import os; os.sched_setaffinity(0, {0})\nwhile True: pass"])
    try:
        pinned = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {0})  # the job's process inherits this: it shares core 0 with the rival
        try:
            result = jobs.run_job(job, [target])
        finally:
            os.sched_setaffinity(0, pinned)
    finally:
        rival.kill()
        rival.wait()
    assert result.status == "timeout" and result.detail == "cut at the 8 s limit of CPU time"
    assert 7.5 <= result.cpu_seconds < 14 and result.seconds > job.time_limit + 2
    assert [meta["kernel"].split("|")[3] for meta, _ in result.launches] == ["triple"]


@pytest.mark.slow
def test_unittest_job_runs_by_module_name(tmp_path: Path) -> None:
    target = keys.resolve(str(FIXTURE))
    job = jobs.Job("capfix", "unit_cases.py", "unittest", "capfix.unit_cases", (), 240)
    result = jobs.run_job(job, [target], kernel_cache=tmp_path / "kernels")
    # one test fails on purpose: the job fails, the launch of the test that passed is kept
    assert result.status == "failed" and "1 failures" in result.detail, result.detail
    assert [meta["warp_key"] for meta, data in result.launches if data is not None] == ["scale"]
    assert any((tmp_path / "kernels").iterdir())  # compiled into the capture's own kernel cache


def _launches(result: jobs.JobResult) -> list[tuple[str, str, bytes | None]]:
    # `by_id` takes a mesh's id, an address in the capturing process, which differs from process to process
    return sorted((m["kernel"], m["warp_key"], d) for m, d in result.launches if m["warp_key"] != "by_id")


def _descendants(pid: int) -> list[int]:
    found, pending = [], [pid]
    while pending:
        for task in Path(f"/proc/{pending.pop()}/task").glob("*"):
            kids = [int(c) for c in (task / "children").read_text().split()]
            found += kids
            pending += kids
    return found


@pytest.mark.slow
def test_a_job_forked_from_the_fork_server_records_what_a_fresh_process_records(tmp_path: Path) -> None:
    """Jobs start from a fork server that imported Warp and the targets once (~4 CPU-s per newton job saved).
    A forked job records the same launches and ends the same way as one in a fresh interpreter, and nothing
    of it is left running under the server."""
    target = keys.resolve(str(FIXTURE))
    cases = jobs.Job("capfix", "unit_cases.py", "unittest", "capfix.unit_cases", (), 240)
    got: dict[bool, list] = {}
    for fork in (False, True):
        for job in (_fixture_jobs(240)[0], cases):
            result = jobs.run_job(job, [target], kernel_cache=tmp_path / "kernels", fork=fork)
            got.setdefault(fork, []).append((result.status, result.detail, _launches(result)))
    assert got[True] == got[False]
    assert len(got[True][0][2]) >= 5 and got[True][1][:2] == ("failed", got[False][1][1])
    server = jobs._servers[jobs._server_key([target], False, tmp_path / "kernels")]
    assert server.alive() and _descendants(server.proc.pid) == []


_BOUND_SOLVER = """
import warp as wp
from warp import launch  # bound when the package is imported, as some of newton's solvers do


@wp.kernel
def twice(a: wp.array(dtype=float)):
    a[wp.tid()] = a[wp.tid()] * 2.0


def run():
    a = wp.array([1.0, 2.0, 3.0], dtype=float, device="cpu")
    launch(twice, dim=3, inputs=[a], device="cpu")
    return a.numpy().tolist()
"""

_BOUND_CASES = """
import unittest

from boundpkg import solver


class TestTwice(unittest.TestCase):
    def test_twice(self):
        self.assertEqual(solver.run(), [2.0, 4.0, 6.0])
"""


@pytest.mark.slow
def test_a_package_that_binds_warps_launch_at_import_is_captured_in_forked_jobs(tmp_path: Path) -> None:
    """The fork server imports the targets before any job: the launch hook must be in place by then, or a
    launch through a name the package bound at import (`from warp import launch`) is never recorded."""
    package = tmp_path / "boundpkg"
    package.mkdir()
    (package / "__init__.py").write_text("from boundpkg import solver  # noqa: F401\n")
    (package / "solver.py").write_text(_BOUND_SOLVER)
    (package / "cases.py").write_text(_BOUND_CASES)
    target = keys.resolve(str(package))
    job = jobs.Job("boundpkg", "cases.py", "unittest", "boundpkg.cases", (), 240)
    result = jobs.run_job(job, [target], kernel_cache=tmp_path / "kernels", fork=True)
    assert result.status == "ok", result.detail
    assert [meta["warp_key"] for meta, data in result.launches if data is not None] == ["twice"]


@pytest.mark.slow
def test_a_job_whose_fork_server_died_runs_all_the_same(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that ended (killed, or idle past `forkserver.IDLE_S`) is started again; one that dies as it
    is handed a job leaves that job to a fresh interpreter."""
    target = keys.resolve(str(FIXTURE))
    job = jobs.Job("capfix", "unit_cases.py", "unittest", "capfix.unit_cases", (), 240)
    kernels = tmp_path / "kernels"
    first = jobs.run_job(job, [target], kernel_cache=kernels, fork=True)
    key = jobs._server_key([target], False, kernels)
    dead = jobs._servers[key]
    os.kill(dead.proc.pid, 9)
    dead.proc.wait()
    again = jobs.run_job(job, [target], kernel_cache=kernels, fork=True)  # a new server
    assert jobs._servers[key] is not dead and (again.status, _launches(again)) == (first.status, _launches(first))
    dead = jobs._servers[key]
    os.kill(dead.proc.pid, 9)
    dead.proc.wait()
    monkeypatch.setattr(forkserver.ForkServer, "alive", lambda self: True)  # dies between the check and the job
    fresh = jobs.run_job(job, [target], kernel_cache=kernels, fork=True)
    assert key not in jobs._servers and (fresh.status, _launches(fresh)) == (first.status, _launches(first))


@pytest.mark.slow
def test_a_process_keeps_at_most_max_servers_fork_servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each server holds its imports (~250 MB with newton's); one more than `MAX_SERVERS` stops the oldest."""
    monkeypatch.setattr(jobs, "MAX_SERVERS", 1)
    target = keys.resolve(str(FIXTURE))
    job = jobs.Job("capfix", "unit_cases.py", "unittest", "capfix.unit_cases", (), 240)
    jobs.run_job(job, [target], kernel_cache=tmp_path / "first", fork=True)
    first = jobs._servers[jobs._server_key([target], False, tmp_path / "first")]
    result = jobs.run_job(job, [target], kernel_cache=tmp_path / "second", fork=True)
    assert result.status == "failed" and "1 failures" in result.detail  # the fixture fails one test on purpose
    assert not first.alive() and list(jobs._servers) == [jobs._server_key([target], False, tmp_path / "second")]


def test_jobs_are_ordered_by_the_kernels_they_reach(tmp_path: Path) -> None:
    from warp_cuda_ir.capture import plan

    target = keys.resolve(str(FIXTURE))
    # the script itself (it launches) and `from capfix import kernels as k`: a module named below the package
    reached = plan.reach(FIXTURE / "example_run.py", [target])
    assert reached == {str((FIXTURE / name).resolve()) for name in ("example_run.py", "kernels.py")}
    lone = tmp_path / "example_lone.py"
    lone.write_text("import warp as wp\n\n@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[0] = 1.0\n")
    none = tmp_path / "example_none.py"
    none.write_text("import capfix\n")  # the whole package: reaches nothing in particular
    made = [jobs.Job("capfix", p.name, "path", str(p)) for p in (none, lone, FIXTURE / "example_run.py")]
    ordered = [j.name for j in plan.order(made, [target])]
    assert ordered == ["example_run.py", "example_lone.py", "example_none.py"]
    # With the harvest's records per file, those counts decide (here the lone file holds the most kernels).
    records = [{"package": "capfix", "file": "kernels.py"}] * 3  # `file` is relative to the target's base
    counts = {**plan.kernels_per_file(records, [target]), str(lone.resolve()): 5}
    assert counts[str((FIXTURE / "kernels.py").resolve())] == 3
    ordered = [j.name for j in plan.order(made, [target], counts)]
    assert ordered == ["example_lone.py", "example_run.py", "example_none.py"]


class _Captured:
    def __init__(self, records):
        self.records = records

    def record_for(self, harvest_record):
        return keys.match(self.records, harvest_record)


def test_launch_columns_and_validation_hook(tmp_path: Path) -> None:
    from warp_cuda_ir.capture import columns

    data = _capture(SOURCE, _step_args)
    meta = record.unpack(data).meta
    records = {
        "p|a.py|1|step||-|step": (meta, data),
        "p|a.py|9|refused||-|refused": (
            {"kernel": "p|a.py|9|refused||-", "reason": "argument 'm': uint64 value"},
            None,
        ),
    }
    base = {"package": "p", "source": SOURCE, "kernel_name": "step"}
    cache = columns.ReplayCache(tmp_path / "cache")
    got = columns.launch_columns({**base, "ident": "0|a.py|1|step||-"}, _Captured(records), cache)
    assert got["launch_replay"] == "equal" and got["launch_record"] == data and got["launch_dim"] == [6]
    assert len([p for p in (tmp_path / "cache").rglob("*") if p.is_file()]) == 1  # the verdict is cached
    assert columns.launch_columns({**base, "ident": "0|a.py|1|step||-"}, _Captured(records), cache) == got
    refused = columns.launch_columns(
        {**base, "ident": "0|a.py|9|refused||-", "kernel_name": "refused"}, _Captured(records)
    )
    assert refused == {
        "launch_record": None,
        "launch_replay": "not replayable",
        "launch_replay_detail": "argument 'm': uint64 value",
    }
    assert columns.launch_columns({**base, "ident": "0|b.py|1|x||-"}, _Captured(records))["launch_replay"] == (
        "not launched"
    )
    assert columns.launch_columns({**base, "ident": "0|a.py|1|step||-"}, None)["launch_record"] is None

    with warp_session.loaded_kernel(SOURCE, "step") as (kernel, namespace):
        launch = columns.launch_from_record(data, kernel, namespace, "cpu", requires_grad=True)
        assert [(a["name"], a["kind"], a["role"]) for a in launch.arguments] == [
            ("body", "struct", "in"),
            ("x", "array", "inout"),
            ("v", "array", "inout"),
            ("q", "scalar", "in"),
            ("m", "scalar", "in"),
            ("n", "scalar", "in"),
            ("dt", "scalar", "in"),
            ("unused", "none", "in"),
            ("same", "array", "inout"),
        ]
        assert launch.inputs[1].requires_grad and launch.inputs[8] is launch.inputs[1]
        wp.launch(kernel, dim=launch.dim, inputs=launch.inputs, device="cpu")
        np.testing.assert_array_equal(launch.inputs[1].numpy(), record.unpack(data).after["1"])


def test_validation_runs_a_row_from_its_launch_record() -> None:
    from warp_cuda_ir.validation.execute import run_cpu

    data = _capture(SOURCE, _step_args)
    after = record.unpack(data).after
    signature = [
        {"name": n, "kind": "array", "dtype": None, "shape": [], "role": None, "init": None}
        for n in ("body", "x", "v", "q", "m", "n", "dt", "unused", "same")
    ]
    row = {
        "python_source": SOURCE,
        "kernel_name": "step",
        "launch_record": data,
        "launch_dim": [6],
        "block_dim": 256,
        "arguments": signature,
        "seed": None,
    }
    with warp_session.loaded_kernel(SOURCE, "step") as (kernel, namespace):
        cpu = run_cpu(row, kernel, namespace)
    assert (cpu.compile_status, cpu.run_status) == ("ok", "ok"), cpu.error
    assert sorted(cpu.results) == ["same", "v", "x"]  # the arrays passed (`unused` was None)
    np.testing.assert_array_equal(cpu.results["x"], after["1"])
    np.testing.assert_array_equal(cpu.results["v"], after["2"])
    assert cpu.digest is not None


@pytest.mark.slow
def test_build_with_capture_validates_replayable_real_rows(tmp_path: Path) -> None:
    """`--real capfix --capture`: real rows carry their launch and replay verdict, and validate like generated ones."""
    import pyarrow.parquet as pq

    from warp_cuda_ir.build import run_build
    from warp_cuda_ir.record import BuildOptions
    from warp_cuda_ir.shards import BuildSpec
    from warp_cuda_ir.validation.pipeline import PassOptions, validate_dataset

    out = tmp_path / "out"
    options = BuildOptions(
        out=out,
        spec=BuildSpec(seed=0, seeds_per_shard=8),
        target_mb=0.01,
        workers=2,
        real=(str(FIXTURE),),
        capture=True,
        cache_dir=tmp_path / "cache",
    )
    reported: list[tuple[str, str, int, int]] = []
    run_build(options, on_capture=lambda stage, job, done, total: reported.append((stage, job, done, total)))
    # One progress call per job the capture ran, counting up to the job list it planned; then the replays.
    stages = [stage for stage, *_ in reported]
    assert stages == sorted(stages) and set(stages) == {"capture", "compile", "replay", "rows"}  # in that order
    jobs_done = [(done, total) for s, _, done, total in reported if s == "capture"]
    assert [done for done, _ in jobs_done] == list(range(1, len(jobs_done) + 1)) and jobs_done
    assert {total for _, total in jobs_done} == {len(jobs_done)}
    # Replays are counted as the children finish them (several may land between two looks).
    replayed = [(done, total) for s, _, done, total in reported if s == "replay"]
    assert replayed and [d for d, _ in replayed] == sorted({d for d, _ in replayed})
    assert replayed[-1][0] == replayed[-1][1] and len({t for _, t in replayed}) == 1
    assert any(job.endswith("example_run.py") for _, job, *_ in reported)
    made = [(done, total) for s, _, done, total in reported if s == "rows"]  # then the real rows, up to all
    assert made[-1][0] == made[-1][1] and [d for d, _ in made] == sorted(d for d, _ in made)
    validate_dataset(out, PassOptions(workers=1, use_gpu=False))
    files = sorted((out / "data" / "real").glob("*.parquet"))
    rows = {r["kernel_name"]: r for p in files for r in pq.read_table(p).to_pylist()}
    # The first job with a launch of `scale` gives its record (example_crash.py: dim 4).
    assert rows["scale"]["launch_replay"] == "equal" and rows["scale"]["launch_dim"] == [4]
    assert rows["scale"]["cpu_run_status"] == "ok" and rows["scale"]["output_digest"]
    assert {a["name"]: a["role"] for a in rows["scale"]["arguments"]} == {"a": "in", "s": "in", "out": "inout"}
    scale = rows["scale"]
    assert scale["gradcheck_status"] == "ok", (scale["gradcheck_error"], scale["gradcheck_skip_reason"])
    assert rows["gather"]["launch_replay"] == "not replayable" and rows["gather"]["launch_record"] is None
    assert rows["by_id"]["launch_replay"] == "not replayable" and "mesh_query" in rows["by_id"]["launch_replay_detail"]
    # uint64 data (hash keys) replays, runs, and its CPU twin prints Warp's digest.
    hashed = rows["hash_keys"]
    assert hashed["launch_replay"] == "equal" and hashed["cpu_run_status"] == "ok" and hashed["output_digest"]
    assert hashed["standalone_cpu_matches_warp"] is True, hashed["standalone_cpu_run_error"]
    assert rows["shift"]["launch_replay"] == "differs" and rows["shift"]["launch_record"] is not None
    # Not a reference: validated as compile-only, like a real row without a launch.
    assert rows["shift"]["launch_dim"] is None and rows["shift"]["cpu_run_status"] == "skipped"
    assert all(r["launch_record"] is None or len(r["launch_record"]) <= record.MAX_RECORD_BYTES for r in rows.values())
    # A `wp.launch_tiled` launch is stored as one: the tile grid, not the CPU's grid with its block of one.
    tiled = rows["row_sums"]
    assert tiled["launch_replay"] == "equal" and tiled["launch_dim"] == [4] and tiled["launch_tiled"] is True
    assert tiled["block_dim"] == 32  # the block size the launch named (`block_dim=32`), not the module's 256
    assert tiled["cpu_run_status"] == "ok" and tiled["output_digest"]
    # The card counts the verdicts the rows carry, and says which rows run.
    from collections import Counter

    verdicts = Counter(r["launch_replay"] for p in files for r in pq.read_table(p).to_pylist())
    card = (out / "README.md").read_text()
    assert all(f"`{v}` {n:,}" in card for v, n in verdicts.items()) and "This build ran no capture" not in card
    usable = verdicts["equal"] + verdicts["close"]
    assert usable >= 7 and f"The {usable:,} rows" in card


@pytest.mark.slow
def test_readme_command_with_relative_paths_from_another_directory(tmp_path: Path) -> None:
    """`scripts/build.py --out dist/x --real kernels/capfix` typed in some folder: every path handed to a child
    (harvest workers, capture jobs, replay children, validation workers) still means that folder's path.
    Replay children run in scratch folders of their own: a relative cache path once sent their verdicts there,
    so every record came back `error` ("the replay process ended with exit code 0")."""
    import pyarrow.parquet as pq

    from tests.helpers import run_script

    shutil.copytree(FIXTURE, tmp_path / "kernels" / "capfix")
    done = run_script(
        "build",
        *("--out", "dist/warp_cuda_ir", "--real", "kernels/capfix", "--target-mb", "0.01", "--workers", "2"),
        *("--seeds-per-shard", "8", "--validate", "--no-gpu", "--no-standalone"),
        cwd=tmp_path,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = tmp_path / "dist" / "warp_cuda_ir"
    rows = [r for p in sorted((out / "data" / "real").glob("*.parquet")) for r in pq.read_table(p).to_pylist()]
    verdicts = {r["kernel_name"]: r["launch_replay"] for r in rows}
    assert verdicts["scale"] == "equal" and verdicts["shift"] == "differs", verdicts
    assert "error" not in verdicts.values(), verdicts
    scale = next(r for r in rows if r["kernel_name"] == "scale")
    assert scale["cpu_run_status"] == "ok" and scale["output_digest"]  # validated from its replayed launch
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist", "kernels"]  # nothing written elsewhere


def test_launches_deferred_by_a_cpu_graph_capture_are_not_recorded(tmp_path: Path) -> None:
    from warp_cuda_ir.capture.hook import Capture

    with warp_session.loaded_kernel(SHIFT) as (kernel, _):
        capture = Capture([], tmp_path)
        capture._key = lambda k: "k"  # any kernel counts (this source lives in no package)
        src = wp.zeros(4, dtype=float, device="cpu")
        dst = wp.zeros(4, dtype=float, device="cpu")
        token = capture.before(kernel, 4, [src, dst], "cpu", None)
        assert token is not None  # an ordinary CPU launch is recorded
        with wp.ScopedCapture(device="cpu"):
            assert capture.before(kernel, 4, [src, dst], "cpu", None) is None


def test_standalone_program_of_a_captured_row_holds_the_captured_values() -> None:
    from dataclasses import asdict

    from warp_cuda_ir import extraction, standalone

    data = _capture(
        SHIFT,
        lambda ns: [
            wp.array(np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float32), device="cpu"),
            wp.zeros(4, dtype=float, device="cpu"),
        ],
    )
    texts = extraction.extract(SHIFT, "shift", 90, 256)
    arguments = [
        {"name": n, "kind": "array", "dtype": "float32", "shape": [], "role": r, "init": None}
        for n, r in (("src", "in"), ("dst", "inout"))
    ]
    row = {
        **asdict(texts),
        "id": "r",
        "seed": None,
        "category": "p",
        "python_source": SHIFT,
        "kernel_name": "shift",
        "launch_record": data,
        "launch_dim": [4],
        "launch_tiled": False,
        "block_dim": 256,
        "arguments": arguments,
    }
    program = standalone.program_columns(row)["cpu_program"]  # a real row has no seed: the record gives values
    assert "0.5f, 1.5f, 2.5f, 3.5f" in program
    from warp_cuda_ir.standalone import program as program_text
    from warp_cuda_ir.standalone.stage import _why_not_launched

    assert program_text.launches(program)
    # Captured inputs too large to write out as literals: the program compiles the kernel and says why it
    # launches nothing (and the stage's skip reason says the same); the values stay in `launch_record`.
    n = standalone.MAX_PROGRAM_VALUES + 1  # src's values alone pass the cap (dst's large seeds are computed)
    noise = np.random.default_rng(0).random(n, dtype=np.float32)  # no runs of progressions to write instead
    big = _capture(SHIFT, lambda ns: [wp.array(noise, device="cpu"), wp.zeros(n, dtype=float, device="cpu")])
    columns = standalone.program_columns({**row, "launch_record": big, "launch_dim": [n]})
    for text in (columns["cpu_program"], columns["cuda_program"]):
        assert not program_text.launches(text) and "inputs too large to write into the program" in text
        assert (
            len(text) < len(program) + 2_000 and _why_not_launched(text) == "inputs too large to write into the program"
        )


def test_a_real_row_with_a_captured_launch_is_shaped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its standalone programs embed the captured inputs, from one load of the kernel (they were made twice)."""
    from dataclasses import asdict

    from warp_cuda_ir import extraction, real, standalone
    from warp_cuda_ir.standalone import program as program_text

    data = _capture(
        SHIFT,
        lambda ns: [
            wp.array(np.array([0.5, 1.5, 2.5, 3.5], dtype=np.float32), device="cpu"),
            wp.zeros(4, dtype=float, device="cpu"),
        ],
    )
    texts = asdict(extraction.extract(SHIFT, "shift", 90, 256))
    harvested = {"texts": texts, "source": SHIFT, "package": "p", "file": "p/k.py", "line": 3, "upstream_source": SHIFT}
    captured = {"launch_record": data, "launch_replay": "equal", "launch_replay_detail": None, "launch_dim": [4]}
    loads: list[str] = []
    load = warp_session.load_kernel
    monkeypatch.setattr(warp_session, "load_kernel", lambda src, name=None: loads.append(name) or load(src, name))
    made: list[dict] = []
    shape = standalone.program_columns
    monkeypatch.setattr(standalone, "program_columns", lambda row, *a: made.append(row["id"]) or shape(row, *a))
    row = real.row_for_record({**harvested, "block_dim": 256}, {**captured, "launch_tiled": False})
    assert loads == ["shift"] and len(made) == 1
    assert program_text.launches(row["cpu_program"]) and "0.5f, 1.5f, 2.5f, 3.5f" in row["cpu_program"]
    assert {a["name"]: a["role"] for a in row["arguments"]} == {"src": "in", "dst": "inout"}


BLOCK_SUMS = """
import warp as wp

@wp.kernel
def block_sums(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 2.0
    t = wp.tile(x)
    wp.tile_atomic_add(out, wp.tile_sum(t))
"""


def test_a_launch_that_names_its_block_size_gives_the_row_code_for_it() -> None:
    """`wp.launch(..., block_dim=8)`: Warp built the module for blocks of 8 threads, and `wp.tile(x)` holds one
    value per thread, so the row's CUDA code and its programs are those of blocks of 8 (the harvest generated
    it for the module's 256). A kernel without tiles keeps its code; a block size of 1 is the CPU's."""
    from dataclasses import asdict

    from warp_cuda_ir import extraction, real

    def row_for(source: str, name: str, block_dim: int) -> dict:
        data = _capture(source, lambda ns: [wp.zeros(8, dtype=float, device="cpu") for _ in range(2)])
        texts = asdict(extraction.extract(source, name, 90, 256))
        harvested = {"texts": texts, "source": source, "package": "p", "file": "p/k.py", "line": 3}
        captured = {"launch_record": data, "launch_replay": "equal", "launch_replay_detail": None}
        return real.row_for_record(
            {**harvested, "upstream_source": source, "block_dim": 256},
            {**captured, "launch_dim": [8], "launch_tiled": False, "block_dim": block_dim},
        )

    row = row_for(BLOCK_SUMS, "block_sums", 8)
    at_8 = extraction.extract(BLOCK_SUMS, "block_sums", 90, 8)
    assert row["block_dim"] == 8 and row["cuda_forward"] == at_8.cuda_forward and row["cuda_backward"]
    assert "tile_shape_t<8>" in row["cuda_forward"] and "tile_shape_t<256>" not in row["cuda_forward"]
    assert "#define WP_TILE_BLOCK_DIM 8\n" in row["cuda_program"] and "<<<1, 8, wp_smem>>>" in row["cuda_program"]
    plain = row_for(SHIFT, "shift", 8)
    assert plain["block_dim"] == 8 and plain["cuda_forward"] == extraction.extract(SHIFT, "shift", 90, 256).cuda_forward


def test_a_block_size_is_taken_from_the_launch_only_where_it_names_one() -> None:
    """`launch_columns`: a tiled launch's block size (the CPU ran each tile with one thread), a plain launch's
    `block_dim=`, and none where the launch asked for the CPU's block of one."""
    from warp_cuda_ir.capture import columns

    class Found:
        def __init__(self, meta: dict) -> None:
            self.meta = meta

        def record_for(self, harvested: dict) -> tuple[dict, bytes]:
            return self.meta, b"record"

    class Verdicts:
        def verdict(self, *args: object) -> SimpleNamespace:
            return SimpleNamespace(verdict="equal", detail=None)

    harvested = {"source": SHIFT, "kernel_name": "shift"}
    for meta, expected in (
        ({"dim": [4, 1], "block_dim": 1, "tile_block_dim": 32}, 32),
        ({"dim": [16], "block_dim": 8}, 8),
        ({"dim": [16, 1], "block_dim": 1}, None),
        ({"dim": [16], "block_dim": None}, None),
    ):
        got = columns.launch_columns(harvested, Found(meta), Verdicts())
        assert got.get("block_dim") == expected, (meta, got)


def _captured_row(source: str, kernel_name: str, make_args, dim: int | None = None) -> dict:
    """A real row (`real.row_for_record`) whose captured launch is `make_args`' on the CPU."""
    from dataclasses import asdict

    from warp_cuda_ir import extraction, real

    data = _capture(source, make_args, dim)
    texts = asdict(extraction.extract(source, kernel_name, 90, 256))
    harvested = {"texts": texts, "source": source, "package": "p", "file": "p/k.py", "line": 3}
    captured = {"launch_record": data, "launch_replay": "equal", "launch_replay_detail": None}
    dim = record.unpack(data).meta["dim"]
    return real.row_for_record(
        {**harvested, "upstream_source": source, "block_dim": 256},
        {**captured, "launch_dim": dim, "launch_tiled": False},
    )


def test_programs_of_a_captured_row_hold_its_scalars_structs_and_arrays() -> None:
    """Scalars (int, float, quat, mat22; the captured arguments name no dtype), a struct holding an array, an
    array passed as None and one passed twice: the programs launch the kernel on copies of all of them."""
    from warp_cuda_ir.standalone import program as program_text

    row = _captured_row(SOURCE, "step", _step_args)
    for target in ("cpu", "cuda"):
        text = row[f"{target}_program"]
        assert program_text.launches(text), text[text.find("int main") :][:200]
    cpu, cuda = row["cpu_program"], row["cuda_program"]
    assert "static const int32_t wp_in_n[1] = {\n    3\n};" in cpu
    # The struct's bytes hold no pointer into the capturing process: its array points at the program's copy.
    assert "args.body.mass = T_body__mass((wp_elem<T_body__mass>*)p_body__mass, 6);" in cpu
    assert "a_body.mass = T_body__mass((wp_elem<T_body__mass>*)d_body__mass, 6);" in cuda
    assert "void* p_same = p_x;" in cpu and "void* d_same = d_x;" in cuda  # one array, passed twice


# A struct holding the arrays the kernel writes (newton's contact matching passes its state this way), with
# 64-bit integer atomics on one of them.
CONTACTS = """
import warp as wp

@wp.struct
class Contacts:
    keys: wp.array(dtype=wp.int64)
    count: wp.array(dtype=wp.int32)
    pos: wp.array(dtype=wp.vec3)
    scale: float

@wp.kernel
def save(data: Contacts, first: wp.array(dtype=wp.int64)):
    i = wp.tid()
    data.pos[i] = data.pos[i] * data.scale
    wp.atomic_add(data.count, 0, 1)
    wp.atomic_min(first, 0, data.keys[i])
    wp.atomic_max(data.keys, 0, wp.int64(i))
"""


def _contacts_args(ns):
    data = ns["Contacts"]()
    data.keys = wp.array(np.array([-3, 9, 4, 2], dtype=np.int64), dtype=wp.int64, device="cpu")
    data.count = wp.zeros(1, dtype=wp.int32, device="cpu")
    data.pos = wp.array(np.arange(12, dtype=np.float32).reshape(4, 3), dtype=wp.vec3, device="cpu")
    data.scale = 0.5
    return [data, wp.array(np.array([7], dtype=np.int64), dtype=wp.int64, device="cpu")]


# An output the kernel writes only in part, captured from memory holding a NaN other than C's `NAN` (mujoco-warp's
# scratch arrays from `wp.empty`): the bytes left in place are part of the digest.
KEEP = """
import warp as wp

@wp.kernel
def keep(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    if x[i] > 0.0:
        y[i] = x[i]
"""


def _keep_args(ns):
    y = np.array([0xFFFFFFFF, 0x7FC00001, 0xFFFFF000], dtype=np.uint32).view(np.float32)
    return [wp.array(np.array([1.0, -1.0, 2.0], dtype=np.float32), device="cpu"), wp.array(y, device="cpu")]


# float64 -0.0: written "-0", an int, it became +0.0 (warp-lang's copysign test then printed another sign).
SIGN = """
import warp as wp

@wp.kernel
def sign(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i] = wp.copysign(x[i], y[i])
"""


FIELD = """
import warp as wp

@wp.kernel
def fill(scale: wp.array(dtype=float), field: wp.array(dtype=float), wide: wp.array(dtype=wp.float64)):
    i = wp.tid()
    field[i] = scale[0] * float(i % 7) + scale[1]
    wide[i % 5000] = wp.float64(scale[1]) * wp.float64(2.0)
"""


def _field_args(ns):
    """A 70,000-value float32 field and a 5,000-value float64 array, written: their adjoint seeds are more than
    a program lists as literals (`values.SEED_LITERALS_AT_MOST`); `scale`'s adjoint sums them."""
    return [
        wp.array(np.array([0.5, -1.25], dtype=np.float32), dtype=float, device="cpu"),
        wp.zeros(70_000, dtype=float, device="cpu"),
        wp.zeros(5_000, dtype=wp.float64, device="cpu"),
    ]


CELLS = """
import warp as wp

@wp.kernel
def corners(cells: wp.array(dtype=wp.vec3i), offsets: wp.array(dtype=wp.int32), scale: wp.array(dtype=float),
            out: wp.array(dtype=float)):
    i = wp.tid()
    c = cells[i]
    out[i] = float(c[0] * 1024 + c[1] * 32 + c[2] + offsets[i]) * scale[i]
"""


def _cells_args(ns):
    """Over the cap on literals as lists (131,072 + 32,768), not as runs of progressions: a dense grid's cells
    (one progression per component), prefix-sum-like offsets, a float array of one value with a NaN of its own
    payload and a -0.0 among it (the runs hold the bits)."""
    n = 32 * 32 * 32
    i = np.arange(n, dtype=np.int32)
    cells = np.stack([i // 1024, (i // 32) % 32, i % 32], axis=1)
    scale = np.full(n, 0.5, dtype=np.float32)
    scale[[5, 77]] = (np.uint32(0x7FC12345).view(np.float32), -0.0)
    return [
        wp.array(cells, dtype=wp.vec3i, device="cpu"),
        wp.array(i // 7 * 2, dtype=wp.int32, device="cpu"),
        wp.array(scale, dtype=float, device="cpu"),
        wp.zeros(n, dtype=float, device="cpu"),
    ]


SPREAD = """
import warp as wp

@wp.kernel
def spread(v: wp.vec3, t: wp.transform, out: wp.array(dtype=float)):
    out[0] = v[0] + 2.0 * v[1] + 4.0 * v[2]
    out[1] = t[0] + t[6]
"""


def _spread_args(ns):
    """A numpy Boolean for a vector and a transform parameter (as warp-lang's `test_launch` passes): Warp fills
    every component with it, as 1.0."""
    import warnings

    warnings.simplefilter("ignore", DeprecationWarning)  # Warp's notice that this promotion is deprecated
    return [np.bool_(True), np.bool_(True), wp.zeros(2, dtype=float, device="cpu")]


def _sign_args(ns):
    x, y = np.array([1.0, 2.0]), np.array([-0.0, 0.0])
    return [
        wp.array(x, dtype=wp.float64, device="cpu"),
        wp.array(y, dtype=wp.float64, device="cpu"),
        wp.zeros(2, dtype=wp.float64, device="cpu"),
    ]


# A captured launch in which no thread passes the guard (newton's `_resolve_claims_kernel` with no new contacts):
# it writes no array, and its digest was empty, so a twin printing nothing "matched" whatever it computed.
GUARD = """
import warp as wp

@wp.kernel
def guard(count: wp.array(dtype=wp.int32), flags: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if i >= count[0]:
        return
    flags[i] = 1
"""


def _guard_args(ns):
    return [wp.zeros(1, dtype=wp.int32, device="cpu"), wp.array(np.array([0, 5, 0], dtype=np.int32), device="cpu")]


def test_zeros_count_nothing_against_the_programs_cap_on_values() -> None:
    """An all-zero array is calloc'd, not written out: newton's `_zero_active_count_kernel` (262,145 zeros) got a
    program that launched nothing, "inputs too large to write into the program", for no text at all."""
    from warp_cuda_ir import standalone
    from warp_cuda_ir.standalone import program as program_text

    n = standalone.MAX_PROGRAM_VALUES + 1
    zeros = _captured_row(
        GUARD,
        "guard",
        lambda ns: [wp.zeros(1, dtype=wp.int32, device="cpu"), wp.zeros(n, dtype=wp.int32, device="cpu")],
        3,
    )
    assert program_text.launches(zeros["cpu_program"]) and program_text.launches(zeros["cuda_program"])
    noise = np.random.default_rng(0).integers(1, 1 << 30, n, dtype=np.int32)  # no runs of progressions either
    read = GUARD.replace("flags[i] = 1", "flags[i] = flags[i] + 1")  # its values matter: they stay too many
    dense = _captured_row(
        read,
        "guard",
        lambda ns: [wp.zeros(1, dtype=wp.int32, device="cpu"), wp.array(noise, dtype=wp.int32, device="cpu")],
        3,
    )
    assert not program_text.launches(dense["cpu_program"])


def test_which_arrays_a_kernel_never_reads() -> None:
    from warp_cuda_ir.standalone import unread_arrays

    def unread(source: str, name: str) -> set[str]:
        return set(unread_arrays({"python_source": source, "kernel_name": name}))

    assert unread(GUARD, "guard") == {"flags"} and unread(SHIFT, "shift") == {"dst"}
    assert unread(SHIFT.replace("dst[i] = src[i]", "dst[i] = dst.shape[0] * src[i]"), "shift") == {"dst"}
    for reads in ("dst[i] += src[i]", "dst[i] = dst[i] + src[i]", "wp.atomic_add(dst, i, src[i])"):
        assert unread(SHIFT.replace("dst[i] = src[i] + 1.0", reads), "shift") == set(), reads
    assert unread(SHIFT, "other") == set() and unread("def broken(:", "shift") == set()


BROADCAST = """
import warp as wp

@wp.kernel
def spread(a: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = 2.0 * a[0]
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
def test_an_input_every_thread_reads_gets_an_adjoint_the_digest_can_see(tmp_path: Path) -> None:
    """A large output's seeds are computed, not listed; centred on zero, they summed to exactly 0 over every 64, so
    the adjoint of `a[0]`, read by every thread, printed 0 whatever the backward did (warp-lang's
    `sphere_corner_values_kernel`: `adjoint radius 1 ... 0 0 0`)."""

    n = 8192  # seeds by formula, a whole number of their periods
    row = _captured_row(
        BROADCAST,
        "spread",
        lambda ns: [wp.array([1.5], dtype=float, device="cpu"), wp.zeros(n, dtype=float, device="cpu")],
        n,
    )
    expected = _warp_reference(BROADCAST, "spread", row, backward=True)
    adjoint = next(line for line in expected if line.startswith("adjoint a "))
    assert float(adjoint.split()[4]) != 0.0, adjoint
    columns = _twin_columns(row, expected, tmp_path)
    assert columns["standalone_cpu_run_status"] == "ok", columns["standalone_cpu_run_error"]
    assert columns["standalone_cpu_matches_warp"] is True


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
def test_an_output_the_kernel_only_writes_starts_zeroed_when_its_captured_values_do_not_fit(tmp_path: Path) -> None:
    """warp-lang's `sphere_corner_values_kernel` held 262,144 captured floats in `out`, which it only writes: its
    programs launched nothing ("inputs too large"). Such an array now starts zeroed in the programs and in Warp's
    reference launch alike, so the twin prints the reference, the elements left unwritten included."""
    from warp_cuda_ir import standalone
    from warp_cuda_ir.standalone import program as program_text
    from warp_cuda_ir.standalone.digest import digest_line

    n = standalone.MAX_PROGRAM_VALUES + 1
    noise = np.random.default_rng(0).integers(1, 1 << 30, n, dtype=np.int32)
    row = _captured_row(
        GUARD,
        "guard",
        lambda ns: [wp.array([5], dtype=wp.int32, device="cpu"), wp.array(noise, dtype=wp.int32, device="cpu")],
        n,
    )
    assert program_text.launches(row["cpu_program"]) and program_text.launches(row["cuda_program"])
    assert "`flags` starts zeroed" in row["cpu_program"] and len(row["cpu_program"]) < 100_000
    expected = _warp_reference(GUARD, "guard", row, backward=False)
    flags = np.zeros(n, dtype=np.int32)
    flags[:5] = 1
    assert expected == [digest_line("output", "flags", flags)]
    columns = _twin_columns(row, expected, tmp_path)
    assert columns["standalone_cpu_run_status"] == "ok", columns["standalone_cpu_run_error"]
    assert columns["standalone_cpu_matches_warp"] is True


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
@pytest.mark.parametrize(
    ("source", "kernel_name", "make_args", "dim", "outputs"),
    [
        (SOURCE, "step", _step_args, None, ["x", "v", "same"]),
        (CONTACTS, "save", _contacts_args, 4, ["data.keys", "data.count", "data.pos", "first"]),
        (KEEP, "keep", _keep_args, 3, ["y"]),
        (SIGN, "sign", _sign_args, 2, ["out"]),
        (GUARD, "guard", _guard_args, 3, ["count", "flags"]),
        (FIELD, "fill", _field_args, 70_000, ["field", "wide"]),
        (SPREAD, "spread", _spread_args, 1, ["out"]),
        (CELLS, "corners", _cells_args, 32 * 32 * 32, ["out"]),
    ],
    ids=[
        "step",
        "contacts",
        "nan-bits",
        "float64-negative-zero",
        "writes-nothing",
        "seeds-by-formula",
        "scalar-for-vector",
        "inputs-as-runs",
    ],
)
def test_cpu_twin_of_a_captured_row_prints_warps_digests(
    source: str, kernel_name: str, make_args, dim: int | None, outputs: list[str], tmp_path: Path
) -> None:
    """The real row's CPU twin, built by its own Makefile, prints the lines of Warp's CPU launch of the record
    (it crashed on a struct's array: the struct's bytes held a pointer into the capturing process), the arrays
    a struct holds that the launch wrote among the outputs."""
    from tests.helpers import cpu_twin_lines
    from warp_cuda_ir.standalone import program as program_text
    from warp_cuda_ir.standalone.reference import reference_run

    row = _captured_row(source, kernel_name, make_args, dim)
    with warp_session.loaded_kernel(source, kernel_name, backward=True) as (kernel, namespace):
        _, expected = reference_run(row, kernel, namespace)
    assert [line.split()[1] for line in expected if line.startswith("output ")] == outputs
    if kernel_name == "fill":  # 75,000 seeds: over the literal cap, so the program computes them
        assert "wp_seed_field" not in row["cpu_program"] and "wp_seed_wide" not in row["cpu_program"]
        assert "for (size_t i = 0; i < 70000; ++i) ((float*)g_field)[i] = (float)(" in row["cpu_program"]
        assert "for (size_t i = 0; i < 5000; ++i) ((double*)g_wide)[i] = (double)(" in row["cpu_program"]
        assert any(line.startswith("adjoint scale ") for line in expected)
    if kernel_name == "corners":  # over the cap as lists: the inputs are written as runs and expanded
        assert program_text.launches(row["cpu_program"]) and program_text.launches(row["cuda_program"])
        assert all(f"wp_runs_{name}[" in row["cpu_program"] for name in ("cells", "offsets", "scale"))
        found = {name for _, name, _ in program_text.INPUT_DATA.findall(row["cpu_program"])}  # what candidates see
        assert found == {"cells", "offsets", "scale"}
    assert cpu_twin_lines(row, tmp_path / "row") == expected


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
def test_cuda_program_with_64_bit_integer_atomics_compiles_with_nvcc(tmp_path: Path) -> None:
    """nvcc sees int64 as `long`, for which CUDA has no atomicMin (NVRTC sees `long long`): the program says how."""
    import subprocess

    row = _captured_row(CONTACTS, "save", _contacts_args, 4)
    (tmp_path / "program.cu").write_text(row["cuda_program"])
    (tmp_path / "Makefile").write_text(row["makefile"])
    done = subprocess.run(["make", "-s", "cuda"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
def test_cuda_program_computing_its_adjoint_seeds_compiles_with_nvcc(tmp_path: Path) -> None:
    import subprocess

    row = _captured_row(FIELD, "fill", _field_args, 70_000)
    assert "for (size_t i = 0; i < 70000; ++i) ((float*)g_field)[i] = (float)(" in row["cuda_program"]
    (tmp_path / "program.cu").write_text(row["cuda_program"])
    (tmp_path / "Makefile").write_text(row["makefile"])
    done = subprocess.run(["make", "-s", "cuda"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


def test_capture_is_on_by_default_and_the_job_count_is_part_of_the_build_identity() -> None:
    import importlib.util

    from warp_cuda_ir.capture import DEFAULT_CAPTURE_JOBS
    from warp_cuda_ir.record import BuildOptions

    spec = importlib.util.spec_from_file_location("build_script", Path(__file__).parents[1] / "scripts" / "build.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    default = script.parse_args([])
    assert default.capture is True and default.capture_jobs == DEFAULT_CAPTURE_JOBS
    assert script.parse_args(["--capture"]).capture is True
    assert script.parse_args(["--no-capture"]).capture is False
    assert script.parse_args(["--capture-jobs", "7"]).capture_jobs == 7

    def identity(**kw):
        return BuildOptions(out=Path("x"), real=("newton",), **kw).identity()

    assert identity(capture=True, capture_jobs=7) != identity(capture=True, capture_jobs=8)
    assert "capture" not in identity(capture=False, capture_jobs=7)  # --no-capture: builds as before
    assert "capture" not in BuildOptions(out=Path("x"), capture=True).identity()  # --real none: nothing to capture


# A kernel of a module in Warp's deterministic mode (warp-lang's tests use it): its CUDA kernels take Warp's
# deterministic launch parameters after their own.
DETERMINISTIC = """
import warp as wp

@wp.kernel(module="unique", module_options={"deterministic": wp.DeterministicMode.RUN_TO_RUN})
def gather(x: wp.array(dtype=float), p: wp.array(dtype=wp.vec3), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, x[i] * 2.0 + p[i][1])
"""


def _gather_args(ns):
    x = wp.array(np.arange(4, dtype=np.float32), device="cpu")
    return [x, wp.ones(4, dtype=wp.vec3, device="cpu"), wp.zeros(1, dtype=float, device="cpu")]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")
def test_cuda_program_of_a_deterministic_kernel_passes_warps_launch_parameters(tmp_path: Path) -> None:
    """nvcc rejected the launch of a deterministic-mode kernel ("too few arguments in function call"): the
    program passes the phase, flags and null buffers Warp's CPU kernels declare for themselves."""
    import subprocess

    row = _captured_row(DETERMINISTIC, "gather", _gather_args, 4)
    assert "int _wp_det_phase" in row["cuda_forward"]
    assert "wp::det_scatter_buf_t<wp::vec_t<3, wp::float32>>" in row["cuda_backward"]  # a comma in its type
    assert "(dim, a_x, a_p, a_total, 1, 0, nullptr, {}" in row["cuda_program"]
    (tmp_path / "program.cu").write_text(row["cuda_program"])
    (tmp_path / "Makefile").write_text(row["makefile"])
    done = subprocess.run(["make", "-s", "cuda"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]


# One array passed as both arguments (mujoco-warp's `_next_position` integrates qpos in place: qpos_out is qpos_in).
IN_PLACE = """
import warp as wp

@wp.kernel
def twice(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * 2.0
"""


def test_gradient_check_of_an_array_passed_twice_weighs_it_once() -> None:
    """The loss weighed the array under both names while the backward took one name's seed (a dict keyed by the
    array): a correct in-place kernel was judged wrong_adjoint."""
    from warp_cuda_ir.validation import gradients

    def args(ns):
        x = wp.array(np.array([0.5, 1.5, -2.0], dtype=np.float32), device="cpu")
        return [x, x]

    row = _captured_row(IN_PLACE, "twice", args, 3)
    result = gradients.check(row)
    assert (result.status, result.inputs) == ("ok", ["x"]), result


def test_a_launch_that_overwrites_an_array_passed_twice_flags_the_adjoint() -> None:
    """`y[i] = x[i] * x[i]` with y the same array as x: Warp's backward replays the read of x[i] after the forward
    overwrote it (the adjoint is 2 * x**2 * w, not 2 * x * w), and no reading of the source can tell."""
    from warp_cuda_ir.validation import gradients

    square = IN_PLACE.replace("x[i] * 2.0", "x[i] * x[i]")

    def args(ns):
        x = wp.array(np.array([0.5, 1.5, -2.0], dtype=np.float32), device="cpu")
        return [x, x]

    row = _captured_row(square, "twice", args, 3)
    assert row["adjoint_hazards"] == ["aliased_overwrite:y"]
    assert gradients.check(row).status == "wrong_adjoint"

    def apart(ns):
        return [wp.ones(3, dtype=float, device="cpu"), wp.zeros(3, dtype=float, device="cpu")]

    assert _captured_row(square, "twice", apart, 3)["adjoint_hazards"] == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
@pytest.mark.parametrize(
    ("counter", "why"), [("wp.float32", "BACKWARD_DID_NOT_END"), ("wp.int32", "SILENT_BACKWARD_DID_NOT_END")]
)
def test_a_twin_whose_backward_does_not_end_says_its_forward_matched(
    counter: str, why: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A bare timeout said nothing of where the twin stopped; its forward's lines are read back (stdout line
    buffered) and the reason says they equal Warp's and the backward launch did not end (an integer counter:
    Warp's digest has no adjoint line, and the twin printed all of it)."""
    from warp_cuda_ir import real
    from warp_cuda_ir.standalone import stage

    source = SPINLOCK.replace("import warp as wp\n", f"import warp as wp\n\nCOUNTER = {counter}\n", 1)
    dtype = wp.float32 if counter == "wp.float32" else wp.int32

    def args(ns):
        return [wp.zeros(1, dtype=dtype, device="cpu"), wp.zeros(1, dtype=wp.int32, device="cpu")]

    # A spin wait the `spin_wait` flag would not see: the programs then launch the backward, as they did before
    # the flag left it out.
    monkeypatch.setattr(real.adjoint_hazards, "adjoint_hazards", lambda source, max_unroll=None, tree=None: [])
    row = _captured_row(source, "count", args, 4)
    assert "_cpu_backward(" in row["cpu_program"].split("int main")[1]
    expected = _warp_reference(source, "count", row, backward=True)
    assert any(line.startswith("adjoint ") for line in expected) == (counter == "wp.float32")
    monkeypatch.setattr(stage, "RUN_TIMEOUT_S", 3.0)
    columns = _twin_columns(row, expected, tmp_path)
    assert columns["standalone_cpu_run_status"] == "timeout"
    assert columns["standalone_cpu_run_error"].endswith(getattr(stage, why)), columns["standalone_cpu_run_error"]


SLOT = """
import warp as wp

@wp.kernel
def count(counter: wp.array(dtype=wp.int32), a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    slot = wp.atomic_add(counter, 0, 1)
    b[slot] = 2.0 * a[i]
"""


# Its backward adds a[k]'s adjoint at a[k + 1], and the last one past the array (`index_ahead`).
INDEX_AHEAD = """
import warp as wp

@wp.kernel
def count(n: int, a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    k = int(0)
    while k < n:
        s += a[k] * a[k]
        k += 1
    b[i] = s
"""


def _index_args(ns):
    return [4, wp.array(np.arange(4, dtype=np.float32), device="cpu"), wp.zeros(4, dtype=float, device="cpu")]


def _spin_args(ns):
    return [wp.zeros(1, dtype=wp.float32, device="cpu"), wp.zeros(1, dtype=wp.int32, device="cpu")]


def _slot_args(ns):
    a = wp.array(np.arange(4, dtype=np.float32), device="cpu")
    return [wp.zeros(1, dtype=wp.int32, device="cpu"), a, wp.zeros(4, dtype=float, device="cpu")]


SPIN_FLOAT = SPINLOCK.replace("import warp as wp\n", "import warp as wp\n\nCOUNTER = wp.float32\n", 1)
SPIN_NAMED = SPIN_FLOAT.replace(
    "    while wp.atomic_cas(lock, 0, 0, 1) == 1:\n        pass\n",
    "    taken = wp.atomic_cas(lock, 0, 0, 1)\n    while taken == 1:\n        taken = wp.atomic_cas(lock, 0, 0, 1)\n",
)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
@pytest.mark.parametrize(
    ("source", "args", "flag"),
    [
        (SPIN_FLOAT, _spin_args, "spin_wait:acquire"),
        (SPIN_NAMED, _spin_args, "spin_wait:acquire"),
        (SLOT, _slot_args, "atomic_result:counter"),
        (INDEX_AHEAD, _index_args, "index_ahead:k"),
    ],
    ids=["spin_wait", "spin_wait_through_a_name", "atomic_result", "index_ahead"],
)
def test_programs_of_a_row_whose_backward_means_nothing_run_its_forward_and_the_twin_ends(
    source: str, args: Callable[[Any], list[Any]], flag: str, tmp_path: Path
) -> None:
    """A backward that replays a lock's acquire without its release never ends where threads run at once (24
    spinlock programs ran to their limit on an H200); one that reads an atomic's result it does not replay prints
    whatever memory held; one whose loop index runs ahead writes past an array. The row keeps its backward code
    and the flag; its programs launch the forward kernel only, and the twin ends printing Warp's digest, which
    leaves the backward out too."""

    row = _captured_row(source, "count", args, 4)
    assert flag in row["adjoint_hazards"]
    assert row["cuda_backward"] and row["cpu_backward"]
    for target in ("cpu", "cuda"):
        main = row[f"{target}_program"].split("int main")[1]
        kernel = "_cuda_kernel_" if target == "cuda" else "_cpu_"
        assert f"{kernel}forward" in main and f"{kernel}backward" not in main
        header = next(line for line in row[f"{target}_program"].splitlines() if "adjoint_hazards:" in line)
        assert "only the forward kernel runs" in header and flag in header, header
    expected = _warp_reference(source, "count", row, backward=False)
    assert expected and not any(line.startswith("adjoint ") for line in expected)
    columns = _twin_columns(row, expected, tmp_path)
    assert columns["standalone_cpu_run_status"] == "ok", columns["standalone_cpu_run_error"]
    assert columns["standalone_cpu_matches_warp"] is True


STRUCT_GAIN = """
import warp as wp

@wp.struct
class Gain:
    k: float

@wp.kernel
def gain(p: Gain, a: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = p.k * a[i] * a[i]
"""


def test_gradient_check_of_a_captured_struct_keeps_its_field_values() -> None:
    """A real row's struct fields have no recipe value: each was exposed as one more array argument than the launch
    record holds (newton's and warp-lang's struct kernels ended in `error`, "record has 3 arguments, kernel gain
    takes 4"); they are left as captured, as scalar parameters are. `b`, written by the launch, is `inout`."""
    from warp_cuda_ir.validation import gradients

    def args(ns):
        p = ns["Gain"]()
        p.k = 2.5
        return [p, wp.array(np.array([0.5, 1.5, -2.0], dtype=np.float32), device="cpu"), wp.zeros(3, device="cpu")]

    result = gradients.check(_captured_row(STRUCT_GAIN, "gain", args, 3))
    assert (result.status, result.inputs) == ("ok", ["a", "b"]), result


NO_ARRAY = """
import warp as wp

@wp.kernel
def same(n: int):
    wp.expect_eq(n + 0, n)
"""


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ on this machine")
def test_a_launch_with_no_array_is_compared_with_its_empty_digest(tmp_path: Path) -> None:
    """Warp's launch ran and printed no digest line (the kernel has no array: warp-lang's tests of scalars); the
    pass took the empty digest for no reference, and the twin was compared with nothing."""
    from warp_cuda_ir import standalone
    from warp_cuda_ir.standalone import stage
    from warp_cuda_ir.validation import stages

    row = _captured_row(NO_ARRAY, "same", lambda ns: [7], 1)
    digest = standalone.reference_columns(row)["standalone_reference_digest"]
    assert digest == ""
    items = [("k", row, stages.reference_lines(digest))]
    columns = stage.run_stage(items, tmp_path, stage.find_tools(), "no GPU")["k"]
    assert columns["standalone_cpu_run_status"] == "ok" and columns["standalone_cpu_matches_warp"] is True


# A folder of scripts as its users write them: a script run as `python run-me.py` launches one of the two
# kernels its factory made (their types read only by annotations), a sibling module launches nothing.
RUN_ME = """
import numpy as np
import warp as wp
from helpers import first


def make_axpy(dtype):
    @wp.kernel
    def axpy(x: wp.array(dtype=dtype), y: wp.array(dtype=dtype), a: dtype):
        i = wp.tid()
        y[i + first()] = a * x[i] + y[i]

    return axpy


axpy_f32 = make_axpy(wp.float32)
axpy_f64 = make_axpy(wp.float64)


@wp.struct
class Params:
    a: float


def make_scale(n):
    @wp.kernel
    def scale(p: Params, y: wp.array(dtype=float)):
        y[wp.tid()] = p.a * float(n)

    return scale


scale_2 = make_scale(2)

if __name__ == "__main__":
    x = wp.array(np.arange(8, dtype=np.float32), dtype=wp.float32)
    y = wp.zeros(8, dtype=wp.float32)
    wp.launch(axpy_f32, dim=8, inputs=[x, y, 2.0])
    p = Params()
    p.a = 3.0
    wp.launch(scale_2, dim=8, inputs=[p, y])
    print(y.numpy())
"""
HELPERS = """
import warp as wp


@wp.func
def first() -> int:
    return 0
"""


# A notebook-style script: it launches at its top level, with no `__main__` block.
NOTEBOOK = """
import numpy as np
import warp as wp

wp.set_module_options({"enable_backward": False})


@wp.kernel
def shift(y: wp.array(dtype=float)):
    y[wp.tid()] += 1.5


y = wp.array(np.arange(4, dtype=np.float32), device="cpu")
wp.launch(shift, dim=4, inputs=[y], device="cpu")
print(y.numpy())
"""


@pytest.mark.slow
def test_a_folder_of_scripts_runs_each_script_and_replays_only_the_kernel_it_launched(tmp_path: Path) -> None:
    from warp_cuda_ir.harvest import harvest

    folder = tmp_path / "my scripts"
    folder.mkdir()
    (folder / "run-me.py").write_text(RUN_ME)
    (folder / "helpers.py").write_text(HELPERS)
    (folder / "02 notebook.py").write_text(NOTEBOOK)
    target = keys.resolve(str(folder))
    planned = jobs.default_jobs(target)
    # helpers.py only defines (it has no __main__ block and does nothing at its top level): not run
    assert [(j.name, j.mode) for j in planned] == [("02 notebook.py", "path"), ("run-me.py", "path")]
    results = jobs.cached_capture(planned, [target], tmp_path / "cache", workers=1)
    assert [r.status for r in results] == ["ok", "ok"], [r.detail for r in results]
    best = jobs.best_records(results)
    verdicts = {}
    for rec_ in harvest([str(folder)], workers=1).records:
        _, data = keys.match(best, rec_) or (None, None)
        name = rec_["kernel_name"]
        dtype = name if name in ("scale", "shift") else "f64" if "float64" in rec_["source"] else "f32"
        verdicts[dtype] = replay.replay(rec_["source"], rec_["kernel_name"], data).verdict if data else "not launched"
    # The float64 kernel shares the float32 one's name, line and (empty) closure: only its annotations differ.
    # The struct is `__main__.Params` where the script runs and has the script's module name in the harvest.
    assert verdicts == {"f32": "equal", "f64": "not launched", "scale": "equal", "shift": "equal"}


@pytest.mark.parametrize(
    ("script", "runs"),
    [
        ("import warp as wp\nx = wp.zeros(3)\nwp.launch(k, dim=3, inputs=[x])\n", True),
        ("def main():\n    pass\n\n\nmain()\n", True),
        ("\ufeffimport warp as wp\nwp.launch(k, dim=3, inputs=[])\n", True),  # saved with a byte-order mark
        ("def simulate():\n    return 1\n\n\nresult = simulate()\n", True),
        ("for step in range(3):\n    advance(step)\n", True),
        ("with wp.ScopedDevice('cpu'):\n    run()\n", True),
        # a module of definitions is imported by the scripts that use it, not run on its own
        ("import warp as wp\nwp.init()\nwp.set_module_options({'enable_backward': False})\nN = 3\n", False),
        ("try:\n    import torch\nexcept ImportError:\n    torch = None\n", False),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from x import y\n", False),
        ("def broken(:\n", False),
    ],
)
def test_a_folder_script_is_a_capture_job_when_it_does_something_at_its_top_level(script: str, runs: bool) -> None:
    assert jobs._runs_at_top_level(script) is runs


def test_a_folder_with_an_init_file_is_still_run_script_by_script(tmp_path: Path) -> None:
    """An `__init__.py` at the top of a folder named on the command line (for pytest or an editor) does not
    make its scripts library code: each one that does something is run, not only `example*.py`."""
    folder = tmp_path / "my_sims"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "run.py").write_text("import warp as wp\n\nwp.init()\nprint(wp.zeros(3))\n")
    (folder / "helpers.py").write_text("import warp as wp\n\nN = 3\n")
    planned = jobs.default_jobs(keys.resolve(str(folder)))
    assert [(j.name, j.mode) for j in planned] == [("run.py", "path")]


@pytest.mark.slow
def test_a_recorded_launch_is_captured_when_it_runs(tmp_path: Path) -> None:
    """`cmd = wp.launch(..., record_cmd=True)` runs nothing; `cmd.launch()` does, with the recorded arguments.
    After `cmd.set_param_by_name(...)` they no longer say what runs: that launch is not recorded."""
    from warp_cuda_ir.harvest import harvest

    folder = tmp_path / "my scripts"
    folder.mkdir()
    kernel = "@wp.kernel\ndef {name}(a: wp.array(dtype=float), s: float):\n    a[wp.tid()] = a[wp.tid()] * s + 1.0\n"
    (folder / "replayed.py").write_text(
        "import warp as wp\n\n\n"
        + kernel.format(name="grow")
        + "\n\n"
        + kernel.format(name="changed")
        + "\n\na = wp.ones(4, dtype=float, device='cpu')\n"
        "cmd = wp.launch(grow, dim=4, inputs=[a, 2.0], device='cpu', record_cmd=True)\ncmd.launch()\n"
        "other = wp.launch(changed, dim=4, inputs=[a, 2.0], device='cpu', record_cmd=True)\n"
        "other.set_param_by_name('s', 3.0)\nother.launch()\n"
    )
    target = keys.resolve(str(folder))
    results = jobs.cached_capture(jobs.default_jobs(target), [target], tmp_path / "cache", workers=1)
    assert [r.status for r in results] == ["ok"], [r.detail for r in results]
    best = jobs.best_records(results)
    verdicts = {}
    for rec_ in harvest([str(folder)], workers=1).records:
        _, data = keys.match(best, rec_) or (None, None)
        verdicts[rec_["qualname"]] = replay.replay(rec_["source"], rec_["kernel_name"], data).verdict if data else None
    assert verdicts == {"grow": "equal", "changed": None}


def test_the_capture_cache_key_covers_the_launch_hook_and_zeroed_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """What reaches the recorder is decided by the wrapper of Warp's launch too: a changed wrapper is new code,
    and the machine's cached captures made without it are not reused."""
    before = jobs.code_version.__wrapped__()

    def other_hook(before: object, after: object) -> None:
        return None

    monkeypatch.setattr(warp_session, "install_launch_hook", other_hook)
    hooked = jobs.code_version.__wrapped__()
    assert hooked != before

    def other_allocation() -> None:  # what an array `wp.empty` made holds is in the record too
        return None

    monkeypatch.setattr(warp_session, "zero_new_cpu_memory", other_allocation)
    assert jobs.code_version.__wrapped__() not in (before, hooked)
