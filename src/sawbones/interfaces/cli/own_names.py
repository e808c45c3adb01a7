"""The names and addresses of this machine: what a server listening beyond the loopback answers to by default
(`serve --allowed-host`), so that a page elsewhere cannot reach it by DNS rebinding (a name its attacker
controls, resolved to this machine's address)."""

from __future__ import annotations

import socket

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
ANY = ("0.0.0.0", "::", "")


def _shown(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def _addresses(name: str) -> set[str]:
    try:
        return {info[4][0].split("%")[0] for info in socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)}
    except (OSError, UnicodeError):
        return set()


def _routed() -> set[str]:
    """The address this machine uses to reach the network (no packet is sent: a UDP socket only picks a route)."""
    out = set()
    for family, target in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                out.add(probe.getsockname()[0].split("%")[0])
        except OSError:
            continue
    return out


def own_hosts(listen: str) -> list[str]:
    """Every name and address the machine answers to: its host names (with `.local`, as mDNS says it), the
    addresses they resolve to, the address its traffic leaves from, the loopback names, and the address
    listened on."""
    names = {socket.gethostname(), socket.getfqdn()} - {""}
    found = set(LOOPBACK_NAMES) | {n.lower() for n in names} | {f"{n.split('.')[0].lower()}.local" for n in names
                                                                if n != "localhost"}
    addresses = set().union(*(_addresses(n) for n in names)) | _routed()
    if listen not in ANY:
        addresses.add(listen.strip("[]"))
    found |= {_shown(a.lower()) for a in addresses}
    return sorted(found)
