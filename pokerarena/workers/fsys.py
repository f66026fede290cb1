"""Where a run's files live: a local path, or an object store reached through ``pyarrow.fs``.

A data location is a local path (a shared mount is one), a ``file://`` URI (read as the
local path it names) or ``s3://bucket/prefix`` for any S3-compatible store. A local
location keeps its :class:`~pathlib.Path` and every local rule (rename into place, file
locks); an object-store location stays a URI string, and the functions here read,
write, list and delete its objects. The store's endpoint, region and credentials come
from the standard AWS environment variables (``AWS_ENDPOINT_URL_S3`` or
``AWS_ENDPOINT_URL``, ``AWS_REGION`` or ``AWS_DEFAULT_REGION``, ``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, ``AWS_SESSION_TOKEN``), so a worker on any node reaches the
same bucket as its driver without being told more than the URI.

An object is written in one upload (``pyarrow.fs`` makes it a multipart upload), which
an object store shows only once it completes, whole: the object-store counterpart of a
rename into place.
"""

from __future__ import annotations

import contextlib
import functools
import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pyarrow.fs as pafs

from pokerarena.errors import UserError

SCHEMES = ("s3",)
"""The object-store schemes a data location may name."""


class LocationError(UserError):
    """A data location that cannot be used (unknown scheme, no bucket)."""


def is_uri(loc: object) -> bool:
    """True when ``loc`` names an object store (``s3://...``), not a local path."""
    return isinstance(loc, str) and loc.split("://", 1)[0].lower() in SCHEMES and "://" in loc


def data_location(text: str | Path) -> str | Path:
    """``text`` as a data location: a :class:`Path` for a local path or a ``file://``
    URI, the normalized URI (``s3://bucket/prefix``, no trailing slash) for an object
    store; any other scheme is a :class:`LocationError`."""
    if isinstance(text, Path):
        return text
    if "://" not in text:
        return Path(text)
    scheme = text.split("://", 1)[0].lower()
    parts = urlsplit(text)
    if scheme == "file":
        if parts.netloc not in ("", "localhost"):
            raise LocationError(f"{text}: a file:// URI names a local path (file:///path)")
        return Path(parts.path)
    if scheme not in SCHEMES:
        raise LocationError(f"{text}: unknown scheme {scheme!r} (a data location is a "
                            "path, file:///path or s3://bucket/prefix)")
    if not parts.netloc:
        raise LocationError(f"{text}: no bucket (write s3://bucket/prefix)")
    prefix = parts.path.strip("/")
    return f"s3://{parts.netloc}" + (f"/{prefix}" if prefix else "")


def join(loc: str, *names: str) -> str:
    """``loc/name/...`` for a URI."""
    return "/".join([loc.rstrip("/"), *names])


def env_settings() -> tuple[tuple[str, str], ...]:
    """The AWS variables that choose the store (the key of the filesystem cache)."""
    names = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_DEFAULT_REGION",
             "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")
    return tuple((n, os.environ[n]) for n in names if os.environ.get(n))


@functools.lru_cache(maxsize=8)
def _s3(settings: tuple[tuple[str, str], ...]) -> pafs.S3FileSystem:
    env = dict(settings)
    kwargs: dict[str, Any] = {
        "region": env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1",
        "connect_timeout": 10, "request_timeout": 60}
    endpoint = env.get("AWS_ENDPOINT_URL_S3") or env.get("AWS_ENDPOINT_URL")
    if endpoint:
        parts = urlsplit(endpoint if "://" in endpoint else f"https://{endpoint}")
        kwargs["endpoint_override"] = parts.netloc
        kwargs["scheme"] = parts.scheme or "https"
    if env.get("AWS_ACCESS_KEY_ID") and env.get("AWS_SECRET_ACCESS_KEY"):
        # given explicitly, so the SDK never probes an instance-metadata service
        kwargs["access_key"] = env["AWS_ACCESS_KEY_ID"]
        kwargs["secret_key"] = env["AWS_SECRET_ACCESS_KEY"]
        kwargs["session_token"] = env.get("AWS_SESSION_TOKEN")
    return pafs.S3FileSystem(**kwargs)


def resolve(uri: str) -> tuple[pafs.FileSystem, str]:
    """The filesystem of ``uri`` and the path within it (``bucket/key``)."""
    scheme, _, rest = uri.partition("://")
    if scheme.lower() not in SCHEMES:
        raise LocationError(f"{uri}: not an object-store URI")
    return _s3(env_settings()), rest.strip("/")


def read_bytes(uri: str) -> bytes:
    """The object's bytes (FileNotFoundError when there is none)."""
    fs, path = resolve(uri)
    with fs.open_input_stream(path) as f:
        return bytes(f.read())


def write_bytes(uri: str, data: bytes | Any) -> None:
    """Write the object in one PUT: readers see all of it or the object before."""
    fs, path = resolve(uri)
    with fs.open_output_stream(path) as f:
        f.write(data)


def info(uri: str) -> pafs.FileInfo:
    """The object's :class:`pyarrow.fs.FileInfo` (type ``NotFound`` when absent)."""
    fs, path = resolve(uri)
    return fs.get_file_info(path)


def exists(uri: str) -> bool:
    """True when the object exists."""
    return info(uri).type == pafs.FileType.File


def listing(uri: str, recursive: bool = False) -> list[pafs.FileInfo]:
    """What lies below ``uri`` (sorted by path; [] when nothing does)."""
    fs, path = resolve(uri)
    found = fs.get_file_info(pafs.FileSelector(path, allow_not_found=True,
                                               recursive=recursive))
    return sorted(found, key=lambda i: i.path)


def child_names(uri: str) -> list[str]:
    """The names directly below ``uri`` (objects and folders), sorted."""
    return [i.base_name for i in listing(uri)]


def uri_of(uri: str, path: str) -> str:
    """The URI of a filesystem ``path`` found by listing below ``uri``."""
    return f"{uri.partition('://')[0]}://{path}"


def delete(uri: str) -> None:
    """Delete the object; one that is already gone is fine."""
    fs, path = resolve(uri)
    with contextlib.suppress(FileNotFoundError):
        fs.delete_file(path)
