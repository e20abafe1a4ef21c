"""Static files as a deployment expects them: fingerprinted, compressed, cached for a year.

Every file of the static folder gets a second name with a hash of its content in it
(``style.css`` → ``style.3f9a0c12b4de.css``); ``url_for('static', filename='style.css')`` gives that
name, so a changed file gets a new URL. WhiteNoise serves the fingerprinted names with
``Cache-Control: public, max-age=31536000, immutable``, and gzip or brotli where the client takes it
(compressed once, at start). The copies live in the instance folder (``instance/static/``), named
by their content, so gunicorn's workers and later starts share them and nothing is written into the
package. The plain name (``/static/style.css``) still answers, with the current file and ``no-cache``;
an outdated fingerprint is redirected to the current one; an unknown name is Flask's 404.

:func:`static_urls` lists the fingerprinted URLs (what a service worker would precache).
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, current_app, redirect, send_from_directory, url_for
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor, brotli_installed

#: hex digits of the content's SHA-256 in a fingerprinted name
HASH_LENGTH = 12
#: ``name.<hash>.ext`` (or ``name.<hash>`` for a file without an extension)
FINGERPRINTED = re.compile(rf"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})(?P<ext>\.[^./]+)?$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"  # the plain name: the browser asks each time (an ETag answers 304)
#: the compressed copy must be at most this share of the file, as WhiteNoise's own compressor decides
WORTH_IT = 0.95
ENCODINGS = (("gzip", ".gz"), ("br", ".br")) if brotli_installed else (("gzip", ".gz"),)

_compressor = Compressor(quiet=True)
# Shared by the apps of a process (the tests make thousands; a server one): what each would work out again.
_compressed: dict[tuple[str, str], bytes | None] = {}  # (digest, suffix) -> bytes
_digests: dict[tuple[str, int, int], str] = {}  # (source path, mtime_ns, size) -> SHA-256 of its content
_served: dict[tuple[str, str, tuple[tuple[str, str], ...]], Any] = {}  # (url, copy, headers) -> WhiteNoise's file


def fingerprinted(name: str, digest: str) -> str:
    """``dir/style.css`` → ``dir/style.<hash>.css`` (the hash goes before the last extension)."""
    folder, _, base = name.rpartition("/")
    stem, dot, ext = base.rpartition(".")
    if not dot or not stem:  # no extension, or a dotfile such as ".well-known"
        stem, ext = base, ""
    new = f"{stem}.{digest[:HASH_LENGTH]}" + (f".{ext}" if ext else "")
    return f"{folder}/{new}" if folder else new


def plain_name(name: str) -> str | None:
    """The name a fingerprinted name was made from (``style.<hash>.css`` → ``style.css``), else None."""
    folder, _, base = name.rpartition("/")
    match = FINGERPRINTED.match(base)
    if match is None:
        return None
    base = match["stem"] + (match["ext"] or "")
    return f"{folder}/{base}" if folder else base


@dataclass(frozen=True)
class Asset:
    name: str  # relative to the static folder, with "/"
    stat: tuple[int, int]  # (mtime_ns, size) of the source when it was read
    digest: str  # SHA-256 of the content, hex
    url_name: str  # the fingerprinted name


class _Server(WhiteNoise):
    """WhiteNoise with the cache headers of this app: a year and ``immutable`` for fingerprinted
    names, ``no-cache`` for the plain ones."""

    def __init__(self, application: Any, immutable: Callable[[str], bool], **kwargs: Any) -> None:
        super().__init__(application, **kwargs)
        self._immutable = immutable

    def add_cache_headers(self, headers, path, url):
        headers["Cache-Control"] = IMMUTABLE if self._immutable(url) else REVALIDATE


class StaticAssets:
    """The static folder's files under their fingerprinted names, and the WSGI middleware that serves them."""

    def __init__(
        self, source: Path | str, cache: Path | str, prefix: str = "/static", headers: Mapping[str, str] | None = None
    ):
        self.source = Path(source).resolve()
        self.cache = Path(cache)
        self.prefix = prefix.rstrip("/") + "/"
        self.headers = dict(headers or {})
        self._assets: dict[str, Asset] = {}
        self._immutable_urls: set[str] = set()
        self._lock = threading.Lock()
        self.server: _Server | None = None

    # --- building ------------------------------------------------------------------------

    def wrap(self, wsgi_app: Any) -> _Server:
        """The middleware in front of ``wsgi_app``; every file of the static folder fingerprinted and registered."""
        self.server = _Server(
            wsgi_app,
            immutable=self._immutable_urls.__contains__,
            allow_all_origins=False,  # the pages use them from their own origin only
            add_headers_function=self._add_headers,
        )
        self.cache.mkdir(parents=True, exist_ok=True)
        for path in sorted(self.source.rglob("*")):
            if path.is_file():
                self._build(path.relative_to(self.source).as_posix())
        return self.server

    def _add_headers(self, headers, path, url) -> None:
        for name, value in self.headers.items():
            headers[name] = value
        match = FINGERPRINTED.match(Path(path).name)
        if match:  # the copy's name carries its content's hash: a better validator than mtime and size
            headers["ETag"] = f'W/"{match["hash"]}"'

    def _build(self, name: str) -> Asset | None:
        """Fingerprint the source ``name``, write its copy and compressed copies (once), register both URLs."""
        path = self.source / name
        try:
            before = path.stat()
            known = (str(path), before.st_mtime_ns, before.st_size)
            data = None if known in _digests else path.read_bytes()
        except OSError:  # gone meanwhile
            return None
        if data is not None:
            _digests[known] = hashlib.sha256(data).hexdigest()
        digest = _digests[known]
        asset = Asset(name, (before.st_mtime_ns, before.st_size), digest, fingerprinted(name, digest))
        target = self.cache / asset.url_name
        if not _in_place(target, before.st_size):
            if data is None:
                try:
                    data = path.read_bytes()
                except OSError:
                    return None
                if hashlib.sha256(data).hexdigest() != digest:  # changed within the same mtime and size
                    _digests.pop(known, None)
                    return self._build(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            _write_once(target, data)
            if _compressor.should_compress(name):
                for _, suffix in ENCODINGS:
                    compressed = _compress(data, digest, suffix)
                    if compressed is not None:
                        _write_once(target.with_name(target.name + suffix), compressed)
        if self.server is not None:
            url = self.prefix + asset.url_name
            self._immutable_urls.add(url)
            self._serve(url, target)
            self._serve(self.prefix + name, target)  # the plain name: the current file
        self._assets[name] = asset
        return asset

    def _serve(self, url: str, copy: Path) -> None:
        """WhiteNoise answers ``url`` with the file ``copy`` (its headers worked out once per process:
        the copy's name carries its content)."""
        key = (url, str(copy), tuple(sorted(self.headers.items())))
        if key not in _served:
            self.server.add_file_to_dictionary(url, str(copy))
            _served[key] = self.server.files[url]
        self.server.files[url] = _served[key]

    # --- using -----------------------------------------------------------------------------

    def url_name(self, name: str) -> str:
        """The fingerprinted name of ``name`` (a file changed since is fingerprinted anew); an unknown
        or missing file keeps its name (and gets Flask's 404)."""
        asset = self._assets.get(name)
        path = self.source / name
        try:
            st = path.stat()
        except (OSError, ValueError):
            return name
        if asset is not None and asset.stat == (st.st_mtime_ns, st.st_size):
            return asset.url_name
        if not path.is_file() or not path.resolve().is_relative_to(self.source):
            return name
        with self._lock:
            asset = self._build(name)
        return asset.url_name if asset else name

    def urls(self) -> list[str]:
        """Every fingerprinted URL, for a service worker's precache list (under the app's root)."""
        return sorted(self.prefix + self.url_name(name) for name in list(self._assets))

    def view(self, filename: str):
        """What WhiteNoise did not answer: an outdated fingerprint is sent on to the current file,
        anything else is the static folder's (Flask's 404 for an unknown name)."""
        plain = plain_name(filename)
        if plain is not None and plain in self._assets:
            current = self.url_name(plain)
            if current == filename:  # fingerprinted a moment ago, by another thread
                return send_from_directory(self.cache, filename, max_age=None)
            answer = redirect(url_for("static", filename=plain))
            answer.headers["Cache-Control"] = REVALIDATE
            return answer
        return current_app.send_static_file(filename)


def init_app(app: Flask, cache: Path, headers: Mapping[str, str]) -> StaticAssets:
    """Serve ``app``'s static folder through :class:`StaticAssets` (its copies in ``cache``);
    ``url_for('static', ...)`` gives fingerprinted URLs from then on."""
    assets = StaticAssets(app.static_folder, cache, app.static_url_path, headers)
    app.wsgi_app = assets.wrap(app.wsgi_app)
    app.view_functions["static"] = assets.view
    app.extensions["sk_assets"] = assets

    @app.url_defaults
    def _fingerprint(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and isinstance(values.get("filename"), str):
            values["filename"] = assets.url_name(values["filename"])

    return assets


def static_urls(app: Flask | None = None) -> list[str]:
    """The fingerprinted URLs of every static file (``/static/style.<hash>.css``, ...), sorted."""
    return (app or current_app).extensions["sk_assets"].urls()


def _compress(data: bytes, digest: str, suffix: str) -> bytes | None:
    key = (digest, suffix)
    if key not in _compressed:
        packed = _compressor.compress_gzip(data) if suffix == ".gz" else _compressor.compress_brotli(data)
        _compressed[key] = packed if data and len(packed) <= WORTH_IT * len(data) else None
    return _compressed[key]


def _in_place(path: Path, size: int) -> bool:
    """The copy ``path`` (named by its content) is there whole: nothing to write."""
    try:
        return path.stat().st_size == size
    except OSError:
        return False


def _write_once(path: Path, data: bytes) -> None:
    """Put a file in place whole (written aside, then renamed); one already there, named by its
    content, is kept."""
    try:
        if path.stat().st_size == len(data):
            return
    except FileNotFoundError:
        pass
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    tmp.write_bytes(data)
    os.replace(tmp, path)
