"""CLI: serve the web app (GM dashboard, player pages, JSON API); make a campaign's GM link.

FastAPI and uvicorn are imported inside `serve` only, so `sawbones --help` stays fast.
"""

from __future__ import annotations

import os
from typing import Any

import click

APP_FACTORY = "sawbones.interfaces.cli_web:app_from_env"
PACKS_ENV = "SAWBONES_CONTENT"


def service_factory(db: str | None, packs: tuple[str, ...]):
    """A new Service per call (per request): the composition root of the web app."""
    from ..application.service import Service

    return lambda: Service.open(db, packs)


def app_from_env() -> Any:
    """The app for uvicorn's worker processes (`--workers N`): the database and packs come from the environment."""
    from .web import create_app

    packs = tuple(p for p in os.environ.get(PACKS_ENV, "").split(os.pathsep) if p)
    return create_app(service_factory(None, packs))


def gm_link(base: str, campaign: str, secret: str) -> str:
    from urllib.parse import quote

    return f"{base}/c/{quote(campaign, safe='')}?key={secret}"


def register(cli: click.Group) -> None:
    from .cli import pass_env

    @cli.command()
    @click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on (0.0.0.0: the whole network).")
    @click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
    @click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
    @click.option("--demo", is_flag=True, help="Create the demo campaign when absent and print its GM and player links.")
    @click.option("--cors-origin", "cors_origins", multiple=True, metavar="URL", envvar="SAWBONES_CORS_ORIGINS",
                  help="Let pages of this origin call the API with the GM secret (repeatable; "
                       "$SAWBONES_CORS_ORIGINS, space-separated). Off by default.")
    @pass_env
    def serve(env, host, port, workers, demo, cors_origins) -> None:
        """Serve the web app: the GM dashboard, live player pages and the JSON API (see /api-docs)."""
        import uvicorn

        from .web import security

        from .web.cors import ENV, normalize

        try:
            cors_origins = tuple(normalize(o) for o in cors_origins)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--cors-origin") from None
        os.environ[ENV] = " ".join(cors_origins)  # the workers read it too
        service = env.service  # opens (and checks) the database before anything listens
        security.cookie_key(service.store)  # made once, before the workers share it
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        base = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}"
        click.echo(f"sawbones web app: {base}/  (API: {base}/api-docs; Ctrl+C stops)")
        if demo:
            from ..demo import ensure_demo

            name, secret, players = ensure_demo(service)
            click.echo(f"demo campaign {name!r}, GM dashboard: {gm_link(base, name, secret)}")
            for character, token in players:
                click.echo(f"  player link for {character}: {base}/p/{token}")
        close = getattr(service, "close", None) or getattr(service.store, "close", None)
        if close is not None:
            close()
        config: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "access_log": False,
                                  "timeout_graceful_shutdown": 3,
                                  "http": "sawbones.interfaces.web.nodelay:NoDelayHTTPProtocol"}
        if workers > 1:
            if env.db:
                os.environ["SAWBONES_DATABASE_URL"] = env.db
            os.environ[PACKS_ENV] = os.pathsep.join(env.content)
            uvicorn.run(APP_FACTORY, factory=True, workers=workers, **config)
        else:
            from .web import create_app

            uvicorn.run(create_app(service_factory(env.db, env.content), cors_origins=cors_origins), **config)

    @cli.command("gm-link")
    @click.option("--base", default="http://127.0.0.1:8000", show_default=True, help="The web app's address.")
    @pass_env
    def gm_link_command(env, base) -> None:
        """Make a new GM link for the current campaign (the old one, and every GM session, stop working)."""
        from .web import security

        name = env.campaign_name()
        env.service.store.campaign_id(name)
        secret = security.new_gm_secret(env.service.store, name)
        link = gm_link(base.rstrip("/"), name, secret)
        env.emit({"campaign": name, "gm_secret": secret, "gm_link": link}, lambda con: click.echo(link))
