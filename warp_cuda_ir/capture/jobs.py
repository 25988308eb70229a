"""Capture jobs: run packages' own examples and tests on the CPU with the capture, cached per job.

A job is one script (an example with short settings, or one test file under pytest) run on the executor,
in its own process group, in a scratch working directory, under a limit on its CPU time (and a wall-clock
ceiling for a job that sleeps or waits). Whatever happens to it (exit 0, an error, a crash, a hang cut by a
limit), the launches that completed are kept and its outcome is one line. Each finished job is one entry of the
machine cache (`capture/`), keyed by the job's command, the package and Warp versions and this capture code: a
rerun, into any output folder, reads finished jobs back and runs only the missing ones, so a killed capture
resumes.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import hashlib
import inspect
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import warp as wp

from warp_cuda_ir import warp_session
from warp_cuda_ir.cache import Cache
from warp_cuda_ir.capture import child, forkserver, keys
from warp_cuda_ir.capture.hook import read_launch_file
from warp_cuda_ir.engines import Executor, get_executor, temp_env
from warp_cuda_ir.engines.local import kill_group, start_group

_CODE = Path(__file__).resolve().parent
DEFAULT_TIME_LIMIT_S = 90.0  # newton examples: import ~20 s + CPU compiles; a few frames fit (measured)
NEWTON_TIME_LIMIT_S = 150.0  # importing newton alone took 33 s of wall time at load 14 (5 s of CPU)
EXAMPLE_FRAMES = 3
JOB_MARGIN_S = 120.0
# A job's `time_limit` counts its CPU seconds, so a job cut at its limit records as many launches on a loaded
# machine as on an idle one: cut by wall-clock time, newton's `test_coupled_solver` got 125 CPU-s of its 180 s
# beside other work (a build from a fresh clone, load ~2.5) and the build's real rows replaying `equal` fell
# from ~2,450 to 2,369. The wall-clock ceiling, this many times the limit, cuts a job that sleeps or waits.
WALL_PER_CPU_S = 3.0
NAMESPACE = "capture"  # the machine cache's folder of finished jobs
KERNEL_NAMESPACE = "warp-kernels"  # Warp's kernel cache shared by the capture jobs


@dataclass(frozen=True)
class Job:
    package: str  # whose kernels this job is meant for (all targets' kernels are captured anyway)
    name: str  # e.g. "newton/examples/basic/example_basic_pendulum.py"
    mode: str  # path | module | pytest
    target: str
    args: tuple[str, ...] = ()
    time_limit: float = DEFAULT_TIME_LIMIT_S  # CPU seconds of the job's process (`WALL_PER_CPU_S`)
    no_backward: bool = False  # compile without adjoints (programs that never differentiate)

    @property
    def wall_limit(self) -> float:
        return self.time_limit * WALL_PER_CPU_S

    def describe(self) -> str:
        return " ".join([self.name, *self.args])


@dataclass
class JobResult:
    job: Job
    status: str  # ok | failed | timeout
    detail: str  # one line: exit code, last line of the error output, or the limit
    seconds: float
    launches: list[tuple[dict[str, Any], bytes | None]] = field(default_factory=list)
    # CPU time of the job's processes: what it costs on an idle machine, where `seconds` (wall) grows with the
    # load. NaN in results cached before it was kept.
    cpu_seconds: float = float("nan")


@functools.cache  # read once: a build keys every entry with the code it started with
def code_version() -> str:
    """Hash of the code that decides what a job records (not of this scheduling module or the replay)."""
    h = hashlib.sha256()
    files = [_CODE / name for name in ("child.py", "hook.py", "keys.py", "record.py")]
    files.append(_CODE.parent / "harvest" / "identity.py")  # a launch's kernel identity, shared with the harvest
    for path in sorted(files):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    # The wrapper of Warp's launch decides which launches reach the recorder (recorded `Launch` objects since
    # it also wraps them), and the zeroed allocations what their unwritten arrays hold; the rest of
    # `warp_session` does not, and hashing all of it would throw the machine's captures away on any change there.
    for function in (warp_session.install_launch_hook, warp_session.zero_new_cpu_memory):
        h.update(inspect.getsource(function).encode())
    return h.hexdigest()[:16]


def job_key(job: Job, targets: Sequence[keys.Target]) -> str:
    payload = {
        "job": [job.package, job.name, job.mode, job.target, list(job.args), job.time_limit, job.no_backward],
        "targets": [[t.package, t.version, t.root] for t in targets],
        "warp": wp.config.version,
        "code": code_version(),
        "limit": "cpu",  # what `time_limit` counts: a job cut at its limit got further than one cut by the clock
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:20]


# --- which jobs ------------------------------------------------------------------------------------


def _example_args(text: str) -> list[str]:
    """Short, headless, CPU settings for a script, from the options its argument parser declares."""
    args = []
    if '"--device"' in text or "create_parser(" in text:
        args += ["--device", "cpu"]
    if '"--viewer"' in text or "create_parser(" in text:
        args += ["--viewer", "null"]
    if '"--num-frames"' in text or "create_parser(" in text:
        args += ["--num-frames", str(EXAMPLE_FRAMES)]
    if '"--headless"' in text:
        args += ["--headless"]
    if '"--stage-path"' in text:
        args += ["--stage-path", "None"]
    if '"--train-iters"' in text:
        args += ["--train-iters", "2"]
    if '"--num-steps"' in text:
        args += ["--num-steps", "3"]
    if '"--quiet"' in text:
        args += ["--quiet"]
    return args


# Test files whose kernels take only arguments a record cannot hold (fabric arrays), or that test what
# a CPU-only capture cannot run (CUDA interop, ahead-of-time builds, CUDA-only features).
SKIPPED_TEST_PARTS = ("cuda", "interop", "aot")
SKIPPED_TEST_FILES = ("test_fabricarray.py",)
# Jobs of the default packages that add (almost) no `equal` replay another job does not, for their time:
# measured on the 88 jobs of the capture before this list (2,427 real rows replayed `equal`; leaving one job
# out at a time, idle 2-core machine): rows lost and seconds per job.
LOW_YIELD_JOBS = frozenset(
    {
        "warp/tests/tile/test_tile_struct.py",  # 0 rows, 7 s (its records hold structs of arrays)
        "newton/tests/test_menagerie_mujoco.py",  # 0, fails at import (4 s)
        "newton/tests/determinism/test_solver_determinism.py",  # 0, 21 s
        "warp/examples/optim/example_navier_stokes_perturbation.py",  # 0, cut at 90 s
        "newton/tests/test_collision_pipeline.py",  # 6, 95 s
        "mujoco_warp/_src/solver_test.py",  # 4, 59 s
        "warp/tests/test_cpu_block_dim.py",  # 2, 28 s (and 5 of its records replay `differs`)
        "warp/tests/test_linear_solvers.py",  # 17, cut at 180 s
        "newton/tests/test_cable.py",  # 18, cut at 180 s
        # and of the warp-lang tests after them in the plan (load ~7, cold Warp kernel cache):
        "warp/tests/fem/test_fem_integrate.py",  # 5, 84 s
        "warp/tests/test_assert.py",  # 0, 40 s
        "warp/tests/test_options.py",  # 0, 48 s
        # Then measured from empty caches (`benchmarks/README.md`, "A shorter capture"): unique `equal` rows
        # among the jobs of the plan and CPU-s at load ~8, or the limit a job was cut at (on an idle machine a
        # cut job runs to its limit). Under ~0.35 rows per second, where the cheap warp tests give ~0.5-2.
        "newton/tests/test_solver_vbd.py",  # 22, cut at 180 s
        "newton/tests/test_solver_xpbd.py",  # 13, cut at 180 s
        "newton/tests/test_tendon_capstan.py",  # 12, cut at 180 s
        "mujoco_warp/_src/flex_test.py",  # 3, cut at 90 s
        "warp/tests/test_fsai.py",  # 13, 65 s
        "newton/tests/test_body_velocity.py",  # 11, 50 s
        "newton/tests/test_speculative_contacts.py",  # 5, 36 s
        "newton/tests/kamino/test_kamino_dynamics_delassus.py",  # 12, 35 s
        "warp/tests/tile/test_tile_matmul.py",  # 10, 34 s
        "warp/tests/test_array_subclass.py",  # 6, 22 s
        "newton/tests/test_shape_contact_pairs.py",  # 4, 19 s
        "warp/tests/fem/test_fem_linalg.py",  # 4, 15 s
        "newton/tests/test_eval_fk.py",  # 1, 6 s
        "newton/tests/test_admm_contact_projection.py",  # 1, 5 s
        "newton/tests/test_menagerie_usd_mujoco.py",  # 0, 4 s
        "warp/tests/test_module_hashing.py",  # 0, 4 s
        "warp/tests/test_graph.py",  # 0, 3 s
        "warp/tests/deterministic/test_deterministic_scatter.py",  # 1, 3 s
        "warp/tests/deterministic/test_deterministic_counter.py",  # 1, 3 s
        "warp/tests/test_dense.py",  # 0, 2 s
        "warp/tests/test_verify_fp.py",  # 0, 2 s
        "warp/tests/test_apic_load_from_bytes.py",  # 0, 5 s
        "warp/tests/test_block_dim_dispatch.py",  # 0, 1 s
        # and, with those left out, the jobs the plan then put before the cheap ones that gain more:
        "newton/tests/test_implicit_mpm.py",  # 39, cut at 90 s (at 180 s before)
        "mujoco_warp/_src/determinism_test.py",  # 36, cut at 90 s
        "mujoco_warp/_src/derivative_test.py",  # 7, cut at 90 s
        "newton/tests/test_contact_reduction_global.py",  # 3, 20 s
        "newton/tests/test_contact_matching.py",  # 4, 20 s
        "newton/tests/vbd/test_vbd_current_mesh_filter.py",  # 6, 15 s
        "newton/tests/test_model.py",  # 2, 8 s
        "newton/tests/kamino/test_kamino_dynamics_wrenches.py",  # 3, 8 s
        "newton/tests/kamino/test_kamino_core_model.py",  # 2, 5 s
        "newton/tests/test_sensor_tiled_camera_forward_depth.py",  # 2, 5 s
        "newton/tests/kamino/test_kamino_joint_blocks.py",  # 0, 4 s
        "newton/tests/test_import_urdf.py",  # 0, 4 s
        "newton/tests/test_sdf_compute.py",  # 0, 2 s
        "warp/tests/tile/test_tile_shared_memory.py",  # 0, 7 s
        "warp/tests/tile/test_tile_print.py",  # 1, 5 s
        "warp/tests/geometry/test_mesh_query_aabb.py",  # 1, 5 s
        "warp/tests/test_cpu_block_codegen.py",  # 1, 4 s
        "warp/tests/geometry/test_mesh_query_ray.py",  # 0, 3 s
        "warp/tests/test_apic_utility_algorithms.py",  # 0, 2 s
        "warp/tests/geometry/test_mesh_query_point.py",  # 0, 1 s
        # and, with those left out too:
        "newton/tests/test_deformable_rigid_regressions.py",  # 0, cut at 180 s
        "newton/tests/kamino/test_kamino_body_flags.py",  # 3, cut at 180 s
        "mujoco_warp/_src/collision_driver_test.py",  # 2, cut at 90 s
        "newton/tests/test_sensor_camera.py",  # 18, 63 s
        "newton/tests/test_contact_reduction_body_pairs.py",  # 6, 61 s
        "newton/tests/implicit_mpm/test_implicit_mpm_nodal_diagonalization.py",  # 6, 34 s
        "newton/tests/kamino/test_kamino_linalg_sparse.py",  # 0, 12 s
        "newton/tests/kamino/test_kamino_geometry_mesh_heightfield.py",  # 0, 10 s
        "mujoco_warp/_src/bvh_test.py",  # 1, 8 s
        "newton/tests/kamino/test_kamino_packed_coupling.py",  # 0, 4 s
        "newton/tests/test_mesh_utils.py",  # 0, 4 s
        "newton/tests/test_conveyor_forces.py",  # 0, 2 s
        # and once uint64 data was stored (the plan then counted those kernels): one launch, cut at 180 s
        "warp/tests/test_large.py",  # 0, cut at 180 s
        # Then, with jobs forked from a fork server (a cold default build, idle; `benchmarks/capture.py
        # --read-only --leave-one-out --leave-out ...`): the seven under 0.35 rows per CPU-s, which lose 20 rows
        # together for 80 CPU-s.
        "newton/tests/kamino/test_kamino_geometry_contacts.py",  # 10, 36 s
        "newton/tests/test_collision_cloth.py",  # 4, 19 s
        "warp/tests/test_cpu_vectorization.py",  # 6, 18 s
        "warp/tests/tile/test_tile_oob.py",  # 0, 5 s
        "newton/tests/test_solver_vbd_proxy_full_surface.py",  # 0, 1 s
        "warp/tests/geometry/test_volume_write.py",  # 0, 1 s
        "newton/tests/test_mesh_validation.py",  # 0, 0.1 s
        # which put into the plan's first 106 a test of 78 launches cut at 180 s: under 0.22 rows per second
        "newton/tests/test_tendon_vbd.py",
    }
)
# Jobs cut at their limit that are worth their first seconds: a lower limit of their own. Measured from
# empty caches at load ~8, kamino's dvi solver test was cut at 180 s wall after 84 CPU-s with 85 unique
# `equal` rows: on an idle machine 90 s gets it as far, where 180 s would cost 90 s more for its last tests.
SHORTENED_JOBS = {"newton/tests/kamino/test_kamino_solvers_dvi.py": 90.0}
# A test file that asks only for CUDA devices runs nothing on the CPU (11 of newton's 332, 10 of warp's 216).
_CUDA_ONLY = re.compile(r"get_(?:selected_)?cuda_test_devices")
_ANY_DEVICE = re.compile(r"get_test_devices\(|get_cpu_test_devices|[\"']cpu[\"']")
# A test file compiles its module (all its kernels, Clang) at its first launch, then runs its tests fast:
# a job cut during that compile yields nothing. At load ~8: warp's tile tests were cut at 120 s (62 s at
# load 3), newton's tests at 150 s with 26-36 kernels recorded.
UNITTEST_TIME_LIMIT_S = 180.0
NEWTON_TEST_TIME_LIMIT_S = 180.0
_DIFFERENTIATES = (
    "Tape",
    "backward",
    "requires_grad",
    "optim",
    "grad",
)  # measured at load ~3: warp's tile tests 62 s, vec_scalar_ops 38 s


def _module_name(path: Path, sys_path: str) -> str:
    return ".".join(path.resolve().relative_to(Path(sys_path).resolve()).with_suffix("").parts)


def default_jobs(target: keys.Target, time_limit: float = DEFAULT_TIME_LIMIT_S) -> list[Job]:
    """Examples and tests of the default packages (newton, mujoco_warp, warp), or a folder's scripts.

    Another package: its `example*.py` scripts and `test_*.py` / `*_test.py` files; a folder of scripts: each
    script with a `__main__` block or work at its top level (`_runs_at_top_level`), and its test files.
    Warp's and newton's tests run under unittest, by module name, the way their own runners run them.
    """
    root = Path(target.root)
    base = Path(target.base)
    jobs: list[Job] = []

    def example(path: Path, limit: float = time_limit, top_level: bool = False) -> None:
        text = path.read_text(errors="replace")
        if "__main__" not in text and not (top_level and _runs_at_top_level(text)):
            return
        rel = path.relative_to(base).as_posix()
        # Forward-only compiles unless the script differentiates (tapes, optimisers, `requires_grad`).
        no_backward = not any(w in text for w in _DIFFERENTIATES)
        jobs.append(Job(target.package, rel, "path", str(path), tuple(_example_args(text)), limit, no_backward))

    def test(path: Path, no_backward: bool = False) -> None:
        rel = path.relative_to(base).as_posix()
        jobs.append(Job(target.package, rel, "pytest", str(path), (), time_limit, no_backward))

    def unit_tests(paths: Iterable[Path], limit: float) -> None:
        for p in paths:
            if p.name in SKIPPED_TEST_FILES or any(part in p.parent.parts for part in SKIPPED_TEST_PARTS):
                continue
            text = p.read_text(errors="replace")
            if _CUDA_ONLY.search(text) and not _ANY_DEVICE.search(text):
                continue
            name = _module_name(p, target.sys_path)
            # Forward-only compiles (half the Clang time of a medium kernel) unless the file differentiates.
            no_backward = not any(w in text for w in _DIFFERENTIATES)
            rel = p.relative_to(base).as_posix()
            jobs.append(Job(target.package, rel, "unittest", name, (), SHORTENED_JOBS.get(rel, limit), no_backward))

    name = root.name
    if name == "newton":
        for p in sorted(root.glob("examples/*/example_*.py")):
            example(p, NEWTON_TIME_LIMIT_S)
        unit_tests(sorted(root.glob("tests/**/test_*.py")), NEWTON_TEST_TIME_LIMIT_S)
    elif name == "mujoco_warp":
        for p in sorted(root.glob("_src/*_test.py")):
            if "jax" not in p.name:
                test(p, no_backward="derivative" not in p.name)
    elif name == "warp":
        unit_tests(sorted(root.glob("tests/test_*.py")) + sorted(root.glob("tests/*/test_*.py")), UNITTEST_TIME_LIMIT_S)
        for sub in ("core", "tile", "optim", "fem", "geometry"):
            for p in sorted(root.glob(f"examples/{sub}/example_*.py")):
                example(p)
    else:
        tests = sorted({*root.rglob("test_*.py"), *root.rglob("*_test.py")})
        # A package's modules are library code and its examples are named so; a folder of scripts is run
        # script by script, as its users run it (`python cloth-sim.py`): each one with a `__main__` block.
        # A folder named on the command line is a folder of scripts even with an `__init__.py` at its top
        # (there for pytest or an editor; the harvest runs its files as scripts too): an installed package's
        # files are named relative to the folder above it, a folder's to itself.
        is_package = (root / "__init__.py").is_file() and root != base
        for p in sorted(root.rglob("example*.py" if is_package else "*.py")):
            if p not in tests:
                example(p, top_level=not is_package)
        for p in tests:
            test(p)
    return [j for j in jobs if j.name not in LOW_YIELD_JOBS]


def _runs_at_top_level(text: str) -> bool:
    """A script that does its work when run, without a `__main__` block: a call, loop, `with` or `if` among its
    top-level statements (`main()`, `wp.launch(...)`, `for step in range(n): ...`), or an assignment from a call
    of a function it defines (`result = simulate()`). A module of definitions, imports and constants is not run:
    it launches nothing (of a folder nobody tuned the harvest on, 19 of 33 scripts launched this way)."""
    try:
        # A byte-order mark (Notepad's "UTF-8 with BOM") is no character of the code: Python skips it.
        tree = ast.parse(text.removeprefix("\ufeff"))
    except SyntaxError:
        return False
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for statement in tree.body:
        calls = [n.func for n in ast.walk(statement) if isinstance(n, ast.Call)]
        if isinstance(statement, (ast.For, ast.While, ast.With, ast.If, ast.Try)) and calls:
            return True  # not `try: import torch` nor `if TYPE_CHECKING: ...`
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
            f = statement.value.func
            setup = isinstance(f, ast.Attribute) and ast.unparse(f.value) in ("wp", "warp", "wp.config")
            if not setup or f.attr in ("launch", "launch_tiled"):  # `wp.init()`, `wp.set_module_options(...)`
                return True
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            names = {f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "" for f in calls}
            if names & (defined | {"launch", "launch_tiled"}):
                return True
    return False


# --- running ---------------------------------------------------------------------------------------


def child_env(kernel_cache: str | os.PathLike[str] | None = None, temp: Path | None = None) -> dict[str, str]:
    """The environment of a job's process. `temp` becomes its temporary folder: the child ends with
    `os._exit` or is killed, so what it leaves there (Warp's precompiled headers, ~4.5 MB per process, the
    program's own temporary files) goes with the job's scratch instead of piling up in /tmp."""
    here = str(Path(__file__).resolve().parents[2])
    path = os.environ.get("PYTHONPATH", "")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        PYTHONPATH=here + (os.pathsep + path if path else ""),
        PYTHONUNBUFFERED="1",
        MPLBACKEND="Agg",
        PYGLET_HEADLESS="1",
        CUDA_VISIBLE_DEVICES="",  # the capture is of CPU launches; a GPU would take the default device
        HF_HUB_OFFLINE="1",
        OMP_NUM_THREADS="1",
    )
    if temp is not None:
        env.update(temp_env(temp))
    if kernel_cache is not None:
        # One Warp kernel cache shared by every job of a capture (and kept with its cache): a module that
        # several examples or tests load (newton's solvers, warp's own kernels) is compiled by Clang once.
        env["WARP_CACHE_PATH"] = str(kernel_cache)
    return env


def run_job(
    job: Job,
    targets: Sequence[keys.Target],
    per_kernel: int = 2,
    kernel_cache: str | os.PathLike[str] | None = None,
    fork: bool | None = None,
) -> JobResult:
    """Run one job in a process group of its own under its limits; collect its completed launches.

    `fork`: forked from a fork server that imported the targets once (`capture.forkserver`; the default where
    the system can fork), or a fresh interpreter (`False`). Both record the same launches.
    """
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_capture_") as scratch:
        out = Path(scratch) / "launches"
        work, temp = Path(scratch) / "cwd", Path(scratch) / "tmp"
        work.mkdir()
        temp.mkdir()
        config = {
            "targets": [[t.package, t.version, t.root, t.base, t.sys_path] for t in targets],
            "out": str(out),
            "per_kernel": per_kernel,
            "run": {"mode": job.mode, "target": job.target, "args": list(job.args)},
            "no_backward": job.no_backward,
        }
        log_path = Path(scratch) / "log.txt"
        ran = None
        if FORK_JOBS if fork is None else fork:
            server = _fork_server(targets, job.no_backward, kernel_cache)
            request = {"config": config, "cwd": str(work), "log": str(log_path), "env": temp_env(temp)}
            try:
                ran = server.run({**request, "cpu_limit": job.time_limit}, job.wall_limit)
            except forkserver.ServerGone:  # the job runs in a fresh process instead, from the start
                _servers.pop(_server_key(targets, job.no_backward, kernel_cache), None)
                server.close()
                shutil.rmtree(out, ignore_errors=True)
        if ran is None:
            ran = _run_fresh(job, config, work, log_path, child_env(kernel_cache, temp))
        code, cpu, killed = ran
        if killed:
            status, detail = "timeout", f"cut at the {job.wall_limit:g} s limit of wall-clock time"
        elif code == -signal.SIGXCPU or (code == -signal.SIGKILL and cpu >= job.time_limit):  # its CPU limit
            status, detail = "timeout", f"cut at the {job.time_limit:g} s limit of CPU time"
        else:
            status = "ok" if code == 0 else "failed"
            detail = f"exit code {code}" if code else "exit code 0"
            if code:
                detail += f": {last_error_line(log_path)}"
        launches = []
        if out.exists():
            for path in sorted(out.glob("*.launch")):  # `.partial` files: launches that never completed
                try:
                    launches.append(read_launch_file(path))
                except (OSError, ValueError):
                    continue
    return JobResult(job, status, detail[:300], time.monotonic() - started, launches, cpu)


def _run_fresh(
    job: Job, config: dict[str, Any], work: Path, log_path: Path, env: dict[str, str]
) -> tuple[int, float, bool]:
    """The job in a fresh interpreter: (exit code, CPU seconds of its process group, killed at its wall limit)."""
    cpu_before = _children_cpu()
    with open(log_path, "wb") as log:
        # its own process group: a timeout kills its children too; stopping the executor's worker kills it
        proc = start_group(
            [sys.executable, "-m", "warp_cuda_ir.capture.child", json.dumps(config)],
            before=functools.partial(child.limit_cpu, job.time_limit),
            cwd=work,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        killed = False
        try:
            code = proc.wait(timeout=job.wall_limit)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            code, killed = proc.returncode, True
        finally:
            if proc.poll() is None:
                kill_group(proc)
    # the job's process group, reaped above (a worker runs one job at a time)
    return code, _children_cpu() - cpu_before, killed


# Where the system can fork, jobs start from a fork server (`capture.forkserver`): one per targets, backward
# setting and kernel cache in each process that runs jobs, started at its first job.
FORK_JOBS = sys.platform.startswith("linux")
_servers: dict[str, forkserver.ForkServer] = {}
# A build needs two (its jobs with and without backward); each holds its imports (~250 MB with newton's).
MAX_SERVERS = 4


def _server_key(targets: Sequence[keys.Target], no_backward: bool, kernel_cache: Any) -> str:
    env = child_env(kernel_cache)
    return json.dumps([[list(dataclasses.astuple(t)) for t in targets], no_backward, sorted(env.items())])


def _fork_server(
    targets: Sequence[keys.Target], no_backward: bool, kernel_cache: str | os.PathLike[str] | None
) -> forkserver.ForkServer:
    key = _server_key(targets, no_backward, kernel_cache)
    server = _servers.get(key)
    if server is not None and not server.alive():  # it ended after `forkserver.IDLE_S` without a job
        _servers.pop(key).close()
        server = None
    if server is None:
        while len(_servers) >= MAX_SERVERS:  # the one started first goes
            _servers.pop(next(iter(_servers))).close()
        server = _servers[key] = forkserver.ForkServer(targets, no_backward, child_env(kernel_cache))
    return server


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def last_error_line(path: Path) -> str:
    lines = [ln.strip() for ln in path.read_text(errors="replace").splitlines() if ln.strip()]
    errors = [ln for ln in lines if "Error" in ln or "error" in ln]
    return (errors or lines or [""])[-1][:200]


def _run(item: tuple[Job, Sequence[keys.Target], int, str | None]) -> JobResult:
    return run_job(*item)


def cached_capture(
    jobs: Iterable[Job],
    targets: Sequence[keys.Target],
    cache: Cache | str | os.PathLike[str] | None,
    workers: int = 2,
    per_kernel: int = 2,
    budget_s: float | None = None,
    progress: Callable[[JobResult, int, int], None] | None = None,
    executor: Executor | None = None,
    expected_s: Callable[[Job], float] | None = None,
) -> list[JobResult]:
    """Run every job not already in the cache on `executor` (default: a local one with `workers`
    processes); return all results, in the order of `jobs`, cached ones read back. `cache`: the machine
    cache (`capture/` entries), or a folder for one.

    `budget_s` stops handing out new jobs after that many seconds (the rest run next time), in the order of
    `jobs`. Without a budget and with `expected_s` (a job's expected seconds), the longest jobs start first:
    the last minutes then run short jobs on every worker rather than one long job on one of them. The jobs
    share one Warp kernel cache, the cache's `warp-kernels/`: a module that several jobs load is compiled once.
    """
    store = cache if isinstance(cache, Cache) else Cache(cache)
    kernel_cache = store.folder(KERNEL_NAMESPACE)
    jobs = list(jobs)
    results: dict[int, JobResult] = {}
    todo = []
    for i, job in enumerate(jobs):
        got = store.get(NAMESPACE, job_key(job, targets))
        if isinstance(got, JobResult):
            results[i] = got
        else:
            todo.append(i)
    if budget_s is None and expected_s is not None:
        todo.sort(key=lambda i: -expected_s(jobs[i]))  # stable: equal estimates keep their planned order
    started = time.monotonic()
    in_time = lambda _: budget_s is None or time.monotonic() - started <= budget_s  # noqa: E731
    items = [(jobs[i], list(targets), per_kernel, str(kernel_cache) if kernel_cache else None) for i in todo]
    # run_job cuts a job at its own limits and keeps the launches it completed; the executor's limit is a
    # safety net for the rest (reading the launches back).
    limit = max((job.wall_limit for job, *_ in items), default=0.0) + JOB_MARGIN_S
    with ExitStack() as stack:
        if executor is None:
            executor = stack.enter_context(get_executor("local", workers))
        for outcome in executor.map(_run, items, time_limit=limit, ahead=executor.capacity(), wanted=in_time):
            job = jobs[todo[outcome.index]]
            if outcome.status == "ok" and outcome.value is not None:
                result = outcome.value
                store.put(NAMESPACE, job_key(job, targets), result)
            else:  # not cached: the next build tries it again
                result = JobResult(job, "failed", outcome.detail[:300], 0.0)
            results[todo[outcome.index]] = result
            if progress is not None:
                progress(result, len(results), len(jobs))
    return [results[i] for i in sorted(results)]


# --- from job results to one record per kernel -----------------------------------------------------


def best_records(results: Iterable[JobResult]) -> dict[str, tuple[dict[str, Any], bytes | None]]:
    """(kernel key, Warp key) -> (meta, bytes) of its first replayable launch, else its first refusal (bytes None).

    The dict's keys are `keys.record_key`-style keys followed by `|` and the kernel's Warp key: kernels one
    factory made that differ only in annotations (no closure cell to tell them apart) share a kernel key.
    """
    best: dict[str, tuple[dict[str, Any], bytes | None]] = {}
    for result in results:
        for meta, data in result.launches:
            key = f"{meta['kernel']}|{meta['warp_key']}"
            have = best.get(key)
            if have is None or (have[1] is None and data is not None):
                best[key] = (meta, data)
    return best


def summary(results: Sequence[JobResult]) -> dict[str, Any]:
    """Per package: jobs by status, one line per job that did not end cleanly, launches, seconds."""
    per: dict[str, Any] = {}
    for r in results:
        d = per.setdefault(r.job.package, {"jobs": 0, "status": {}, "launches": 0, "seconds": 0.0, "lines": []})
        d["jobs"] += 1
        d["status"][r.status] = d["status"].get(r.status, 0) + 1
        d["launches"] += len(r.launches)
        d["seconds"] = round(d["seconds"] + r.seconds, 1)
        if r.status != "ok":
            d["lines"].append(f"{r.job.name}: {r.status}: {r.detail}")
    return per
