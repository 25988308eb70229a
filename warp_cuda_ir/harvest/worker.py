"""The harvest's work in an executor worker: import one module, find its kernels, make records.

`harvest_file` is the function `run.harvest` maps over the targets' files. A worker process keeps one
`Worker` per harvest (the kernels it has seen, the modules it has built), since modules import each
other: a kernel is processed by the first item that claims it (an exclusive file in the harvest's
scratch folder), whichever worker runs that item; an item claims a file's kernels just before processing them.
Each kernel's result is written to the scratch folder as soon as it is known, so a worker killed mid-file
(a hang past the executor's limit, a crash) loses no finished kernel, and the parent blames the kernel it
was on. The imported code writes to /dev/null.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import dataclasses
import hashlib
import importlib
import importlib.machinery
import importlib.util
import inspect
import json
import linecache
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import tokenize
import traceback
import types
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import warp as wp

from warp_cuda_ir import extraction, warp_session
from warp_cuda_ir.cache import atomic_write
from warp_cuda_ir.engines import working_directory
from warp_cuda_ir.errors import ExtractionError, one_line
from warp_cuda_ir.harvest import call_values, check, factories, identity, reasons, scripts
from warp_cuda_ir.harvest.paths import data_files, file_in_target
from warp_cuda_ir.harvest.selfcontained import Unsupported, self_contained_source, source_lines


class _TargetView:
    """The part of a `discover.Target` a worker needs (it arrives as JSON)."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.root = Path(d["root"])
        self.base = Path(d["base"])
        self.package = d["package"]
        self.version = d["version"]
        self.license = d["license"]
        # Every import announces the kernels in Warp's registry not seen before, and those of other packages
        # never are: without this, their files were resolved again on each of a target's hundreds of imports
        # (20 s of a profile of the default harvest's ~550 worker-seconds, py-spy). A relative name depends on
        # the working directory, which changes between items: only absolute ones are kept.
        self._relpaths: dict[str, str | None] = {}

    def relpath(self, path: str) -> str | None:
        if not os.path.isabs(path):
            return file_in_target(self.root, self.base, path)
        if path not in self._relpaths:
            self._relpaths[path] = file_in_target(self.root, self.base, path)
        return self._relpaths[path]


