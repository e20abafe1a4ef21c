"""Every PDF the web app lays out goes through :func:`pdf`: at most :data:`AT_ONCE` are laid out at a
time in a process, and a PDF is kept while what it shows has not changed.

Laying out a PDF is seconds of Python (WeasyPrint: a 300-hand night's summary about 1.7 s, a large
tournament's result list more), holding a server thread and the interpreter's lock all that time.
Sixteen people asking for the result list at once used to take every thread of a server, and the
table recording a hand waited behind them (113 s). Now a request that finds the presses busy gets
:func:`busy` at once, a page in the reader's language that asks again by itself in a few seconds,
and by then the PDF is usually kept: the same night at the same version in the same language, or
the same tournament at the same standings version, is laid out once.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import Response, current_app, render_template

#: PDFs laid out at once in one process (a gunicorn worker, or make run's server): one, so the
#: other threads keep answering the tables; a busy process asks the reader to come back.
AT_ONCE = 1
#: PDFs kept per process, the newest used first, and for how long at most. Their keys carry the roster's
#: stamp beside the version (core/players.py ``ROSTER_STAMP``): a PDF kept from before a player was renamed
#: or merged is laid out anew.
KEEP = 24
KEEP_SECONDS = 3600
#: Seconds the "being prepared" page waits before it asks again (also its Retry-After).
RETRY_SECONDS = 3


class _Presses:
    """One app's presses (one app per process): the slots and the kept PDFs."""

    def __init__(self) -> None:
        self.slots = threading.BoundedSemaphore(AT_ONCE)
        self.kept: OrderedDict[Hashable, tuple[float, bytes]] = OrderedDict()
        self.lock = threading.Lock()

    def lookup(self, key: Hashable) -> bytes | None:
        with self.lock:
            hit = self.kept.get(key)
            if hit is None or time.monotonic() - hit[0] > KEEP_SECONDS:
                self.kept.pop(key, None)
                return None
            self.kept.move_to_end(key)
            return hit[1]

    def keep(self, key: Hashable, body: bytes) -> None:
        with self.lock:
            self.kept[key] = (time.monotonic(), body)
            self.kept.move_to_end(key)
            while len(self.kept) > KEEP:
                self.kept.popitem(last=False)


def presses() -> _Presses:
    """The current app's presses."""
    return current_app.extensions.setdefault("sk_presses", _Presses())


#: Collect WeasyPrint's garbage after each PDF and give the freed memory back (see :func:`_reclaim`);
#: ``tools/bench_pdf_memory.py`` turns it off to measure the difference.
RECLAIM = True


def _glibc_malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library is another (musl, macOS, Windows)."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _glibc_malloc_trim()


def _reclaim() -> None:
    """After a PDF: collect its garbage, and have glibc give the freed memory back to the system.

    A PDF's layout leaves megabytes of objects in reference cycles (WeasyPrint's boxes and their
    parents), and the app's collector thresholds (``create_app``: a full collection far more rarely)
    leave them be: a server's memory grew by about 3 MB with every PDF and never dropped. Collected at
    once, they are freed; ``malloc_trim(0)`` then returns glibc's free pages. Measured with
    ``python manage.py bench pdf-memory`` (docs/production.md): 30 summaries of a 300-hand night grew a
    process from 162 to 215 MB without this, from 151 to 162 MB with it. It costs some tens of ms
    after a layout of seconds, inside the press's one slot."""
    gc.collect()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def lay_out(html: str) -> bytes:
    """``html`` laid out as PDF bytes by WeasyPrint (its images and fonts found in ``static/``)."""
    from weasyprint import HTML

    body = HTML(string=html, base_url=str(current_app.static_folder)).write_pdf()
    if RECLAIM:
        _reclaim()
    return body


def pdf(key: Hashable, html: Callable[[], str]) -> bytes | None:
    """The PDF of ``html()`` kept under ``key`` (which names everything the PDF shows: what, its
    version, the language), laid out now if none is kept; None when the presses are busy."""
    press = presses()
    body = press.lookup(key)
    if body is not None:
        return body
    if not press.slots.acquire(blocking=False):
        return None
    try:
        body = press.lookup(key)  # laid out by the one before us
        if body is None:
            body = lay_out(html())
            press.keep(key, body)
        return body
    finally:
        press.slots.release()


def busy() -> Response:
    """503 with a page that says the PDF is being prepared and asks again by itself."""
    page = render_template("errors/pdf_busy.html", retry=RETRY_SECONDS)
    return Response(page, status=503, headers={"Retry-After": str(RETRY_SECONDS), "Cache-Control": "no-store"})
