"""CLI: serve the web app (GM dashboard, player pages, JSON API); a campaign's GM sign-in link; the server's
admin secret.

FastAPI and uvicorn are imported inside `serve` only, so `sawbones --help` stays fast.
"""

from __future__ import annotations

import os
from typing import Any

import click

from ...presentation import links
from ...message import N_, msg
from ...presentation.locale import _, say
from ...presentation.links import BASE_ENV

APP_FACTORY = "sawbones.interfaces.cli.web:worker_app"
PACKS_ENV = "SAWBONES_CONTENT"
SERVER_ENV = "SAWBONES_WEB_SETTINGS"  # the server's settings, for uvicorn's worker processes (JSON)
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def service_factory(db: str | None, packs: tuple[str, ...]):
    """A new Service per call (per request): the composition root of the web app."""
    from ...application.service import Service

    return lambda: Service.open(db, packs)


def packs_from_env() -> tuple[str, ...]:
    return tuple(p for p in os.environ.get(PACKS_ENV, "").split(os.pathsep) if p)


def app_from_env() -> Any:
    """The app for uvicorn's worker processes (`--workers N`): the database and packs come from the environment."""
    import json

    from ..web import create_app

    packs = packs_from_env()
    settings = json.loads(os.environ.get(SERVER_ENV) or "{}")
    hosts = settings.get("allowed_hosts")
    return create_app(service_factory(None, packs), closed=bool(settings.get("closed")),
                      allowed_hosts=tuple(hosts) if hosts else None, max_body=int(settings.get("max_body", 1_000_000)),
                      public_base=settings.get("public_base"), listening_base=settings.get("listening_base"))


def worker_app() -> Any:
    """What uvicorn's worker processes serve: `app_from_env`, with the process's heap settled (web/http/heap.py)."""
    from ..web.http.heap import settle

    app = app_from_env()
    settle(packs_from_env())
    return app


def check_port(host: str, port: int) -> None:
    """Refuse, with one line, a port something else already listens on (exit 1)."""
    import errno
    import socket

    from ...errors import SawbonesError

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            from ...errors import UsageError
            from ...presentation.system_words import reason

            if exc.errno == errno.EADDRINUSE or exc.errno == errno.EACCES:  # the port: taken, or kept for root
                error = SawbonesError(msg("cannot listen on {host}:{port} ({reason}): another program uses it, or it is "
                                          "kept for the system; stop it or choose another --port", host=host, port=port,
                                          reason=reason(exc)), "serve")
                error.code = "port_busy"
                raise error from None
            raise UsageError(msg("cannot listen on {host}:{port} ({reason}): this machine has no such address; choose "
                                 "another --host (127.0.0.1 for this machine, 0.0.0.0 for the network)", host=host,
                                 port=port, reason=reason(exc)), "serve") from None


def given_base(text: str | None, option: str = "--base") -> str | None:
    """--base checked: a web address, without its trailing slash."""
    if not text:
        return None
    try:
        return links.normalize_base(text)
    except links.BadBase as exc:
        raise click.BadParameter(say(exc.message), param_hint=option) from None


def forwarded_ips(text: str) -> str:
    """--forwarded-allow-ips checked: addresses or networks, comma-separated, or *."""
    import ipaddress

    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise click.BadParameter(_("give at least one address (127.0.0.1 is the default)"),
                                 param_hint="--forwarded-allow-ips")
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise click.BadParameter(_("{item} is not an address or a network like 10.0.0.0/8", item=repr(item)),
                                     param_hint="--forwarded-allow-ips") from None
    return ",".join(items)


def link_base(given: str | None, store: Any) -> str:
    """The address a printed link starts with: --base, $SAWBONES_BASE, the running server's, the default."""
    try:
        base = links.cli_base(given, store, dict(os.environ))
    except links.BadBase as exc:
        raise click.BadParameter(say(exc.message), param_hint="--base") from None
    if not given and not os.environ.get(links.BASE_ENV) and base == links.remembered(store) and not answers(base):
        click.echo(_("note: no server answers at {base} now (the last `sawbones serve` on this database): the link "
                     "works once it runs again (or give --base)", base=base), err=True)
    return base