class Worker:
    def __init__(self, config: dict[str, Any], send: Callable[[dict[str, Any]], None]) -> None:
        self.targets = [_TargetView(t) for t in config["targets"]]
        self.arch = int(config.get("arch", extraction.DEFAULT_CUDA_ARCH))
        self.send = send
        self.known: dict[str, Any] = {}  # ident -> kernel object (or generic kernel without overloads)
        self.seen: set[int] = set()  # id() of kernel objects already announced
        self.modules: dict[int, Any] = {}  # id(Warp module) -> ModuleCode, or False when it does not build whole
        self.scripts: set[str] = set()  # real paths of the files loaded as scripts (a folder that is no package)
        self.script_modules: list[str] = []  # the names they load under
        self.factory_calls: dict[int, str] = {}  # id(kernel) -> the call the harvest made it with (provenance)
        self.factory_kernels: list[Any] = []  # those kernels (Warp's registry holds them weakly)
        self.file_in_targets: dict[str, bool] = {}  # a module's file -> whether a harvested folder holds it
        for target in config["targets"]:
            if target["sys_path"] not in sys.path:
                sys.path.insert(0, target["sys_path"])
        self.warp_config = warp_session.config_snapshot()

    # --- import ----------------------------------------------------------------------------------

    def do_import(self, module: str, path: str | None, time_limit: float) -> tuple[str | None, str | None, list[str]]:
        """(reason category, detail, idents of the kernels not seen before) after importing `module` (by
        `path` for a script of a folder that is not a package)."""
        # A file's kernels are processed right after its import; Warp's global settings it changed at top
        # level (`wp.config.enable_backward = False` in several of Warp's own examples) must not carry over
        # into the next file's code (they made the next file's kernels fail their self-contained check).
        warp_session.restore_config(self.warp_config)
        if path is not None:
            self._forget_other_folders_modules(path)
            self._forget_named_modules()
            self.scripts.add(os.path.realpath(path))
            self.script_modules.append(module)
        error = category = None
        made = FactoryKernels()
        try:
            # Python's warning filters and numpy's floating-point error modes a file sets at top level
            # (`warnings.simplefilter("error")`, `np.seterr(all="raise")`) are its own too: carried over, the
            # next file's first warning raised, and its import failed.
            with _time_limit(time_limit), warnings.catch_warnings(), np.errstate(**np.geterr()):
                if path is None:
                    importlib.import_module(module)
                else:
                    _load_from_path(module, path, made)
        except _OverTime:
            # The kernels made before the time ran out are whole (a decorator returns a finished kernel); what
            # they read that the module had not yet made fails their self-contained check, with its reason.
            # Warp's launch benchmark (warp/examples/benchmarks/benchmark_launches.py) defines its twelve
            # kernels, then launches each 100,000 times at import: minutes on 2 cores, past the limit.
            if path is None:
                _keep_half_made(module)
            return (
                reasons.IMPORT_TIMEOUT,
                f"no answer within {time_limit:g} s",
                self._announce() if path is None else self._announce_script(path, made),
            )
        except SystemExit as e:
            category, error = reasons.IMPORT_EXITED, f"sys.exit({e.code!r})"
        except BaseException as e:  # whatever the file raises, the harvest goes on
            category, error = reasons.IMPORT_FAILED, f"{type(e).__name__}: {one_line(e)}"[:500]
        return category, error, self._announce() if path is None else self._announce_script(path, made)

    def _announce_script(self, path: str, made: FactoryKernels) -> list[str]:
        """`_announce`, with the kernels the harvest made from the script's factories (each remembers its
        call) and a reason for each factory kernel it could not make."""
        self.factory_calls.update(made.calls)
        self.factory_kernels += made.kernels + made.loaded
        self.seen.update(made.redundant)
        out = self._announce()
        where = next(((i, t.relpath(path)) for i, t in enumerate(self.targets) if t.relpath(path) is not None), None)
        if where is None:
            return out
        for line, qualname, why in made.unmade:
            ident = f"{where[0]}|{where[1]}|{line}|{qualname}||not made"
            if ident not in self.known:
                self.known[ident] = _NotMade(why)
                out.append(ident)
        for line, kernel in made.from_text:
            name = kernel.func.__code__.co_filename
            ident = f"{where[0]}|{where[1]}|{line}|{kernel.func.__qualname__}||from text {name}"
            if ident not in self.known:
                why = f"made from text in no file (compiled as {name!r}) by the statement at line {line}"
                self.known[ident] = _NotMade(why, reasons.NO_SOURCE)
                out.append(ident)
        return out

    def _forget_other_folders_modules(self, path: str) -> None:
        """Scripts are separate programs: `from utils import cell_of` in `b/run.py` means `b/utils.py`, even
        after `a/run.py` imported `a/utils.py` as `utils` in this process. A module of the harvested folders
        that the script's own search path (its folder first, as `python b/run.py` puts it) would find in
        another file, or not at all, is taken out of `sys.modules` (with its submodules and the Warp module
        of that name), so the script imports its own; modules it would find where they are stay shared, and
        so do the scripts loaded by path under names no import finds."""
        search = [os.path.dirname(os.path.abspath(path)), *sys.path]
        stale = []
        for name, module in list(sys.modules.items()):
            origin = getattr(module, "__file__", None)
            if "." in name or not origin or not self._in_targets(origin):
                continue
            try:
                spec = importlib.machinery.PathFinder.find_spec(name, search)
            except (ImportError, ValueError):
                spec = None
            found = spec.origin if spec is not None else None
            if found is None and name in self.script_modules:
                continue  # a script loaded by path under a name of its own: no import statement finds it
            if found is None or os.path.realpath(found) != os.path.realpath(origin):
                stale.append(name)
        for name in stale:
            for loaded in [n for n in sys.modules if n == name or n.startswith(name + ".")]:
                del sys.modules[loaded]
        warp_session.unregister_modules(stale)

    def _in_targets(self, path: str) -> bool:
        """Whether a module's file is one of the harvested folders' (remembered: `realpath` costs about 1 ms
        here, and a worker asks of every loaded module before every script)."""
        known = self.file_in_targets.get(path)
        if known is None:
            known = self.file_in_targets[path] = any(t.relpath(path) is not None for t in self.targets)
        return known

    def _forget_named_modules(self) -> None:
        """Scripts are separate programs: a Warp module one of them names (`@wp.kernel(module="dft_kernels")`)
        must not collect the next script's kernels of that name, as it would in one process. Two of Warp's
        examples name the same module, one of them with `wp.config.enable_backward = False`, which the module
        keeps from when it was made: the other's kernels then failed their check."""
        names = {
            k.module.name
            for k in warp_session.live_kernels()
            if k.module.name not in sys.modules and self._where(k) is not None
        }
        warp_session.unregister_modules(names)

    def _announce(self) -> list[str]:
        """Idents of kernels (and overloads) of the harvested targets not announced before."""
        out = []
        namespaces = [vars(sys.modules[n]) for n in self.script_modules if n in sys.modules]
        # The kernels made from factories are in no script's namespace (nor in Warp's registry, for a
        # `module="unique"` one).
        namespaces.append({str(i): k for i, k in enumerate(self.factory_kernels)})
        kernels = list(enumerate(_kernels_with(namespaces)))
        kernels.sort(key=self._announce_order)
        for _, kernel in kernels:
            if id(kernel) in self.seen or getattr(kernel, "generic_parent", None) is not None:
                continue
            where = self._where(kernel)
            if where is None:
                continue
            if kernel.is_generic and kernel.overloads:
                # Overloads added later (by another module's import) are announced then.
                items = [(o, o.sig) for o in kernel.overloads.values() if id(o) not in self.seen]
                self.seen.update(id(o) for o, _ in items)
            elif kernel.is_generic:
                # Not marked seen: a later import may still add overloads (the parent keeps one reason).
                items = [(kernel, "<generic>")]
            else:
                items = [(kernel, "")]
                self.seen.add(id(kernel))
            for obj, sig in items:
                ident = self._ident(kernel, where, sig)
                n = 2
                base = ident
                while ident in self.known and self.known[ident] is not obj:
                    ident, n = f"{base}#{n}", n + 1
                self.known[ident] = obj
                out.append(ident)
        return out

    def _announce_order(self, item: tuple[int, Any]) -> tuple:
        """Warp lists a module's kernels from a weak set, in no fixed order, and two kernels of one definition
        whose closures are equal get `#2` in the order they come: a script's kernels are announced by what
        they were made with (a factory's types read only in annotations), so their records' order is the
        same in every run. A package's kernels are announced by their Warp key: Warp's own tests make one
        kernel per dtype from a factory whose code does not read the dtype (`check_matrices_equal`, keyed
        `..._float64`, `..._int32`), and which of them kept `name=` of which record changed between runs."""
        index, kernel = item
        code = getattr(kernel.func, "__code__", None)
        if not self.scripts or code is None or os.path.realpath(code.co_filename) not in self.scripts:
            return (0, str(getattr(kernel, "key", "")), index)
        made = self.factory_calls.get(id(kernel), "")
        return (1, code.co_filename, code.co_firstlineno, made, identity.made_with(kernel.func), str(kernel.key))

    def _where(self, kernel: Any) -> tuple[int, str, int] | None:
        code = getattr(kernel.func, "__code__", None)
        # Compiled from a string (`<string>`, `wp.map`'s kernels): no file, though the name, taken as a path
        # relative to the working directory, may land inside a harvested folder.
        if code is None or code.co_filename.startswith("<"):
            return None
        for i, target in enumerate(self.targets):
            rel = target.relpath(code.co_filename)
            if rel is not None:
                return i, rel, code.co_firstlineno
        return None

    def _ident(self, kernel: Any, where: tuple[int, str, int], sig: str) -> str:
        t, rel, line = where
        digest = identity.kernel_digest(kernel.func)
        return f"{t}|{rel}|{line}|{kernel.func.__qualname__}|{sig}|{digest}"

    # --- records ---------------------------------------------------------------------------------

    def _original(self, kernel: Any, block_dim: int) -> tuple[str, str, str, list[str]]:
        """Warp's code for the kernel in its own module: read off the module's build, else built alone."""
        module = kernel.module
        cached = self.modules.get(id(module))
        if cached is None or (cached is not False and cached.signature != warp_session.module_signature(module)):
            try:
                cached = warp_session.ModuleCode(module, self.arch)
            except Exception:  # one kernel Warp cannot build: build the others one by one
                cached = False
            self.modules[id(module)] = cached
        if cached is not False:
            sources = cached.kernel_sources(kernel)
            if sources is not None:
                return sources
        return warp_session.original_module_sources(kernel, self.arch, block_dim)

    def _at_launch_block_dim(self, kernel: Any, failed: int) -> tuple[int, tuple[str, str, str, list[str]]] | None:
        """A script's kernel Warp cannot generate at its module's block size: Warp's code at the first
        `block_dim=` the script launches it with that gives code (`scripts.launch_block_dims`), else None."""
        func = kernel.func
        filename = os.path.realpath(func.__code__.co_filename)
        if filename not in self.scripts:
            return None
        try:
            tree = ast.parse("".join(linecache.getlines(filename)))
        except SyntaxError:
            return None
        for block_dim in scripts.launch_block_dims(tree, func.__name__, func.__globals__):
            if block_dim == failed:
                continue
            try:
                with warp_session.silenced_fd(2):
                    return block_dim, warp_session.original_module_sources(kernel, self.arch, block_dim)
            except Exception:
                continue
        return None

    def _chosen_overload(self, kernel: Any) -> Any | None:
        """An overload of a script's generic kernel that nothing specialised, or None (not a script's kernel,
        or no candidate generates): every `Any` (an argument, or a `wp.array`'s dtype) set to one type of
        `OVERLOAD_CANDIDATES`, the first Warp generates code for. Warp itself generates nothing for a generic
        kernel: the script's run, which the harvest does not do, picks the types; the row says the harvest
        picked these (`provenance.chosen_overload`)."""
        if os.path.realpath(kernel.func.__code__.co_filename) not in self.scripts:
            return None
        for candidate in OVERLOAD_CANDIDATES:
            types = {}
            for arg in kernel.adj.args:
                if arg.type is Any:
                    types[arg.label] = candidate
                elif warp_session.is_plain_array_type(arg.type) and arg.type.dtype is Any:
                    types[arg.label] = wp.array(dtype=candidate, ndim=arg.type.ndim)
                elif warp_session.is_generic_type(arg.type):
                    return None  # a generic vector length, an indexed array...: no single rule
                else:
                    types[arg.label] = arg.type
            try:
                overload = wp.overload(kernel, types)
            except Exception:
                continue
            self.seen.add(id(overload))  # announced as this generic kernel's, not as an upstream overload
            try:
                with warp_session.silenced_fd(2):
                    self._original(overload, warp_session.module_block_dim(overload))
            except Exception:
                kernel.overloads.pop(overload.sig, None)
                continue
            return overload
        return None

    def do_process(self, ident: str, time_limit: float) -> None:
        started = time.perf_counter()
        try:
            with _time_limit(time_limit):
                out = self._process(ident)
        except _OverTime:
            out = self._reason(ident, reasons.KERNEL_TIMEOUT, f"no answer within {time_limit:g} s")
        except BaseException as e:  # a bug of ours must not lose the rest
            detail = f"internal error: {type(e).__name__}: {one_line(e)}"
            out = self._reason(ident, reasons.SELF_CONTAINED_UNSUPPORTED, detail)
            out["traceback"] = traceback.format_exc()[-2000:]
        out["seconds"] = round(time.perf_counter() - started, 4)
        self.send(out)

    def _reason(self, ident: str, category: str, detail: str) -> dict[str, Any]:
        return {"op": "result", "ident": ident, "category": category, "detail": detail[:1000]}

    def _process(self, ident: str) -> dict[str, Any]:
        kernel = self.known.get(ident)
        if kernel is None:
            return self._reason(ident, reasons.WORKER_DIED, "kernel not found in this worker")
        if isinstance(kernel, _NotMade):
            return self._reason(ident, kernel.category, kernel.why)
        t, rel, line, qualname, sig, _ = ident.split("|")[:6]
        target = self.targets[int(t)]
        chosen = None
        if sig == "<generic>":
            kernel = self._chosen_overload(kernel)
            if kernel is None:
                return self._reason(ident, reasons.GENERIC_WITHOUT_OVERLOADS, "no wp.overload and never launched")
            chosen = kernel.sig
        root = kernel.generic_parent or kernel
        try:
            upstream_lines, _, _ = source_lines(root.func)
        except Unsupported as e:
            return self._reason(ident, reasons.NO_SOURCE, str(e))
        block_dim = warp_session.module_block_dim(kernel)
        try:
            with warp_session.silenced_fd(2):
                cuda, cpu, symbol, symbols = self._original(kernel, block_dim)
        except Exception as e:
            found = self._at_launch_block_dim(kernel, block_dim)
            if found is None:
                return self._reason(ident, reasons.WARP_CODEGEN_FAILED, f"{type(e).__name__}: {one_line(e)}")
            block_dim, (cuda, cpu, symbol, symbols) = found
        original = extraction.texts_from_module_sources(cuda, cpu, symbol, kernel.key, {}, {}, block_dim)
        original = dataclasses.replace(original, cuda_helpers="", cpu_helpers="")  # see ModuleCode
        try:
            sc = self_contained_source(kernel, warp_session.changed_module_options(kernel))
        except Unsupported as e:
            return self._reason(ident, reasons.SELF_CONTAINED_UNSUPPORTED, str(e))
        try:
            with (
                warp_session.preserved_function_counters(),
                warp_session.private_registry([kernel.module.name]),
                warp_session.silenced_fd(2),
            ):
                texts = extraction.extract(
                    sc.source, sc.kernel_name, self.arch, block_dim, force_backward=True, history_free_names=True
                )
        except ExtractionError as e:
            out = self._reason(ident, reasons.SELF_CONTAINED_EXTRACT_FAILED, one_line(e))
            out["source"] = sc.source
            return out
        candidate = dataclasses.replace(texts, cuda_helpers="", cpu_helpers="")
        if texts.backward_origin != extraction.AS_WRITTEN:
            # The package's options give no backward: the check is of what they give. The adjoint enabled
            # here is Warp's derivation of the checked source (its forward checked equal in `extract`).
            candidate = dataclasses.replace(candidate, cuda_backward="", cpu_backward="")
        mine = warp_session.declared_names(texts.cuda_helpers + texts.cpu_helpers)
        differing = check.compare(original, candidate, symbols, mine)
        if differing:
            excerpt = check.first_difference(original, candidate, differing[0], symbols, mine)
            detail = f"{', '.join(differing)}: {excerpt}"
            out = self._reason(ident, reasons.SELF_CONTAINED_MISMATCH, detail)
            out["source"] = sc.source
            return out
        return {
            "op": "result",
            "ident": ident,
            "record": {
                "package": target.package,
                "package_version": target.version,
                "license": target.license,
                "file": rel,
                "line": int(line),
                "qualname": qualname,
                "overload": chosen or sig or None,
                "chosen_overload": chosen,
                "factory_call": self.factory_calls.get(id(root)),
                "kernel_name": sc.kernel_name,
                "upstream_source": "".join(upstream_lines),
                "source": sc.source,
                "block_dim": block_dim,
                "texts": asdict(texts),
            },
        }


