"""What to harvest: an installed package (or subpackage) or a folder of `.py` files -> import jobs + provenance.

Nothing here imports the code: packages are found with `importlib.util.find_spec` on the top-level name
(a dotted name imports its parents, as Python must), folders are only listed. The worker imports.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import keyword
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from warp_cuda_ir.engines import shared_temp_dir
from warp_cuda_ir.errors import warn_once
from warp_cuda_ir.harvest.paths import file_in_target
from warp_cuda_ir.harvest.reasons import TargetError

# Folders that never hold the harvested project's own modules.
_SKIP_DIRS = {"__pycache__", ".git", ".hg", ".svn", ".tox", ".venv", "venv", "node_modules", "build", "dist"}

# License strings of older metadata (`License:` or a classifier) mapped to SPDX identifiers.
_SPDX = {
    "apache-2.0": "Apache-2.0",
    "apache 2.0": "Apache-2.0",
    "apache license 2.0": "Apache-2.0",
    "apache software license": "Apache-2.0",
    "apache license, version 2.0": "Apache-2.0",
    "mit": "MIT",
    "mit license": "MIT",
    "bsd license": "BSD-3-Clause",
    "bsd-3-clause": "BSD-3-Clause",
    "bsd-2-clause": "BSD-2-Clause",
}


@dataclass(frozen=True)
class Job:
    """Import one module of one target: by name, or from its file under that name (`path` set)."""

    target: int  # index into the harvest's targets
    module: str  # the module's name in sys.modules
    file: str  # path inside the target (provenance of import failures)
    path: str | None = None  # load this file under `module` instead of importing `module` by name


@dataclass
class Target:
    spec: str  # as the user named it
    kind: str  # "package" | "folder"
    root: Path  # directory whose .py files are the target's (package dir or folder)
    base: Path  # provenance paths are relative to this (site-packages for a package, the folder itself)
    sys_path: str  # put on sys.path in workers so its modules import by name
    package: str  # provenance: distribution name (package) or folder name
    version: str | None
    license: str | None  # SPDX expression
    notices: dict[str, str] = field(default_factory=dict)  # file name -> text (LICENSE, NOTICE, ...)
    jobs: list[Job] = field(default_factory=list)
    skipped_files: list[tuple[str, str]] = field(default_factory=list)  # (file, reason)

    def relpath(self, path: str) -> str | None:
        """`path` inside the target, or None when the file is not the target's."""
        return file_in_target(self.root, self.base, path)


def resolve(spec: str, index: int) -> Target:
    """A package name (`newton`, `warp.fem`) or a folder path -> a Target with its import jobs.

    A bare name is the installed package of that name when there is one, even if the working directory holds
    a folder so named: a build resolves its targets in more than one stage, and a folder `warp` that appeared
    in between (Warp's kernel cache put there with `WARP_CACHE_PATH=warp`) turned the default `--real warp`
    from the package into that folder halfway through. `./warp` names the folder.
    """
    path = Path(spec).expanduser()
    if os.sep in spec or spec.startswith((".", "~")):
        return _folder(spec, path, index)
    if path.is_dir():
        if not _installed_elsewhere(spec, path):
            return _folder(spec, path, index)
        warn_once(
            f"--real {spec}: names an installed package and a folder here; the package is harvested "
            f"(write ./{spec} for the folder)"
        )
    return _package(spec, index)


def _installed_elsewhere(name: str, folder: Path) -> bool:
    """Whether `name` imports as a package other than `folder` (which imports by that name when the working
    directory is on `sys.path`, as under `python -m`)."""
    try:
        spec = importlib.util.find_spec(name.split(".")[0])
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    places = list(spec.submodule_search_locations or []) or [os.path.dirname(spec.origin or "")]
    return all(os.path.realpath(p) != os.path.realpath(folder) for p in places)