def in_color() -> bool:
    """Whether stdout is a terminal that takes colours (not a pipe or a file, not $NO_COLOR): a QR code is painted."""
    import sys

    return sys.stdout.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def answers(base: str) -> bool:
    """Whether a server listens at this address (an IP or localhost, asked briefly; a name is not looked up)."""
    import ipaddress
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    host = parts.hostname or ""
    try:
        if host != "localhost":
            ipaddress.ip_address(host)
    except ValueError:
        return True  # (a public name, behind a proxy: not asked)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def sign_in_link(base: str, store: Any, campaign: str) -> str:
    """A fresh one-time GM sign-in link (the sessions already signed in are not touched)."""
    from ..web.api.campaigns import sign_in_link as path

    return base + path(store, campaign)


def tls_files(certfile: str | None, keyfile: str | None) -> dict[str, str]:
    """uvicorn's TLS settings from `--certfile/--keyfile`: both or neither, readable, and a pair that loads."""
    import ssl

    from ...errors import UsageError
    from ...presentation.system_words import reason

    if certfile is None and keyfile is None:
        return {}
    if certfile is None or keyfile is None:
        raise UsageError(msg("--certfile and --keyfile go together (the certificate and its private key)"),
                         "--keyfile" if certfile else "--certfile")
    for option, path in (("--certfile", certfile), ("--keyfile", keyfile)):
        try:
            with open(path, "rb"):
                pass
        except OSError as exc:
            raise UsageError(msg("cannot read {path} ({reason})", path=path, reason=reason(exc)),
                             option) from None
    try:
        ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(certfile, keyfile)
    except (ssl.SSLError, ValueError) as exc:
        raise UsageError(msg("{certfile} and {keyfile} are not a PEM certificate and its unencrypted private key "
                             "({reason})", certfile=certfile, keyfile=keyfile,
                             reason=str(getattr(exc, "reason", None) or exc)), "--certfile") from None
    return {"ssl_certfile": certfile, "ssl_keyfile": keyfile}


def server_settings(host: str, access: str | None, allowed: tuple[str, ...], max_body: int) -> dict[str, Any]:
    """Closed unless asked open or listening on the loopback only; the loopback names only, on the loopback;
    beyond it, the machine's own names and addresses (own_names.py); `--allowed-host '*'`: any."""
    from .own_names import LOOPBACK_NAMES, own_hosts

    loopback = host in LOOPBACK
    closed = access == "closed" if access else not loopback
    hosts: list[str] | None = list(allowed) or (list(LOOPBACK_NAMES) if loopback else own_hosts(host))
    if "*" in allowed:
        hosts = None
    return {"closed": closed, "allowed_hosts": hosts, "max_body": max_body}