# The types tried, in order, for the `Any`s of a script's generic kernel nothing specialised: Warp's default
# scalar, then the vector and matrix types Warp's own generic examples are launched with (`fem`'s block
# matrices are 3x3; on Warp 1.19's examples this order generated all 4 such kernels).
OVERLOAD_CANDIDATES = (wp.float32, wp.vec3, wp.mat33)

# A script's top-level statement that runs longer than this is its own work (a simulation loop, a
# benchmark), not a definition: it is cut and the script's later definitions still load. Imports are
# exempt (newton's first import takes ~20 s idle).
SCRIPT_STATEMENT_LIMIT_S = 60


class _StatementCut(Exception):
    pass


def _load_from_path(module: str, path: str, made: FactoryKernels | None = None) -> None:
    """Run a script as the module `module`, one top-level statement at a time.

    A script is written to be run (`python 001.py`), not imported: at top level it may pick a CUDA device,
    launch, plot or exit, often between two kernel definitions. Each statement that raises, exits or runs
    past `SCRIPT_STATEMENT_LIMIT_S` is skipped and the rest still run, so every kernel the script defines
    is found; the first failure is raised at the end, as the file's reason. The module is registered before
    it runs, as an import would (Warp reads a kernel's globals through its module; a sibling's `import`
    finds it). Line numbers are the file's, so Warp reads the kernels' source from the file itself.
    """
    # A module of a package is made after its package, as an import makes it: loaded first, its relative
    # import would run the package's `__init__`, whose `from .forces import spring_force` then met this
    # module still empty (which worker took the file first decided it).
    parent = module.rpartition(".")[0]
    if parent and parent not in sys.modules:
        with contextlib.suppress(Exception):  # the file's own run meets the failure again, and reports it
            importlib.import_module(parent)
    if module in sys.modules:  # a sibling script imported it by name already (or its package did)
        # That import ran the file but made none of the kernels the harvest makes from its text (inside
        # functions, from its factories): made now, so a file's harvest does not depend on whether a sibling
        # that imports it was loaded first in the same worker.
        existing = sys.modules[module]
        file = getattr(existing, "__file__", None)
        if file and os.path.realpath(file) == os.path.realpath(path) and os.path.realpath(path) not in _MADE_FROM_TEXT:
            text = _script_text(path)
            tree = ast.parse(text, path)
            _define_from_text(tree, text, path, existing, scripts.future_flags(tree), made)
        return
    text = _script_text(path)
    tree = ast.parse(text, path)
    flags = scripts.future_flags(tree)
    spec = importlib.util.spec_from_file_location(module, path)
    loaded = importlib.util.module_from_spec(spec) if spec is not None else types.ModuleType(module)
    loaded.__file__ = path
    sys.modules[module] = loaded
    first: BaseException | None = None

    def cut(signum: int, frame: Any) -> None:
        raise _StatementCut(f"top-level statement cut at the {SCRIPT_STATEMENT_LIMIT_S} s limit")

    previous = signal.signal(signal.SIGALRM, cut)
    # Run as `python 001.py` runs it: with no arguments (a top-level `argparse` then gives its defaults, where
    # the build's own arguments made it exit and left the names it sets undefined).
    argv, sys.argv = sys.argv, [path]
    over: _OverTime | None = None
    # `python sims/fluid.py` puts `sims/` first on sys.path: a script in a subfolder imports its siblings by
    # name (`from helpers import idx`). Only while it loads: the modules it imported stay (their kernels and
    # structs are read after the load), the folder does not stay on the path of the next scripts.
    here = os.path.dirname(os.path.abspath(path))
    own_folder = here not in sys.path
    if own_folder:
        sys.path.insert(0, here)
    # Every kernel the statements make, held until announced (`warp_session.kernels_kept`).
    kept = made.loaded if made is not None else []
    try:
        with warp_session.kernels_kept(kept):
            for node in tree.body:
                timed = not isinstance(node, (ast.Import, ast.ImportFrom))
                before = len(kept)
                try:
                    if timed:
                        signal.alarm(SCRIPT_STATEMENT_LIMIT_S)
                    exec(scripts.compiled(ast.Module([node], type_ignores=[]), path, "exec", flags), loaded.__dict__)
                except (Exception, SystemExit) as e:
                    first = first or e
                finally:
                    signal.alarm(0)
                if made is not None:
                    made.from_text += [(node.lineno, k) for k in kept[before:] if _made_from_text(k)]
    except _OverTime as e:  # the file's time is up: the definitions not run yet are still made from the text
        over = e
    finally:
        signal.signal(signal.SIGALRM, previous)
        sys.argv = argv
    try:
        _define_from_text(tree, text, path, loaded, flags, made)
    finally:
        if own_folder:
            sys.path.remove(here)
    if over is not None:
        raise over
    if first is not None:
        raise first


