"""Publishing: a finished dataset folder -> one commit on the Hugging Face Hub.

Before anything is sent, the folder must load with every config through `load_dataset` and its
README must describe its files. Everything then goes up in a single `create_commit`, so a failure
half-way leaves the repo as it was. The Hub client is passed in (`HubClient`): the scripts pass an
`HfApi`, the tests a recorder. We write the README ourselves rather than use `Dataset.push_to_hub`,
which mis-edits the YAML of multi-config repos in datasets 5.2.
"""

from __future__ import annotations

import fnmatch
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import datasets
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, get_token
from huggingface_hub.errors import HfHubHTTPError, HFValidationError
from huggingface_hub.utils import validate_repo_id

from warp_cuda_ir import card, schema, writing
from warp_cuda_ir.errors import PublishError, one_line
from warp_cuda_ir.readback import read_back
from warp_cuda_ir.record import BuildRecord

REPO_TYPE = "dataset"
# What the Hub client raises when the network or the server fails: OSError covers connection and
# offline-mode errors; HfHubHTTPError's bases include the HTTP library's own error class.
NETWORK_ERRORS: tuple[type[BaseException], ...] = (OSError, *HfHubHTTPError.__bases__)


class HubClient(Protocol):
    """The part of `huggingface_hub.HfApi` publishing uses."""

    def create_repo(self, repo_id: str, *, repo_type: str, private: bool, exist_ok: bool) -> Any: ...

    def create_branch(self, repo_id: str, *, branch: str, repo_type: str, exist_ok: bool) -> Any: ...

    def list_repo_files(self, repo_id: str, *, repo_type: str, revision: str | None) -> list[str]: ...

    def create_commit(
        self,
        repo_id: str,
        operations: Iterable[CommitOperationAdd | CommitOperationDelete],
        *,
        commit_message: str,
        repo_type: str,
        revision: str | None,
    ) -> Any: ...


@dataclass(frozen=True)
class Upload:
    """Exactly what one push sends: the folder's dataset files, with the card rendered for the repo."""

    repo_id: str
    folder: Path
    files: tuple[str, ...]  # paths relative to the folder, which are also the paths in the repo
    card: bytes  # README.md as uploaded: the folder's card, its load examples naming `repo_id`
    left_out: tuple[str, ...]  # what the folder holds that is not part of the dataset
    rows_per_split: dict[str, int]  # splits with rows
    rows_per_source: dict[str, dict[str, int]] = field(default_factory=dict)  # source -> splits with rows
    # source -> split -> rows without backward texts (left out of the backward configs)
    forward_only_per_source: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def num_rows(self) -> int:
        return sum(self.rows_per_split.values())

    def size(self, path: str) -> int:
        return len(self.card) if path == writing.CARD else (self.folder / path).stat().st_size

    def additions(self) -> list[CommitOperationAdd]:
        return [
            CommitOperationAdd(path_in_repo=p, path_or_fileobj=self.card if p == writing.CARD else self.folder / p)
            for p in self.files
        ]


def check_repo_id(repo_id: str) -> str:
    """`ORG/NAME` as the Hub accepts it, else PublishError."""
    try:
        validate_repo_id(repo_id)
    except HFValidationError as e:
        raise PublishError(f"invalid repo id {repo_id!r}: {one_line(e)}") from None
    if repo_id.count("/") != 1:
        raise PublishError(f"invalid repo id {repo_id!r}: expected ORG/NAME, e.g. my-org/warp_cuda_ir")
    return repo_id


def require_token() -> str:
    """The token from HF_TOKEN or the saved login. It is passed to the client, never shown."""
    token = get_token()
    if not token:
        raise PublishError("no Hugging Face token: set HF_TOKEN or run `hf auth login` (a token with write access)")
    return token