def register(cli: click.Group) -> None:
    from .env import pass_env

    @cli.command(help=N_("Serve the web app: the GM dashboard, live player pages and the JSON API (see /api-docs)."))
    @click.option("--host", default="127.0.0.1", show_default=True, help=N_("Address to listen on (0.0.0.0: the "
                                                                            "whole network)."))
    @click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help=N_("Port to listen "
                                                                                                    "on."))
    @click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help=N_("Worker processes."))
    @click.option("--demo", is_flag=True, help=N_("Create the demo campaign when absent and print its GM sign-in and "
                     "player links."))
    @click.option("--qr", is_flag=True, help=N_("With --demo: also draw each player link as a QR code, for the "
                     "players' phones."))
    @click.option("--access", type=click.Choice(["open", "closed"]), default=None,
                  help=N_("open: anyone who reaches the server lists and creates campaigns (a laptop at the table); "
                     "closed: that needs the server's admin secret. Default: open on 127.0.0.1, closed otherwise."))
    @click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
                  help=N_("A host name the server answers to (repeatable; against DNS rebinding). Default: the "
                     "loopback names when listening on 127.0.0.1, else the machine's own names and addresses; "
                     "'*': any (behind a proxy that checks it)."))
    @click.option("--max-body", type=click.IntRange(1024, 1_000_000_000), default=1_000_000, show_default=True,
                  metavar="BYTES", help=N_("The largest request body accepted (413 beyond, before it is read)."))
    @click.option("--base", metavar="URL", envvar=BASE_ENV,
                  help=N_("The address players and the GM reach the server at, printed in links and QR codes (a "
                     "reverse proxy's https://…; $SAWBONES_BASE). Default: the machine's network address and the "
                     "port when listening on 0.0.0.0, else --host and --port."))
    @click.option("--forwarded-allow-ips", "forwarded_allow_ips", default="127.0.0.1", show_default=True,
                  metavar="ADDRESSES", envvar="SAWBONES_FORWARDED_ALLOW_IPS",
                  help=N_("The reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are trusted (comma-"
                     "separated addresses or networks, * for any; $SAWBONES_FORWARDED_ALLOW_IPS): each player "
                     "behind them counts as their own address."))
    @click.option("--cors-origin", "cors_origins", multiple=True, metavar="URL", envvar="SAWBONES_CORS_ORIGINS",
                  help=N_("Let pages of this origin call the API with the API secret (repeatable; "
                          "$SAWBONES_CORS_ORIGINS, space-separated). Off by default."))
    @click.option("--certfile", type=click.Path(dir_okay=False), default=None, metavar="PEM",
                  help=N_("Serve https with this certificate (PEM, the chain included); needs --keyfile. An https "
                          "Foundry VTT may call only https servers, or http on 127.0.0.1/localhost."))
    @click.option("--keyfile", type=click.Path(dir_okay=False), default=None, metavar="PEM",
                  help=N_("The certificate's private key (PEM, unencrypted); needs --certfile."))
    @pass_env
    def serve(env, host, port, workers, demo, qr, access, allowed_hosts, max_body, base, forwarded_allow_ips,
              cors_origins, certfile, keyfile) -> None:
        import json

        import uvicorn

        from ..web.access import security

        if qr and not demo:  # (the QR codes are the demo's player links; they were drawn for nobody)
            raise click.UsageError(_("--qr draws the demo campaign's player links: give --demo too (another "
                                     "campaign's: sawbones player-link --qr)"))
        tls = tls_files(certfile, keyfile)
        check_port(host, port)  # a busy port is one error line, before any banner
        from ..web.http.cors import ENV, normalize

        try:
            cors_origins = tuple(normalize(o) for o in cors_origins)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--cors-origin") from None
        os.environ[ENV] = " ".join(cors_origins)  # the workers read it too
        trusted = forwarded_ips(forwarded_allow_ips)
        public = given_base(base)
        service = env.service  # opens (and checks) the database before anything listens
        security.cookie_key(service.store)  # made once, before the workers share it
        settings = server_settings(host, access, allowed_hosts, max_body)
        listening = links.listening_base(host, port, scheme="https" if tls else "http")
        settings.update(public_base=public, listening_base=listening)
        base = public or listening
        links.remember(service.store, base)  # gm-link and player-link print links to this server
        click.echo(_("sawbones web app: {base}/  (API: {base}/api-docs; Ctrl+C stops)", base=base))
        if settings["closed"]:
            click.echo(_("closed server: listing and creating campaigns need the admin secret") + (
                "" if security.has_admin_secret(service.store) else
                _(" (made now, shown once: {secret}; `sawbones admin-secret` replaces it)",
                  secret=security.new_admin_secret(service.store))))
        if demo:
            from ...demo import ensure_demo

            name, link, players = ensure_demo(service, base)
            click.echo(_("demo campaign {name}, GM sign-in link (once, within 15 minutes): {link}", name=repr(name),
                         link=link))
            for character, token in players:
                player_page = f"{base}/p/{token}"
                click.echo(_("  player link for {character}: {link}", character=character, link=player_page))
                if qr:
                    click.echo(links.qr_text(f"{base}/p/{token}", color=in_color()))
        close = getattr(service, "close", None) or getattr(service.store, "close", None)
        if close is not None:
            close()
        config: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "access_log": False,
                                  "timeout_graceful_shutdown": 3, "proxy_headers": True,
                                  "forwarded_allow_ips": trusted,
                                  "http": "sawbones.interfaces.web.http.nodelay:NoDelayHTTPProtocol"}
        from ..web.http.tls import hand_over

        config.update(hand_over(tls))  # the handshake is the protocol's own (counted, under the head's deadline)
        if workers > 1:
            if env.db:
                os.environ["SAWBONES_DATABASE_URL"] = env.db
            os.environ[PACKS_ENV] = os.pathsep.join(env.content)
            os.environ[SERVER_ENV] = json.dumps(settings)
            uvicorn.run(APP_FACTORY, factory=True, workers=workers, **config)
        else:
            from ..web import create_app
            from ..web.http.heap import settle

            hosts = settings["allowed_hosts"]
            app = create_app(service_factory(env.db, env.content), closed=settings["closed"],
                             allowed_hosts=tuple(hosts) if hosts else None, max_body=max_body,
                             cors_origins=cors_origins, public_base=public, listening_base=listening)
            settle(env.content)
            uvicorn.run(app, **config)

    base_help = N_("The web app's address (default: $SAWBONES_BASE, else the address the last `sawbones serve` on "
                   "this database printed, else http://127.0.0.1:8000).")

    @cli.command("gm-link", help=N_("Print a one-time GM sign-in link for the current campaign (valid once, 15 "
                                    "minutes); browsers already\n"
                                    "signed in stay signed in."))
    @click.option("--base", default=None, metavar="URL", help=base_help)
    @click.option("--api-secret", "api_secret", is_flag=True,
                  help=N_("Also make a new API secret (the old one stops working) and print it."))
    @pass_env
    def gm_link_command(env, base, api_secret) -> None:
        from ..web.access import security

        name = env.campaign_name()
        store = env.service.store
        store.campaign_id(name)
        address = link_base(base, store)
        doc: dict[str, Any] = {"campaign": name}
        if api_secret:
            doc["gm_secret"] = security.new_gm_secret(store, name)
        doc["gm_link"] = sign_in_link(address, store, name)
        doc["expires_in"] = security.SIGNIN_SECONDS
        env.emit(doc, lambda con: click.echo("\n".join(
            ([_("API secret: {secret}", secret=doc["gm_secret"])] if api_secret else []) + [doc["gm_link"]])))

    @cli.command("player-link", help=N_("Print the player links of the current campaign (every character, or those "
                                        "named): each opens the\n"
                                        "character's live page on a player's phone, without signing in."))
    @click.argument("characters", nargs=-1, metavar="[CHARACTER]...")
    @click.option("--base", default=None, metavar="URL", help=base_help)
    @click.option("--qr", is_flag=True, help=N_("Also draw each link as a QR code, for the players' phones."))
    @pass_env
    def player_link_command(env, characters, base, qr) -> None:
        from ...domain.engine.campaign import find_character
        from ..web.access import access

        name = env.campaign_name()
        service = env.service
        state = service.load(name).state
        address = link_base(base, service.store)
        chosen = [find_character(state, key) for key in characters] or list(state.characters)
        doc = {"campaign": name, "players": [
            {"character": c.id, "name": c.name,
             "link": f"{address}/p/{access.player_token(service.store, name, state, c.id)}"} for c in chosen]}

        def show(con: Any) -> None:
            if not doc["players"]:
                click.echo(_("no character in this campaign yet: no player link"))
            for player in doc["players"]:
                click.echo(_("  player link for {character}: {link}", character=player["name"], link=player["link"]).strip())
                if qr:
                    click.echo(links.qr_text(player["link"], color=in_color()))

        env.emit(doc, show)

    @cli.command("admin-secret", help=N_("Make a new admin secret for the web server (closed mode: listing and "
                                         "creating campaigns); the old one\n"
                                         "stops working."))
    @pass_env
    def admin_secret_command(env) -> None:
        from ..web.access import security

        secret = security.new_admin_secret(env.service.store)
        env.emit({"admin_secret": secret}, lambda con: click.echo(secret))
