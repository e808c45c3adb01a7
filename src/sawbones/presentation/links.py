"""The addresses links are printed with, so they work from the devices they are meant for (a player's phone).

`serve` names its public address once: `--base` ($SAWBONES_BASE) when given (a reverse proxy's https://…);
else, listening on the whole network (0.0.0.0, ::), the machine's LAN address and the port it runs on; else
the address it listens on. It records that address in the database (`server.base` in the meta table), so that
`gm-link` and `player-link` print links to the running server. QR codes (segno) draw a link: SVG on the
dashboard, text for the terminal.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import time
from typing import Any
from urllib.parse import urlsplit

from ..message import N_, Message

BASE_ENV = "SAWBONES_BASE"
META = "server.base"  # {"base": "http://192.168.1.20:8000", "at": <unix time>}
DEFAULT = "http://127.0.0.1:8000"
EVERYWHERE = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


class BadBase(ValueError):
    """Not a web address; `.message` says why (a Message: `say(exc.message)` in the reader's language)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def normalize_base(text: str) -> str:
    """`https://table.example.org/`, `http://192.168.1.20:8000` → without the trailing slash; else BadBase."""
    raw = text.strip()
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise BadBase(Message(N_("{text} is not a web address like https://table.example.org or "
                                  "http://192.168.1.20:8000"), {"text": repr(text)}))
    try:
        parts.port
    except ValueError:
        raise BadBase(Message(N_("{text} has no valid port"), {"text": repr(text)})) from None
    return raw.rstrip("/")


def _probe(family: int, target: str) -> str | None:
    """The local address the system would send from towards `target` (a UDP socket's connect sends nothing)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((target, 9))
            address = sock.getsockname()[0]
    except OSError:
        return None
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    return None if ip.is_loopback or ip.is_unspecified or ip.is_link_local else address


def lan_address(ipv6: bool = False) -> str | None:
    """The machine's address on its network (what a phone on the same Wi-Fi reaches), None when it has none.
    No packet is sent: the route towards a documentation address is only looked up."""
    found = _probe(socket.AF_INET6, "2001:db8::1") if ipv6 else _probe(socket.AF_INET, "192.0.2.1")
    if found or ipv6:
        return found
    try:
        names = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        return None
    return next((a for a in names if not ipaddress.ip_address(a).is_loopback), None)


def _host_in_url(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def listening_base(host: str, port: int, scheme: str = "http") -> str:
    """Where the devices meant to use a server listening on host:port reach it (`scheme`: https with TLS)."""
    if host in EVERYWHERE:
        shown = lan_address(ipv6=host == "::") or ("::1" if host == "::" else "127.0.0.1")
    else:
        shown = host
    return f"{scheme}://{_host_in_url(shown)}:{port}"


def is_loopback_host(host: str | None) -> bool:
    name = (host or "").strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def remember(store: Any, base: str) -> None:
    """The running server's public address, for the CLI's links."""
    store.set_meta(META, json.dumps({"base": base, "at": int(time.time())}))


def remembered(store: Any) -> str | None:
    raw = store.get_meta(META)
    if not raw:
        return None
    try:
        return str(json.loads(raw)["base"])
    except (ValueError, KeyError, TypeError):
        return None


def cli_base(given: str | None, store: Any, environ: dict[str, str]) -> str:
    """The address the CLI prints links with: --base, else $SAWBONES_BASE, else the running server's (the
    one `serve` last started on this database), else the default."""
    for text in (given, environ.get(BASE_ENV)):
        if text:
            return normalize_base(text)
    return remembered(store) or DEFAULT


def page_base(public: str | None, request_base: str, request_host: str | None, listening: str | None) -> str:
    """The address a page writes absolute links with (a player link's QR code): the server's --base; else the
    address the page was asked at, unless that is the loopback, which a phone cannot reach; then where the
    server listens on the network."""
    if public:
        return public
    if listening and is_loopback_host(request_host) and not is_loopback_host(urlsplit(listening).hostname):
        return listening
    return request_base.rstrip("/")


def _matrix(url: str, border: int = 2) -> list[list[bool]]:
    import segno

    code = segno.make(url, error="m", micro=False)
    return [[bool(cell) for cell in row] for row in code.matrix_iter(scale=1, border=border)]


def qr_svg(url: str, title: str = "") -> str:
    """An inline SVG of the link's QR code: dark modules on white, sized by its container."""
    rows = _matrix(url)
    size = len(rows)
    path = "".join(f"M{x},{y}h1v1h-1z" for y, row in enumerate(rows) for x, dark in enumerate(row) if dark)
    label = f"<title>{_escape(title)}</title>" if title else ""
    return (f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" '
            f'shape-rendering="crispEdges">{label}<rect width="{size}" height="{size}" fill="#fff"/>'
            f'<path d="{path}" fill="#000"/></svg>')


DARK_ON_LIGHT = ("\x1b[30;107m", "\x1b[0m")  # black on bright white: the same on a light or a dark terminal


def qr_text(url: str, color: bool = False) -> str:
    """The link's QR code for a terminal, two rows of modules per line in half blocks, dark on light as a scanner
    reads it: `color` (a terminal) paints it black on white whatever the terminal's colours; else the dark modules
    are the blocks (a light page, a printout), with the quiet zone of four modules the standard asks."""
    rows = _matrix(url, border=4)
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    glyph = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}  # (top, bottom) dark
    lines = ["".join(glyph[top, bottom] for top, bottom in zip(rows[i], rows[i + 1])) for i in range(0, len(rows), 2)]
    return "\n".join(f"{DARK_ON_LIGHT[0]}{line}{DARK_ON_LIGHT[1]}" if color else line for line in lines)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
