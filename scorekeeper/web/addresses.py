"""Where the other phones reach this server: the address on the join panel, on every printed table
card and QR code, and in ``manage.py run``'s start-up lines. One rule for all of them:

1. the club's public address (``SCOREKEEPER_PUBLIC_URL``) when it is set;
2. else the address the page was opened at, unless that is this computer's own (loopback);
3. else this computer's address on the Wi-Fi, when the server listens there (``--host 0.0.0.0``);
4. else none: the page and the card say how to let the other phones in.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

from flask import current_app, url_for

#: What the join panel and a table card say about the address they show (see :func:`reach_url`).
LAN = "lan"  # this computer's Wi-Fi address instead of the loopback one the page was opened at
LOOPBACK = "loopback"  # no address the other phones can open: say how to let them in


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this computer's own address, which no other phone can open.

    >>> is_loopback("localhost"), is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("192.168.1.2")
    (True, True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def listening_everywhere(host: str) -> bool:
    """Whether a server bound to ``host`` answers on every interface (the Wi-Fi's too).

    >>> listening_everywhere("0.0.0.0"), listening_everywhere("::"), listening_everywhere("127.0.0.1")
    (True, True, False)
    """
    return host in ("", "0.0.0.0", "::", "*")


def lan_address() -> str | None:
    """This computer's address on the network it would reach others by, or None.

    Connecting a UDP socket sends nothing: it only picks the outgoing interface's address.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet goes out
            address = s.getsockname()[0]
    except OSError:
        return None
    return None if is_loopback(address) or address == "0.0.0.0" else address


def reach_url(endpoint: str, **values) -> tuple[str, str | None]:
    """The address of ``endpoint`` for the other phones, and a note on it: None (they can open it),
    :data:`LAN` (this computer's Wi-Fi address, the page having been opened at a loopback one) or
    :data:`LOOPBACK` (the server answers this computer only, or no Wi-Fi address is known)."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return public.rstrip("/") + url_for(endpoint, **values), None
    url = url_for(endpoint, _external=True, **values)
    parts = urlsplit(url)
    if not is_loopback(parts.hostname or ""):
        return url, None
    listen = current_app.config.get("LISTEN_HOST")  # manage.py run says; under gunicorn it is unknown
    address = lan_address() if listen is None or listening_everywhere(listen) else None
    if address is None:
        return url, LOOPBACK
    netloc = address if parts.port is None else f"{address}:{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc)), LAN


def reach_lines(app, host: str, port: int) -> list[str]:
    """What ``manage.py run`` says, once it starts, about where the other phones reach it."""
    public = app.config.get("PUBLIC_URL")
    if public:
        return [f"Other phones: {public.rstrip('/')}/join (SCOREKEEPER_PUBLIC_URL)"]
    if not listening_everywhere(host) and is_loopback(host):
        return ["Only this computer can open it: to let the other phones in, start it with --host 0.0.0.0"]
    address = lan_address() if listening_everywhere(host) else host
    if address is None:
        return ["Other phones: no Wi-Fi address found; connect this computer to the pub's Wi-Fi"]
    return [f"Other phones on the Wi-Fi: http://{address}:{port}/join"]