# The files whose kernels made from their text (`_define_from_text`) this worker has made.
_MADE_FROM_TEXT: set[str] = set()


def _define_from_text(
    tree: ast.Module, text: str, path: str, loaded: types.ModuleType, flags: int, made: FactoryKernels | None
) -> None:
    """After a script's load: the kernels it defines where its load did not run, and those of its factories
    and of its siblings' factories it calls, for the values its text gives."""
    _MADE_FROM_TEXT.add(os.path.realpath(path))
    resolver = call_values.Resolver(tree, path, loaded.__dict__, _allowed_call)
    try:
        # What `python script.py` sets before its launches: plain globals of the `__main__` block.
        loaded.__dict__.update(call_values.main_block_values(tree, resolver))
    except Exception:  # a bug of ours must not cost the script's kernels
        traceback.print_exc()
    evaluate = _evaluator(path, loaded.__dict__, flags)
    _define_inner_kernels(tree, text, path, loaded.__dict__, flags, made)
    try:
        _define_factory_kernels(tree, text, path, resolver, made, evaluate)
    except Exception:  # a bug of ours must not cost the script's other kernels
        traceback.print_exc()
    try:
        _define_imported_factory_kernels(tree, path, resolver, made)
    except Exception:
        traceback.print_exc()
    try:
        _overload_launched_generics(tree, path, resolver)
    except Exception:
        traceback.print_exc()


def _script_text(path: str) -> str:
    """The script's text, decoded as Python decodes it (PEP 263 encoding line, else UTF-8).

    A file Python's decoder refuses (a comment saved as cp1252 by an editor, `Größe`, with no encoding
    line) is decoded with U+FFFD for the bytes that are not UTF-8, and that text is what `linecache` then
    serves for the file: Warp and the harvest read a kernel's source through it, and the code itself,
    ASCII in such files, is unchanged.
    """
    try:
        with tokenize.open(path) as f:
            return f.read()
    except (UnicodeDecodeError, SyntaxError):
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
        # An entry with no modification time is one `linecache.checkcache` keeps (as for zipimported files).
        linecache.cache[path] = (len(text), None, text.splitlines(keepends=True), path)
        return text