def _package(name: str, index: int) -> Target:
    top, *inner = name.split(".")
    try:
        # The top-level name only: finding `a.b` would import `a`, i.e. run the code we are to isolate.
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError) as e:
        raise TargetError(f"--real {name}: not an installed package ({type(e).__name__}: {e})") from e
    if spec is None:
        raise TargetError(f"--real {name}: no installed package or folder of that name")
    if spec.submodule_search_locations:
        location = Path(os.path.realpath(next(iter(spec.submodule_search_locations)))).joinpath(*inner)
    elif spec.origin and spec.origin.endswith(".py") and not inner:
        location = Path(os.path.realpath(spec.origin))
    else:
        raise TargetError(f"--real {name}: not a Python source package ({spec.origin})")
    if location.is_dir():
        root, files, is_package = location, _python_files(location), True
    elif location.with_suffix(".py").is_file() or location.suffix == ".py":
        file = location if location.suffix == ".py" else location.with_suffix(".py")
        root, files, is_package = file.parent, [file], False
    else:
        raise TargetError(f"--real {name}: {top} is installed but has no module {name}")
    depth = name.count(".") + (1 if is_package else 0)
    base = root
    for _ in range(depth):
        base = base.parent
    dist = _distribution(top)
    target = Target(
        spec=name,
        kind="package",
        root=root,
        base=base,
        sys_path=str(base),
        package=dist.metadata["Name"] if dist else top,
        version=dist.version if dist else None,
        license=_license(dist) if dist else None,
        notices=_notices(dist) if dist else {},
    )
    for f in files:
        parts = list(f.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        module = ".".join([name, *parts]) if is_package else name
        _add_job(target, index, module, f)
    if not target.jobs:
        raise TargetError(f"--real {name}: the package has no Python source files")
    return target


def _package_link(root: Path) -> Path:
    """A folder in the temporary folder holding one link, named like the package, to `root`: one per package
    folder and user, made once and reused (a fresh folder per discovery piled up in /tmp: the harvest, every
    capture job's plan and every replay discover the folder again)."""
    digest = hashlib.sha1(str(root).encode()).hexdigest()[:16]
    folder = shared_temp_dir() / f"warp_cuda_ir_package_{os.getuid()}_{digest}"
    link = folder / root.name
    if link.is_symlink() and os.path.realpath(link) == str(root):
        return folder
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        if folder.is_symlink() or folder.stat().st_uid != os.getuid():
            raise PermissionError(folder)
        staged = folder / f".{root.name}.{os.getpid()}"  # the link appears whole: others may read it now
        staged.unlink(missing_ok=True)
        staged.symlink_to(root, target_is_directory=True)
        os.replace(staged, link)
    except OSError:  # not ours, or not writable: a folder of this discovery's own
        folder = Path(tempfile.mkdtemp(prefix="warp_cuda_ir_package_"))
        (folder / root.name).symlink_to(root, target_is_directory=True)
    return folder


def _folder(spec: str, path: Path, index: int) -> Target:
    if not path.exists():
        raise TargetError(f"--real {spec}: no such folder, and no installed package of that name")
    if not path.is_dir():
        raise TargetError(f"--real {spec}: not a folder")
    root = Path(os.path.realpath(path))
    files = _python_files(root)
    if not files:
        raise TargetError(f"--real {spec}: the folder holds no .py files")
    # A folder that is itself a package imports as `<folder>.<module>` from its parent, so that its
    # relative imports work; otherwise its files are top-level modules (and subfolders namespaces).
    is_package = (root / "__init__.py").exists()
    sys_path = root
    if is_package:
        # Its parent folder may hold modules that shadow the standard library (`warp/types.py` beside
        # `warp/examples/`): put only this package on the path, through a link in a folder of its own.
        sys_path = _package_link(root)
    license_files = {p.name: p.read_text(errors="replace") for p in sorted(root.iterdir()) if _is_notice(p.name)}
    target = Target(
        spec=spec,
        kind="folder",
        root=root,
        base=root,
        sys_path=str(sys_path),
        package=root.name,
        version=None,
        license=None,
        notices=license_files,
    )
    for f in files:
        parts = list(f.relative_to(root.parent if is_package else root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if not parts:
            continue
        module = ".".join(parts)
        # `kernels.v2.py` is no module `kernels.v2`: each part of the path must be a name of its own.
        named = all(_importable_part(p) for p in parts)
        rel = target.relpath(str(f)) or f.name
        if is_package:
            # A folder with an `__init__.py` (there for pytest or an editor as often as for imports) is still
            # a folder of scripts: each file runs as `python file.py` runs it (`import chain_b` beside
            # `chain_b.py` works, the kernels of a branch not taken are found), under its module name in the
            # package where it has one, so that its relative imports and a sibling's `import pkg.mod` work,
            # else under a name no import statement can spell (`001.py`).
            name = module if named else script_module_name(rel)
        else:
            # A folder of scripts is run file by file (`python 001.py`, runpy, pytest): each file is loaded
            # from its path (see the worker), under its own name where it has one (a sibling's `import` then
            # shares the module), else under a name no import statement can spell (`001.py`, `cloth-sim.py`).
            # A file named as a module of the standard library (`random.py`) is not that module: the worker
            # imported the standard one long before, so under that name the script would never run. Nor is a
            # top-level `__main__.py` (what `python folder` runs) the module `__main__`: that is the worker's own.
            shadows = module.split(".")[0] in sys.stdlib_module_names or module == "__main__"
            name = module if named and not shadows else script_module_name(rel)
        target.jobs.append(Job(index, name, rel, str(f)))
    return target


def script_module_name(rel: str) -> str:
    """The module name a script that has no importable name is loaded under (`02-particles.py` ->
    `__wci_script_02_particles_<hash>__`): valid, unique per path, and beyond any `import` statement."""
    stem = "".join(c if c.isalnum() else "_" for c in Path(rel).with_suffix("").as_posix())
    digest = hashlib.sha256(rel.encode()).hexdigest()[:8]
    return f"__wci_script_{stem}_{digest}__"


def _importable(module: str) -> bool:
    return all(_importable_part(p) for p in module.split("."))


def _importable_part(part: str) -> bool:
    return part.isidentifier() and not keyword.iskeyword(part)


def _add_job(target: Target, index: int, module: str, file: Path) -> None:
    rel = target.relpath(str(file)) or file.name
    if not _importable(module):
        target.skipped_files.append((rel, "file name is not an importable module name"))
        return
    target.jobs.append(Job(index, module, rel))


def _python_files(root: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS and not d.startswith("."))
        out += [Path(dirpath) / f for f in sorted(filenames) if f.endswith(".py")]
    return out


def _distribution(top: str) -> importlib.metadata.Distribution | None:
    names = importlib.metadata.packages_distributions().get(top, [])
    for name in names:
        try:
            return importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _license(dist: importlib.metadata.Distribution) -> str | None:
    """SPDX expression from the distribution's metadata (License-Expression, License, classifiers)."""
    meta = dist.metadata
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    text = (meta.get("License") or "").strip()
    if text and "\n" not in text and len(text) < 80:
        return _SPDX.get(text.lower(), text)
    for classifier in meta.get_all("Classifier") or []:
        if classifier.startswith("License ::"):
            leaf = classifier.split("::")[-1].strip().lower()
            if leaf in _SPDX:
                return _SPDX[leaf]
    return None


def _is_notice(name: str) -> bool:
    upper = name.upper()
    return upper.startswith(("LICENSE", "LICENCE", "NOTICE", "COPYING", "AUTHORS"))


def _notices(dist: importlib.metadata.Distribution) -> dict[str, str]:
    """LICENSE/NOTICE texts the distribution ships in its .dist-info (PEP 639 `licenses/` included)."""
    out: dict[str, str] = {}
    for f in dist.files or []:
        parts = Path(str(f)).parts
        if not parts or not parts[0].endswith(".dist-info"):
            continue
        inner = Path(*parts[1:])
        if inner.parts and (inner.parts[0] == "licenses" or (len(inner.parts) == 1 and _is_notice(inner.name))):
            try:
                out[inner.as_posix().removeprefix("licenses/")] = f.read_text() or ""
            except (OSError, UnicodeDecodeError):
                continue
    return dict(sorted(out.items()))