def plan(folder: Path, repo_id: str) -> Upload:
    """Check the folder is a complete build whose card matches its files; list what would be sent."""
    check_repo_id(repo_id)
    if not folder.is_dir():
        raise PublishError(f"{folder} is not a folder")
    record = BuildRecord.load(folder)
    if record is None:
        raise PublishError(f"{folder} has no {writing.MANIFEST}: not a finished build (run scripts/build.py)")
    files = sorted(record.owned())
    missing = [f for f in files if not (folder / f).is_file()]
    if missing:
        raise PublishError(f"{folder} is incomplete: {missing[0]} is missing (rerun the build to finish it)")
    scripts = [f for f in files if "/" not in f and f.endswith(".py")]
    if scripts:  # the Hub refuses to load a dataset repo with a script at its root
        raise PublishError(f"{folder} lists a Python file at its root ({scripts[0]}); it must not be uploaded")
    foreign_data = sorted(
        p.relative_to(folder).as_posix() for p in (folder / writing.DATA_DIR).rglob("*") if p.is_file()
    )
    foreign_data = [p for p in foreign_data if p not in files]
    if foreign_data:
        raise PublishError(
            f"{folder / foreign_data[0]} was not written by the build but sits among the data files "
            "the configs read; move it out of data/"
        )
    readback = read_back(folder)  # the one read of the data files a publish makes
    problems = card.verify(folder, readback)
    if problems:
        raise PublishError(
            f"{folder / writing.CARD} does not match the files: {problems[0]}; "
            "rerun the build command to render it again"
        )
    rendered = card.render(record, readback, repo_id).encode()
    left_out = sorted(
        p.name + ("/" if p.is_dir() else "") for p in folder.iterdir() if p.name not in {f.split("/")[0] for f in files}
    )
    rows = {split: n for split, n in readback.rows_per_split.items() if n}
    per_source = {s: {split: n for split, n in by.items() if n} for s, by in readback.rows_per_source.items()}
    forward_only = {s: {split: n for split, n in by.items() if n} for s, by in readback.forward_only_rows.items()}
    return Upload(repo_id, folder, tuple(files), rendered, tuple(left_out), rows, per_source, forward_only)


def check_loads(
    folder: Path,
    expected: dict[str, int],
    per_source: dict[str, dict[str, int]] | None = None,
    forward_only: dict[str, dict[str, int]] | None = None,
) -> dict[str, dict[str, int]]:
    """Load every config with `load_dataset` (as a Hub user would); return rows per config and split.

    `expected`: rows per split the files hold (splits without rows left out); `per_source`: the same per
    source, for the `real`/`synthetic` configs (a source without rows has no config in the card); `forward_only`:
    per source, the rows the backward configs leave out. Loading enforces the card's `dataset_info` (features,
    split sizes), so a stale card fails here too.
    """
    loaded: dict[str, dict[str, int]] = {}
    bars_were_on = not datasets.utils.are_progress_bars_disabled()
    datasets.disable_progress_bars()  # five configs' bars would bury the one line that matters
    with tempfile.TemporaryDirectory(prefix="warp_cuda_ir_check_") as cache:
        try:
            for config in schema.CONFIGS:
                want = expected if config.source is None else (per_source or {}).get(config.source, {})
                if config.backward_only:
                    want = dict(want)
                    for by in (forward_only or {}).values():
                        for split, n in by.items():
                            want[split] = want.get(split, 0) - n
                    want = {split: n for split, n in want.items() if n}
                if not want:  # e.g. `real` in a build without real rows: the card does not list it
                    continue
                loaded[config.name] = _load_rows(folder, config.name, cache)
                if loaded[config.name] != want:
                    raise PublishError(
                        f"config {config.name!r} loads {loaded[config.name]} rows, the files hold {want}"
                    )
        finally:
            if bars_were_on:
                datasets.enable_progress_bars()
    return loaded


def _load_rows(folder: Path, config: str, cache: str) -> dict[str, int]:
    try:
        ds = datasets.load_dataset(str(folder), config, cache_dir=cache)
    except Exception as e:  # whatever the reason, the folder is not publishable
        raise PublishError(
            f"{folder} does not load with config {config!r}: {type(e).__name__}: {one_line(e)}"
        ) from None
    return {split: ds[split].num_rows for split in ds}


def stale_files(remote: Iterable[str], upload: Upload) -> list[str]:
    """Remote files the configs' `data/<split>-*` patterns would read that this upload does not replace.

    They are left over from an earlier, differently sharded push; kept, they would add rows.
    """
    patterns = [
        writing.split_pattern(split, source, part)
        for split in schema.SPLITS
        for source in schema.SOURCES
        for part in (False, True)
    ]
    patterns += [f"{writing.DATA_DIR}/{split}-*" for split in schema.SPLITS]  # shards of the layout before 1.3
    return sorted(p for p in remote if p not in upload.files and any(fnmatch.fnmatchcase(p, pat) for pat in patterns))


def default_commit_message(upload: Upload) -> str:
    return f"Upload warp_cuda_ir: {upload.num_rows:,} rows"


