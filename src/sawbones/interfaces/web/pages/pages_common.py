"""What every HTML page shares: templates (autoescaped), the session cookie, the language, the
cross-site request checks (CSRF token and Origin)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from ..access import access, security
from ....message import msg
from ....presentation import odds_words, typeset
from ....presentation.locale import _, language, languages, ngettext, pgettext
from ..access.access_errors import Forbidden, WebError
from ..http.deps import open_service, web
from ..http.language import LANG_COOKIE, asked
from .typography import typeset as set_in_language

_ENV: Any = None


def env() -> Any:
    global _ENV
    if _ENV is None:
        import jinja2

        _ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).parent.parent / "templates")),
                                  autoescape=True, trim_blocks=True, lstrip_blocks=True,
                                  extensions=["jinja2.ext.i18n"])
        # the words: {{ _("Next due") }}, {{ _("Undo: {what}?", what=x) }}, ngettext, pgettext (presentation.locale,
        # in the request's language: language.py)
        _ENV.install_gettext_callables(_, ngettext, newstyle=False, pgettext=pgettext)
        _ENV.globals.update(language=language, languages=languages)
        _ENV.filters["q"] = lambda value: quote(str(value), safe="")
        _ENV.filters["span"] = _span
        _ENV.filters["when"] = _when
        _ENV.filters["pct"] = typeset.percent  # {{ p|pct }}: "18.9%" / "18,9 %"
        _ENV.filters["dec"] = typeset.decimal  # {{ x|dec(2) }}: "2.52" / "2,52"
        _ENV.filters["num"] = typeset.general  # {{ x|num }}: "2.5" / "2,5"
        _ENV.filters["amount"] = typeset.amount  # {{ x|amount(2, unit) }}: "2.52 days" / "2,52 jours"
        _ENV.filters["signed"] = odds_words.signed  # {{ delta|signed }}: "+0.10" / "-0,05"
        _ENV.filters["listed"] = typeset.listed  # {{ ways|listed }}: "a; b" / "a ; b"
        _ENV.filters["unit_name"] = typeset.unit_name  # {{ 'save_waiting'|unit_name(n) }}: agrees with n
        _ENV.filters["counted"] = typeset.counted  # {{ n|counted('drop') }}: "1 drop to 0" / "2 chutes à 0"
    return _ENV


def _span(seconds: Any) -> str:
    from ....presentation.time_words import describe_span

    return describe_span(max(0, int(seconds)))


def _when(seconds: Any) -> str:
    from ....presentation.time_words import describe

    return describe(int(seconds))


def session_of(request: Request) -> security.Session:
    session = getattr(request.state, "session", None)
    if session is None:
        session = security.Session(web(request).signer.unsign(request.cookies.get(security.SESSION_COOKIE)))
        request.state.session = session
    return session


def finish(request: Request, response: Response) -> Response:
    """Write back the session and the chosen language as cookies (HttpOnly, SameSite=Lax)."""
    secure = request.url.scheme == "https"
    session = getattr(request.state, "session", None)
    if session is not None and session.keep_flash(web(request).closed):
        with open_service(web(request)) as service:
            access.put_flash(service.store, session.sid, session.pending_flash)
        session.pending_flash = None
    if session is not None and session.changed:
        response.set_cookie(security.SESSION_COOKIE, web(request).signer.sign(session.data), max_age=30 * 86400,
                            httponly=True, samesite="lax", secure=secure, path="/")
    chosen = asked(request.url.query)
    if chosen is not None and request.cookies.get(LANG_COOKIE) != chosen:
        response.set_cookie(LANG_COOKIE, chosen, max_age=365 * 86400, httponly=True, samesite="lax", secure=secure,
                            path="/")
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def take_flash(request: Request) -> dict[str, Any] | None:
    """The message an action left for this browser's next page (kept on the server), taken once."""
    session = session_of(request)
    if not session.flash_waits():
        return None
    flash = session.cookie_flash()
    if flash is None:
        with open_service(web(request)) as service:
            flash = access.take_flash(service.store, session.sid)
    session.flash_taken()
    return flash


def render(request: Request, template: str, status: int = 200, *, flash: bool = True, **context: Any) -> Response:
    """The page; `flash=False` (error pages) leaves a waiting flash message for the next page."""
    session = session_of(request)
    html = env().get_template(template).render(
        request=request, csrf=session.csrf, flash=take_flash(request) if flash else None, path=request.url.path,
        **context)
    return finish(request, HTMLResponse(set_in_language(html), status_code=status))


def render_error(request: Request, status: int, code: str, message: str,
                 headers: dict[str, str] | None = None, heading: str | None = None) -> Response:
    """The error page; `heading`, its title when not "Error" (a sign-in page), already said."""
    response = render(request, "error.html", status=status, flash=False, code=code, message=message, heading=heading)
    for key, value in (headers or {}).items():
        if key.lower() != "www-authenticate":
            response.headers[key] = value
    return response


def redirect(request: Request, url: str) -> Response:
    return finish(request, RedirectResponse(url, status_code=303))


def campaign_url(campaign: str, tail: str = "") -> str:
    return f"/c/{quote(campaign, safe='')}{tail}"


async def checked_form(request: Request) -> Any:
    """The form of a POST, after the cross-site checks: same origin (when the browser says) and the CSRF token."""
    origin = request.headers.get("origin")
    if origin is None and request.headers.get("referer"):
        parts = urlsplit(request.headers["referer"])
        origin = f"{parts.scheme}://{parts.netloc}"
    host = request.headers.get("host", "")
    if origin is not None and (origin == "null" or urlsplit(origin).netloc != host):
        raise Forbidden(msg("cross-site request refused"), "origin")
    try:
        form = await request.form()
    except HTTPException:  # too large (guard.py)
        raise
    except Exception:
        raise WebError(msg("could not read the form"), "form") from None
    if not session_of(request).check_csrf(form.get("csrf") if isinstance(form.get("csrf"), str) else None):
        raise Forbidden(msg("the form's security token is missing or stale: reload the page and try again"), "csrf")
    return form


def query_int(value: str | None, name: str, low: int, high: int) -> int | None:
    """A whole number typed in a page's form (blank: None); anything else is a clear 422, never a crash."""
    from ....errors import UsageError

    from ....numbers import parse_int

    if value is None or value.strip() == "":
        return None
    number = parse_int(value, low, high, signed=True)
    if number is None:
        raise UsageError(msg("{name}: a whole number from {low} to {high}, not {value}", name=name, low=low, high=high,
                             value=repr(value[:20])), name)
    return number


def public_base(request: Request) -> str:
    """The address a page writes whole links with (player links, sign-in links, QR codes): serve's --base, else the
    address the page was asked at, unless that is the loopback while the server listens on the network
    (presentation/links.py)."""
    from ....presentation.links import page_base

    settings = web(request)
    return page_base(settings.public_base, str(request.base_url), request.url.hostname, settings.listening_base)


def page_campaign(request: Request, campaign: str) -> str:
    """The campaign a GM page's address names, as stored: typed case- and accent-blind ("alpha", "eloise" for Éloïse),
    as the API and the CLI read it (security.stored_name, the one resolver); a name that means none stays as typed
    (the page's own check refuses it)."""
    with open_service(web(request)) as service:
        return security.stored_name(service.store, campaign)


PageCampaign = Annotated[str, Depends(page_campaign)]