def _define_inner_kernels(
    tree: ast.Module,
    text: str,
    path: str,
    namespace: dict[str, Any],
    flags: int,
    made: FactoryKernels | None = None,
) -> None:
    """Define the kernels the script writes inside functions its top level never called, where they capture
    nothing from those functions but the modules they import, and those under a top-level block that did
    not run (`if __name__ == "__main__":`), see `scripts.inner_kernels`: same text, line numbers and
    `__qualname__` as the script's run would give them, names looked up in the script's globals. A
    definition whose decorator raises is left out, as it is from the run; one that reads a name only that
    run binds goes to `made.unmade` with why. `namespace` is the script's globals, `flags` its own
    `__future__` flags."""

    def in_function(imports: tuple[ast.stmt, ...]) -> dict[str, Any]:
        """The script's globals, with the enclosing functions' own imports run (`scripts.InnerKernel.imports`):
        a copy, so the script's own namespace stays as its load left it."""
        if not imports:
            return namespace
        scope = dict(namespace)
        exec(scripts.compiled(ast.Module(list(imports), type_ignores=[]), path, "exec", flags), scope)
        return scope

    def is_kernel_decorator(expr: ast.expr, imports: tuple[ast.stmt, ...]) -> bool:
        try:
            return _is_kernel_decorator(expr, _evaluator(path, in_function(imports), flags))
        except Exception:  # the function's import fails: so would its kernel
            return False

    kernels = _kernels_with([namespace])
    existing = {
        (os.path.realpath(k.func.__code__.co_filename), k.func.__code__.co_firstlineno)
        for k in kernels
        if getattr(k.func, "__code__", None) is not None
    }
    here = os.path.realpath(path)
    for inner in scripts.inner_kernels(tree, text, path, is_kernel_decorator):
        if (here, inner.first_line) in existing:  # the script made it at import (a function it called)
            continue
        # Compiled as a top-level def whose one decorator stands on the original decorator's line (Python
        # and Warp read the kernel's source from there); that decorator names it and applies the real one.
        # A kernel that reads modules its function imports is defined inside a function of its own that runs
        # those imports first, so it holds them in its closure as upstream's does (the capture knows a kernel
        # by its closure), in a copy of the globals holding them too (for a name only its annotations read).
        decorator = inner.node.decorator_list[0]
        node = copy.copy(inner.node)
        node.decorator_list = [ast.copy_location(ast.Name("__wci_define__", ast.Load()), decorator)]
        where = in_function(inner.imports)
        body: list[ast.stmt] = [node]
        if inner.imports:
            returned = ast.copy_location(ast.Return(ast.Name(node.name, ast.Load())), node)
            arguments = ast.arguments([], [ast.arg("__wci_define__")], None, [], [], None, [])
            scope_def = ast.FunctionDef("__wci_scope__", arguments, [*inner.imports, node, returned], [])
            body = [ast.copy_location(scope_def, node)]

        def define(func: Any, qualname: str = inner.qualname, decorator: ast.expr = decorator) -> Any:
            func.__qualname__ = qualname
            kernel = eval(scripts.compiled(ast.Expression(decorator), path, "eval", flags), func.__globals__)(func)
            # Held until announced: Warp keeps only the latest kernel of a key strongly, and two branches not
            # taken (`match` arms, `if`/`else`) define kernels of one name.
            if made is not None:
                made.loaded.append(kernel)
            return kernel

        scope: dict[str, Any] = {"__wci_define__": define}
        try:
            module = ast.fix_missing_locations(ast.Module(body, type_ignores=[]))
            exec(scripts.compiled(module, path, "exec", flags), where, scope)
            if inner.imports:
                scope["__wci_scope__"](define)
        except NameError as e:  # `for dtype in ...:` under `__main__`, then `wp.array(dtype=dtype)`
            if made is not None:
                why = f"defined where loading the script does not run, from a name only that run binds: {e}"
                made.unmade.append((inner.first_line, inner.qualname, why))
        except Exception:
            continue


def _evaluator(path: str, namespace: dict[str, Any], flags: int) -> Callable[[ast.expr], Any]:
    """Evaluation of an expression of the script in its globals, compiled as the script's file is."""

    def evaluate(expr: ast.expr) -> Any:
        return eval(scripts.compiled(ast.Expression(expr), path, "eval", flags), namespace)

    return evaluate


def _is_kernel_decorator(expr: ast.expr, evaluate: Callable[[ast.expr], Any]) -> bool:
    """Whether a decorator, evaluated in the script's globals, is `wp.kernel` (bare or called with options)."""
    try:
        value = evaluate(expr.func if isinstance(expr, ast.Call) else expr)
    except Exception:
        return False
    return value is wp.kernel