def push(
    upload: Upload,
    api: HubClient,
    *,
    private: bool = False,
    revision: str | None = None,
    commit_message: str | None = None,
    token: str | None = None,
) -> str:
    """Send `upload` as one commit (creating the repo or branch if needed); return the commit URL.

    `token` is only used to scrub it from error messages.
    """
    repo_id = upload.repo_id
    try:
        api.create_repo(repo_id, repo_type=REPO_TYPE, private=private, exist_ok=True)
        if revision and not revision.startswith("refs/"):
            api.create_branch(repo_id, branch=revision, repo_type=REPO_TYPE, exist_ok=True)
        remote = api.list_repo_files(repo_id, repo_type=REPO_TYPE, revision=revision)
        scripts = [p for p in remote if "/" not in p and p.endswith(".py")]
        if scripts:
            raise PublishError(
                f"{repo_id} holds a dataset script at its root ({scripts[0]}), which stops load_dataset "
                "from loading it; delete it on the Hub first"
            )
        operations = [*upload.additions(), *(CommitOperationDelete(p) for p in stale_files(remote, upload))]
        info = api.create_commit(
            repo_id,
            operations,
            commit_message=commit_message or default_commit_message(upload),
            repo_type=REPO_TYPE,
            revision=revision,
        )
    except NETWORK_ERRORS as e:
        raise PublishError(_scrub(_network_message(repo_id, e), token)) from None
    return str(getattr(info, "commit_url", info))


def _network_message(repo_id: str, error: BaseException) -> str:
    status = getattr(getattr(error, "response", None), "status_code", None)
    if status == 401:
        return f"the Hub refused the token for {repo_id} (401): set HF_TOKEN or run `hf auth login` again"
    if status == 403:
        return f"the token has no write access to {repo_id} (403): use a token with write permission"
    return (
        f"upload to {repo_id} failed ({type(error).__name__}: {one_line(error)}); "
        "no partial commit was made (the upload is a single commit): run the same command again to retry"
    )


def _scrub(message: str, token: str | None) -> str:
    return message.replace(token, "<token>") if token else message


def publish(
    folder: Path,
    repo_id: str,
    *,
    private: bool = False,
    revision: str | None = None,
    commit_message: str | None = None,
    dry_run: bool = False,
    api: HubClient | None = None,
    say: Callable[[str], None] = print,
) -> None:
    """Check the folder, then push it (or, with `dry_run`, say what would be pushed and change nothing).

    `api`: the Hub client; by default an `HfApi` holding the user's token. Raises PublishError.
    """
    check_repo_id(repo_id)
    token = require_token() if api is None and not dry_run else None
    upload = plan(folder, repo_id)
    loaded = check_loads(folder, upload.rows_per_split, upload.rows_per_source, upload.forward_only_per_source)
    say(f"checked {folder}: loads with every config ({', '.join(loaded)}); the card matches the files")
    if dry_run:
        for line in describe(upload, private, revision, commit_message):
            say(line)
        if api is None and not get_token():
            say("note: no Hugging Face token found; the real push needs HF_TOKEN or `hf auth login`")
        return
    if api is None:
        from huggingface_hub import HfApi

        api = HfApi(token=token)
    url = push(upload, api, private=private, revision=revision, commit_message=commit_message, token=token)
    say(f"pushed {upload.num_rows:,} rows to https://huggingface.co/datasets/{repo_id} in one commit: {url}")
    say(f'  load it: datasets.load_dataset("{repo_id}", "cuda_forward")')


def describe(upload: Upload, private: bool, revision: str | None, commit_message: str | None) -> list[str]:
    """The dry run's report: every file that would be sent, with its size, and the commit."""
    total = sum(upload.size(p) for p in upload.files)
    where = upload.repo_id + (f"@{revision}" if revision else "") + (" (private if created)" if private else "")
    lines = [f"dry run: would upload {len(upload.files)} files ({total / 1e6:.1f} MB) to {where} in one commit:"]
    for path in upload.files:
        note = "  (load examples name the repo)" if path == writing.CARD else ""
        lines.append(f"  {path}  {upload.size(path):,} bytes{note}")
    lines.append(f"  commit message: {commit_message or default_commit_message(upload)}")
    lines.append("  remote data/ files that the configs would read and this upload does not replace: deleted")
    if upload.left_out:
        lines.append(f"  not uploaded: {', '.join(upload.left_out)}")
    lines.append("nothing was changed")
    return lines
