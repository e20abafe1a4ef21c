"""How much of a request body the API reads: at most :data:`MAX_BODY` bytes, read before anything else.

The largest body the API takes is a new night (a game, a few players, its rules) or a hand:
well under a kilobyte. A club's whole history is imported by the command line
(``scorekeeper import``), which reads its file directly, not over HTTP: no limit here touches it.

The body is refused with 413 before it is read when its ``Content-Length`` says it is too large.
A body without a length (``Transfer-Encoding: chunked``) is read up to the limit and refused as
soon as it goes beyond it. Either way the body is read here, before the access check and the view
touch the database: a POST's write session begins its transaction at its first query (on SQLite
``BEGIN IMMEDIATE``, the write lock), and a slow upload must not hold that lock while it trickles in.
"""

from __future__ import annotations

from typing import Any

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

MAX_BODY = 1024 * 1024  # bytes: 1 MiB
BODY_METHODS = frozenset({"POST", "PUT"})  # the methods whose views read a body
TOO_LARGE = f"the body may have at most {MAX_BODY} bytes (1 MiB)"


def read_body(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Read the request's body now, at most :data:`MAX_BODY` bytes (a URL value preprocessor of the
    api blueprint: Flask runs those before every ``before_request`` function, so before the access check).

    :raises RequestEntityTooLarge: for a longer body (answered as the API's JSON error by the app).
    """
    if request.method not in BODY_METHODS:
        return
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise RequestEntityTooLarge(TOO_LARGE)
    # A body without a length is read to one byte past the limit: Werkzeug ends such a stream at
    # ``max_content_length`` without a word (the body would be cut short, not refused), so the byte
    # past the limit is what tells a body over it from one just at it.
    request.max_content_length = MAX_BODY + 1
    if len(request.get_data(cache=True)) > MAX_BODY:  # cached: request.get_json() reads it from there
        raise RequestEntityTooLarge(TOO_LARGE)