@dataclass
class FactoryKernels:
    """What the harvest made of a script's factories (`factories`): each kernel with the call it made it by,
    those equal to one the script's load made, and the factory kernels it could not make, with why."""

    calls: dict[int, str] = field(default_factory=dict)  # id(kernel) -> the call
    kernels: list[Any] = field(default_factory=list)
    redundant: set[int] = field(default_factory=set)  # id(kernel)
    # The kernels of the script's load those stand for. A kernel the script made and dropped
    # (`wp.launch(make(i), ...)` in a loop, `Smoother(r, w)(src, dst)`) lives on only in Warp's weak registry
    # until the next collection: without this reference it was gone by the time the kernels were announced,
    # and the harvest's equal copy, marked redundant, was never announced either.
    loaded: list[Any] = field(default_factory=list)
    unmade: list[tuple[int, str, str]] = field(default_factory=list)  # (first line, qualname, why)
    # Kernels the script's statements made from text that is in no file (`exec` of a formatted template,
    # `wp.map`'s kernels), with the line of the statement that made them: no file of the folder holds their
    # source, so each gets a reason there.
    from_text: list[tuple[int, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class _NotMade:
    why: str
    category: str = reasons.FACTORY_NOT_MADE


def _made_from_text(kernel: Any) -> bool:
    """Whether the kernel's function was compiled from a string rather than read from a file."""
    code = getattr(kernel.func, "__code__", None)
    return code is not None and not os.path.isfile(code.co_filename)


# Warp's functions a factory's statements may call besides its types: type constructors, decorators, and
# questions about types. Nothing that launches, allocates, loads or touches a device.
_WARP_CALLS = tuple(
    f
    for f in (
        *(getattr(wp.types, n, None) for n in ("vector", "matrix", "quaternion", "transformation")),
        *(getattr(wp.types, n, None) for n in ("type_size_in_bytes", "types_equal", "type_is_vector")),
        *(getattr(wp.types, n, None) for n in ("type_is_matrix", "type_repr", "is_array", "is_float", "is_int")),
        *(getattr(wp, n, None) for n in ("constant", "kernel", "func", "struct", "overload", "Kernel")),
        *(getattr(wp, n, None) for n in ("func_grad", "func_replay", "func_native", "dtype_from_numpy")),
        *(getattr(wp, n, None) for n in ("dtype_to_numpy",)),
    )
    if f is not None
)
# Questions about the devices a script sizes its kernels by (`chunk = 4 if wp.get_device().is_cpu else 64`,
# `wp.get_cuda_device_count()` in `main()`): Warp is initialised when the harvest loads the script, so they
# only read what it found, and answer as the script's own run on this machine would.
_DEVICE_QUESTIONS = tuple(
    f
    for f in (
        getattr(wp, n, None)
        for n in (
            "get_device",
            "get_preferred_device",
            "get_cuda_device_count",
            "is_cuda_available",
            "is_cpu_available",
        )
    )
    if f is not None
)
# Warp's math builtins a factory computes a captured value with (`d = wp.normalize(wp.vec3(*direction))`):
# run on values in Python they only compute. By name, since a builtin that takes an id (`mesh_query_point`)
# would read memory at whatever address the value gives, and `printf` writes.
_WARP_MATH = frozenset(
    {
        "normalize", "length", "length_sq", "dot", "cross", "outer", "transpose", "inverse", "determinant",
        "identity", "diag", "skew", "mul", "add", "sub", "div", "neg", "abs", "min", "max", "clamp", "sqrt",
        "exp", "log", "sin", "cos", "tan", "atan2", "degrees", "radians", "quat_from_axis_angle",
        "quat_from_matrix", "quat_inverse", "quat_rotate", "quat_rotate_inv", "quat_to_matrix", "quat_rpy",
        "transform_point", "transform_vector", "transform_multiply", "transform_inverse", "transform_identity",
        "transform_get_translation", "transform_get_rotation", "quat_identity",
    }
)  # fmt: skip
# Array types: called with a dtype and dimensions only they are an annotation, not an allocation.
_ARRAY_TYPES = tuple(
    t for t in (getattr(wp, n, None) for n in ("array", "array1d", "array2d", "array3d", "array4d")) if t is not None
)


def _allowed_call(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """A call a factory's kept statements may make (see `call_values`): Warp's value types and the functions
    above, an array type as an annotation, a NumPy scalar type, a Warp decorator's own wrapper."""
    if any(func is f for f in _WARP_CALLS) or (warp_session.is_warp_type(func) and isinstance(func, type)):
        return True
    if any(func is t for t in _ARRAY_TYPES):
        return not args and set(kwargs) <= {"dtype", "ndim"}
    if any(func is f for f in _DEVICE_QUESTIONS):  # `wp.get_device()`, `wp.get_device("cpu")`: no device made
        return not kwargs and all(isinstance(a, str) or a is None for a in args)
    if isinstance(func, type) and issubclass(func, np.generic):
        return True
    if _value_struct(func):  # `p = SimParams()` in `main()`, filled field by field before a factory reads it
        return not args and not kwargs
    if getattr(func, "key", None) in _WARP_MATH and func is getattr(wp, func.key, None):
        return all(warp_session.is_warp_type(type(a)) or isinstance(a, (int, float)) for a in (*args, *kwargs.values()))
    return _is_warp_decorator(func)


def _value_struct(value: Any, depth: int = 0) -> bool:
    """A `wp.struct` type whose fields are all values (scalars, vectors, matrices, such structs): making an
    instance allocates no array; its fields start zeroed."""
    kind = type(value)
    if depth > 4 or kind.__name__ != "Struct" or not kind.__module__.startswith("warp."):
        return False
    fields = [getattr(v, "type", None) for v in getattr(value, "vars", {}).values()]
    return all((isinstance(t, type) and warp_session.is_warp_type(t)) or _value_struct(t, depth + 1) for t in fields)


def _is_warp_decorator(value: Any) -> bool:
    """`wp.kernel`, `wp.func`, `wp.struct`, or what they (and `wp.func_grad(...)`, ...) return called with options."""
    if any(value is d for d in (wp.kernel, wp.func, wp.struct)):
        return True
    module = getattr(value, "__module__", None) or ""
    qualname = getattr(value, "__qualname__", "")
    decorators = ("kernel.", "func.", "struct.", "func_grad.", "func_replay.", "func_native.")
    return module.startswith("warp.") and qualname.startswith(decorators) and ".<locals>." in qualname


def _define_factory_kernels(
    tree: ast.Module,
    text: str,
    path: str,
    resolver: call_values.Resolver,
    made: FactoryKernels | None,
    evaluate: Callable[[ast.expr], Any],
) -> None:
    """Make the kernels the script's functions make from their arguments and locals, for the values its own
    calls give (`factories`, `call_values`), each call at most once; those it cannot make go to `made.unmade`."""
    made = FactoryKernels() if made is None else made
    plans = factories.plans(tree, text, path, lambda expr: _is_kernel_decorator(expr, evaluate))
    if not plans:
        return
    here = os.path.realpath(path)
    digests: dict[int, set[str]] = {}  # first line -> closure digests of the kernels made from that definition
    existing = _kernels_with([resolver.namespace])
    for kernel in existing:
        code = getattr(kernel.func, "__code__", None)
        if code is not None and os.path.realpath(code.co_filename) == here:
            digests.setdefault(code.co_firstlineno, set()).add(identity.made_with(kernel.func))
            made.loaded.append(kernel)

    for plan in plans:
        known = digests.setdefault(plan.first_line, set())
        try:
            bindings = resolver.bindings(plan)
        except call_values.Unresolved as e:
            if not known:
                made.unmade.append((plan.first_line, plan.qualname, str(e)[:500]))
            continue
        except Exception as e:  # a bug of ours: this kernel's reason, not the script's
            made.unmade.append((plan.first_line, plan.qualname, f"internal error: {type(e).__name__}: {e}"[:500]))
            continue
        why = None
        for binding in bindings:
            try:
                kernel = call_values.make(plan, binding, resolver, _applied)
            except call_values.Unresolved as e:
                why = why or str(e)
                continue
            if not isinstance(kernel, wp.Kernel):
                why = why or f"{binding.call} made a {type(kernel).__name__}, not a kernel"
                continue
            if any(kernel is k for k in (*existing, *made.kernels)):
                continue  # Warp gave back a kernel it had (`module="unique"` with the same values)
            made.kernels.append(kernel)
            digest = identity.made_with(kernel.func)
            if digest in known:  # the script's load (or another call) made this one already
                made.redundant.add(id(kernel))
                continue
            known.add(digest)
            made.calls[id(kernel)] = binding.call
        if not known and why is not None:
            made.unmade.append((plan.first_line, plan.qualname, why[:500]))


def _imported_functions(tree: ast.Module, path: str) -> Iterator[tuple[Any, str, str]]:
    """(module, function name, how the script spells it) for each function the script's top level imports by
    name from a module loaded from its own folder or below (`from common.kernel_utils import make_scaler`,
    `import helpers as h` then `h.make_x`); a module elsewhere (Warp, numpy) is no script of the folder."""
    folder = os.path.realpath(os.path.dirname(path))
    top = {id(stmt) for stmt in tree.body}
    for stmt in ast.walk(tree):
        pairs: list[tuple[str, str | None, str]] = []  # (module, name or None for every name, spelled prefix)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            # `ops = importlib.import_module("sibling_ops")` in `run()`
            call = stmt.value
            if (
                isinstance(call, ast.Call)
                and scripts.called_name(call.func) == "import_module"
                and len(call.args) == 1
                and isinstance(call.args[0], ast.Constant)
                and isinstance(call.args[0].value, str)
            ):
                pairs = [(call.args[0].value, None, stmt.targets[0].id)]
        elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module:
            pairs = [(stmt.module, a.name, a.asname or a.name) for a in stmt.names if a.name != "*"]
            module = sys.modules.get(stmt.module)
            if any(a.name == "*" for a in stmt.names) and module is not None:
                # `from kfactory import *`: the names it binds, its `__all__` or its public names
                public = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
                pairs += [(stmt.module, n, n) for n in public if isinstance(n, str)]
        elif isinstance(stmt, ast.Import):
            pairs = [(a.name, None, a.asname or a.name) for a in stmt.names if a.asname or "." not in a.name]
        for module_name, name, spelled in pairs:
            if id(stmt) not in top and module_name not in sys.modules:
                _import_sibling(module_name, folder)  # imported where the script's load does not run (`run()`)
            module = sys.modules.get(module_name)
            if not _in_folder(module, folder):
                continue
            member = getattr(module, name, None) if name is not None else None
            if name is not None and not inspect.ismodule(member):
                yield from _defined_where(module, name, spelled, folder)
                continue
            if inspect.ismodule(member):  # `from common import builders as B`, then `B.make_clamp(...)`
                module = member
                if not _in_folder(module, folder):
                    continue
            for attr, value in vars(module).items():
                if inspect.isfunction(value):
                    # a package's re-export (`from .builders import make_damp` in `common/__init__.py`) is the
                    # function of its own module, called as `common.make_damp(...)`
                    yield from _defined_where(module, attr, f"{spelled}.{attr}", folder)


def _in_folder(module: Any, folder: str) -> bool:
    file = getattr(module, "__file__", None)
    return module is not None and bool(file) and os.path.realpath(file).startswith(folder + os.sep)


def _defined_where(module: Any, name: str, spelled: str, folder: str) -> Iterator[tuple[Any, str, str]]:
    """(the module defining `module.name`, its name there, `spelled`): `module` itself for its own function (or
    a name that is no function), else the module of the folder the function comes from (a package's
    `__init__.py` re-exporting `from .builders import make_damp`); nothing for a function from elsewhere."""
    value = getattr(module, name, None)
    if not inspect.isfunction(value) or value.__module__ == module.__name__:
        yield module, name, spelled
        return
    home = sys.modules.get(value.__module__)
    if _in_folder(home, folder) and getattr(home, value.__name__, None) is value:
        yield home, value.__name__, spelled


def _import_sibling(name: str, folder: str) -> None:
    """Import the script `name` of `folder` (`folder/name.py`), as the script's own run would where it imports it
    inside a function: the harvest loads every script of the folder anyway, and one a sibling imported first
    still gets its own harvest (`_load`). Nothing for a module that is no file of the folder."""
    file = os.path.join(folder, *name.split(".")) + ".py"
    if not os.path.isfile(file):
        return
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    # as `python sibling.py` would see it: a top-level `parser.parse_args()` there reads no worker's arguments
    argv, sys.argv = sys.argv, [file]
    try:
        # its own harvest meets a failure again, and reports it (a `sys.exit()` at its top level too)
        with contextlib.suppress(Exception, SystemExit):
            importlib.import_module(name)
    finally:
        sys.argv = argv
        if added:
            sys.path.remove(folder)


def _define_imported_factory_kernels(
    tree: ast.Module, path: str, resolver: call_values.Resolver, made: FactoryKernels | None
) -> None:
    """Make the kernels of a sibling module's factories for the values this script's calls give them, where
    the script calls them only where its load does not run (`def run(): make_scaler(s)` under `__main__`):
    the sibling's own harvest sees no call of them. Made as the sibling's own factory kernels are (its text,
    its globals); a factory whose kernel reads a loop of the factory's is left to the sibling."""
    made = FactoryKernels() if made is None else made
    wanted: dict[str, list[tuple[str, str]]] = {}  # sibling's file -> (function name, spelling)
    modules: dict[str, Any] = {}
    for module, name, spelled in _imported_functions(tree, path):
        file = os.path.realpath(module.__file__)
        wanted.setdefault(file, []).append((name, spelled))
        modules[file] = module
    for file, names in wanted.items():
        module = modules[file]
        text = _script_text(file)
        sibling_tree = ast.parse(text, file)
        flags = scripts.future_flags(sibling_tree)
        evaluate = _evaluator(file, vars(module), flags)
        top = {n.name: n for n in sibling_tree.body if isinstance(n, ast.FunctionDef)}
        plans = factories.plans(
            sibling_tree, text, file, lambda expr, evaluate=evaluate: _is_kernel_decorator(expr, evaluate)
        )
        maker = call_values.Resolver(sibling_tree, file, vars(module), _allowed_call)
        known = {identity.made_with(k.func) for k in made.kernels}
        for plan in plans:
            spellings = [s for n, s in names if top.get(n) is plan.factory]
            if not spellings or plan.loops or plan.problem is not None:
                continue
            bindings = []
            for spelled in dict.fromkeys(spellings):  # `so.make_wrap` in one function, `ops.make_wrap` in another
                resolver.imported[id(plan.factory)] = spelled
                try:
                    bindings += resolver.bindings(plan)
                except call_values.Unresolved:
                    continue  # the sibling's own harvest gives its reason
                finally:
                    del resolver.imported[id(plan.factory)]
            for binding in bindings:
                try:
                    kernel = call_values.make(plan, binding, maker, _applied)
                except call_values.Unresolved:
                    continue
                digest = identity.made_with(kernel.func) if isinstance(kernel, wp.Kernel) else None
                if digest is None or digest in known:
                    continue
                known.add(digest)
                made.kernels.append(kernel)
                made.calls[id(kernel)] = binding.call


def _applied(qualname: str, decorator: Any) -> Callable[[Any], Any]:
    """How `call_values.make` defines a factory's kernel: its own Warp decorator, under the factory call's
    qualname; a definition under another decorator is refused."""
    if not _is_warp_decorator(decorator):
        raise call_values.Unresolved(f"{qualname} is decorated with {call_values.describe(decorator)}, not Warp")

    def apply(func: Any) -> Any:
        func.__qualname__ = qualname
        return decorator(func)

    return apply


def _overload_launched_generics(tree: ast.Module, path: str, resolver: call_values.Resolver) -> None:
    """Specialise the script's generic kernels for the types its launches give them where its load did not
    launch (under `__main__`, in `main()`): Warp makes an overload of a generic kernel at each launch with
    new argument types (`wp.launch(scale, inputs=[wp.zeros(n, dtype=dt), dt(2.0)])` in a loop over dtypes).
    Each `Any` argument's type is read off the script's text (`call_values.dtype_expression`), values of a
    loop taken together; an array keeps the dimension count its annotation declares. A launch with an
    argument whose type cannot be read gives nothing (the harvest then picks one, `_chosen_overload`)."""
    here = os.path.realpath(path)
    for call, kernel_expr, args in call_values.launches(tree):
        kernel = resolver.namespace.get(kernel_expr.id) if isinstance(kernel_expr, ast.Name) else None
        if not isinstance(kernel, wp.Kernel) or not kernel.is_generic:
            continue
        if os.path.realpath(kernel.func.__code__.co_filename) != here or len(args) != len(kernel.adj.args):
            continue
        generic = [
            (arg, param)
            for arg, param in zip(args, kernel.adj.args, strict=True)
            if param.type is Any or (warp_session.is_plain_array_type(param.type) and param.type.dtype is Any)
        ]
        exprs = [call_values.dtype_expression(resolver, arg, call) for arg, _ in generic]
        if not generic or any(e is None for e in exprs):
            continue
        for values in call_values.joint_values(resolver, exprs, call):  # type: ignore[arg-type]
            if not all(isinstance(v, type) and warp_session.is_warp_type(v) for v in values):
                continue
            types = {param.label: param.type for param in kernel.adj.args}
            for (_, param), value in zip(generic, values, strict=True):
                types[param.label] = value if param.type is Any else wp.array(dtype=value, ndim=param.type.ndim)
            try:
                wp.overload(kernel, types)
            except Exception:  # types Warp refuses for this kernel: the script's launch would fail too
                continue


def _keep_half_made(name: str) -> None:
    """Put back in `sys.modules` what a module imported by name had made when its import was cut: Python
    drops a module whose import raised, and the source of its classes (a kernel's `@wp.struct`) is found
    through `sys.modules[cls.__module__].__file__`. Its kernels' globals are the module's own namespace."""
    if name in sys.modules:
        return
    for kernel in warp_session.live_kernels():
        namespace = getattr(kernel.func, "__globals__", None)
        if namespace is not None and namespace.get("__name__") == name:
            module = types.ModuleType(name)
            module.__dict__.update(namespace)
            sys.modules[name] = module
            return


def _kernels_with(namespaces: Iterable[dict[str, Any]]) -> list[Any]:
    """Every live kernel: those of Warp's registry, and those of the modules it does not list (a script's own
    `wp.Module("name")`) that a kernel named in `namespaces` (scripts' globals) belongs to."""
    kernels = warp_session.live_kernels()
    listed = {id(k.module) for k in kernels}
    unlisted = {
        id(v.module): v.module
        for namespace in namespaces
        for v in list(namespace.values())
        if isinstance(v, wp.Kernel) and id(v.module) not in listed
    }
    return kernels + warp_session.module_kernels(unlisted.values())


class _OverTime(BaseException):
    """A soft time limit ran out (not an Exception: the imported code's `except Exception` cannot eat it)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise `_OverTime` in this (main) thread after `seconds`: a hang in Python code is cut without
    losing the worker; a hang in native code is left to the executor's time limit, which kills it.

    A timer thread sends SIGUSR1 rather than arming SIGALRM: a script's own statements are timed with
    SIGALRM (`_load_from_path`), and one process has one alarm.
    """
    armed = True

    def over(signum: int, frame: Any) -> None:
        if armed:
            raise _OverTime

    previous = signal.signal(signal.SIGUSR1, over)
    timer = threading.Timer(seconds, signal.pthread_kill, (threading.main_thread().ident, signal.SIGUSR1))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        armed = False
        timer.cancel()
        signal.signal(signal.SIGUSR1, previous)


@dataclass(frozen=True)
class FileItem:
    """One file of a harvest: what an executor worker needs to harvest it."""

    config: str  # the harvest's targets and arch, as JSON: one `Worker` per config in a worker process
    scratch: str  # the harvest's scratch folder: claims and streamed results
    job: int  # the file's position in the harvest's job list
    module: str
    path: str | None  # a script of a folder that is not a package: loaded from here under `module`
    import_timeout: float
    kernel_timeout: float


def results_dir(scratch: str | Path, job: int) -> Path:
    return Path(scratch) / "results" / str(job)


def claimed_path(scratch: str | Path, job: int) -> Path:
    """The kernels a file's item has claimed so far (written once its import is done)."""
    return Path(scratch) / "claimed" / f"{job}.json"


def announced_path(scratch: str | Path, job: int) -> Path:
    """The kernels a file's import announced: those it would claim, unless another item does first."""
    return Path(scratch) / "announced" / f"{job}.json"


def _claim(scratch: str, ident: str) -> bool:
    """True for the first item that asks for `ident` in this harvest, on any worker."""
    path = Path(scratch) / "claims" / hashlib.sha1(ident.encode()).hexdigest()
    try:
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


_workers: dict[str, Worker] = {}


def script_working_directory(scratch: str | Path, script: str) -> Path:
    """The working directory a script of `scratch`'s harvest runs in: a folder of the scratch holding copies
    (not links: a script that writes to such a file leaves the user's alone) of the data files of the script's
    own folder (`paths.data_files`), made once per folder per harvest (another worker may make it at the same
    time: the first complete copy to be renamed into place wins)."""
    source = Path(os.path.realpath(os.path.dirname(os.path.abspath(script))))
    target = Path(scratch) / "cwd" / hashlib.sha1(str(source).encode()).hexdigest()[:16]
    if target.is_dir():
        return target
    partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=Path(scratch) / "cwd"))
    for rel in data_files(source):
        (partial / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / rel, partial / rel)
    try:
        partial.rename(target)
    except OSError:  # another worker's copy is in place
        shutil.rmtree(partial, ignore_errors=True)
    return target


def harvest_file(item: FileItem) -> dict[str, Any]:
    """Import `item.module`, claim the kernels no item claimed before, process them; each kernel's
    result is written under `results_dir` as it is known. Returns the import's reason, if any."""
    out = results_dir(item.scratch, item.job)
    out.mkdir(parents=True, exist_ok=True)
    sequence = iter(range(1 << 30))

    def send(message: dict[str, Any]) -> None:
        atomic_write(out / f"{next(sequence):06d}.json", json.dumps(message).encode())

    worker = _workers.get(item.config)
    if worker is None:
        warp_session.init_warp()
        # The workers share Warp's kernel cache, and a file that clears it at import (Warp's benchmarks and
        # test files do) would remove the build folder of a module another worker is compiling.
        warp_session.keep_shared_kernel_cache()
        worker = _workers[item.config] = Worker(json.loads(item.config), send)
    worker.send = send
    # A script runs in a folder of the harvest's own: what it writes to its working directory (Warp's tile
    # examples write benchmark.csv) lands in the scratch folder, not in the folder the user built from.
    with contextlib.redirect_stdout(sys.stderr), warp_session.silenced_fd(1), warp_session.silenced_fd(2):
        cwd = script_working_directory(item.scratch, item.path) if item.path is not None else None
        with working_directory(cwd) if cwd is not None else contextlib.nullcontext():
            category, error, idents = worker.do_import(item.module, item.path, item.import_timeout)
        # The kernels are processed under Warp's settings as they were before the import: a file that sets
        # `wp.config.enable_backward = False` after its first kernel left it set while its self-contained texts
        # were loaded, and their modules then differed from the file's (whose options were fixed at its first
        # kernel), or not, depending on which file the worker had processed first.
        warp_session.restore_config(worker.warp_config)
        # The kernels of one file are claimed together just before they are processed, so items whose imports
        # announce the same kernels share them between workers, a file at a time: every file of mujoco-warp
        # imports the whole package, and claiming all its kernels at once left one worker 37 s of them while
        # the other had 7. A file at a time, not a kernel: a worker builds a file's Warp module once for all
        # its kernels (`Worker._original`), and kernel by kernel both workers built most of newton's modules.
        atomic_write(announced_path(item.scratch, item.job), json.dumps(idents).encode())
        claimed, mine = claimed_path(item.scratch, item.job), []
        atomic_write(claimed, b"[]")
        by_file: dict[tuple[str, ...], list[str]] = {}
        for ident in idents:
            by_file.setdefault(tuple(ident.split("|", 2)[:2]), []).append(ident)  # (target, file)
        for group in by_file.values():
            taken = [ident for ident in group if _claim(item.scratch, ident)]
            if not taken:
                continue
            mine += taken
            atomic_write(claimed, json.dumps(mine).encode())
            for ident in taken:
                worker.do_process(ident, item.kernel_timeout)
    return {"category": category, "error": error}
