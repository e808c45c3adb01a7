"""Access: the campaign's API secret, one-time GM sign-in codes, GM sessions, the server's admin secret,
signed session cookies, CSRF. (Player tokens and the server-side flash are in access.py.)

Everything lives in the store's meta table (no schema of its own):

Records of a campaign are keyed on its id (`#12`), so that `campaign rename` keeps every access; a record an
older sawbones keyed on the name is still read (when its campaign id matches).

- `gm_secret:{campaign}`: the API secret (`Authorization: Bearer`), as a hash plus the secret itself, so
  that the GM can reveal it on the dashboard; bound to the campaign's id (a new campaign of the same
  name does not inherit it). Rotating it ends no browser session.
- `signin:{hash}`: a one-time sign-in code (valid once, for SIGNIN_SECONDS, for one campaign), exchanged
  for the session cookie. Only its hash is kept.
- `gm_sessions:{campaign}`: a random key; a GM cookie holds a digest of it and of the campaign's id, so
  "end every GM session" replaces it, and nothing else does.
- `admin_secret`: the hash of the server's admin secret (closed mode: listing and creating campaigns).
"""

from __future__ import annotations
from ....message import msg

import base64
import hashlib
import hmac
import json
import secrets
import time
from typing import Any

from ....errors import NotFound, SawbonesError

GM_SECRET = "gm_secret:{campaign}"
SIGNIN = "signin:{digest}"
GM_SESSIONS = "gm_sessions:{campaign}"
ADMIN_SECRET = "admin_secret"
COOKIE_KEY = "web_cookie_key"
SIGNIN_SECONDS = 15 * 60
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _hash(secret: str, purpose: str = "gm-secret") -> str:
    return hashlib.sha256(f"sawbones-{purpose}\x00".encode() + secret.encode("utf-8", "replace")).hexdigest()


def well_formed(token: str | None) -> bool:
    """A token this module could have made (URL-safe, bounded): anything else is refused unread."""
    return bool(token) and len(token) <= 64 and set(token) <= TOKEN_CHARS  # type: ignore[arg-type]


def require_campaign(store: Any, campaign: str) -> int:
    """The campaign's id: its exact name, else the one it folds like (case and accents, as the command line
    reads a name: domain/engine/names.py); NotFound without the list of campaign names (a web client may not know
    them)."""
    try:
        return store.campaign_id(campaign)
    except NotFound:
        pass
    found = canonical(store, campaign)
    if found is None:
        raise NotFound(msg("no campaign named {campaign}", campaign=repr(campaign)), "campaign")
    return store.campaign_id(found)


def stored_name(store: Any, campaign: str) -> str:
    """The campaign's name as stored (one query when it is typed exactly, as it almost always is)."""
    try:
        store.campaign_id(campaign)
        return campaign
    except NotFound:
        return canonical(store, campaign) or campaign


def canonical(store: Any, campaign: str) -> str | None:
    """The stored name a typed one means (exact, else case- and accent-blind), or None."""
    from ....domain.engine.names import pick

    try:
        return pick(campaign, store.campaign_names(), lambda n: (n,), "campaign")
    except SawbonesError:  # (several fold alike: only the exact name opens one)
        return None


def by_id(store: Any, campaign: str) -> str:
    """The campaign as its records are keyed: its id (`#12`), which a rename keeps."""
    return f"#{require_campaign(store, campaign)}"


def _campaign_record(store: Any, template: str, campaign: str) -> dict[str, Any] | None:
    """The campaign's record under its id, else one an older sawbones kept under its name."""
    return _record(store, template.format(campaign=by_id(store, campaign))) or \
        _record(store, template.format(campaign=campaign))


def _campaign_value(store: Any, template: str, campaign: str) -> str | None:
    return store.get_meta(template.format(campaign=by_id(store, campaign))) or \
        store.get_meta(template.format(campaign=campaign))


def _record(store: Any, key: str) -> dict[str, Any] | None:
    raw = store.get_meta(key)
    if not raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


# ------------------------------------------------------------------ the API secret


def new_gm_secret(store: Any, campaign: str) -> str:
    """Make (or replace) the campaign's API secret. Web sessions and sign-in codes are not touched."""
    secret = secrets.token_urlsafe(24)
    record = {"cid": require_campaign(store, campaign), "hash": _hash(secret), "secret": secret}
    store.set_meta(GM_SECRET.format(campaign=f"#{record['cid']}"), json.dumps(record))
    _access_changed(store, record["cid"])  # the API streams opened with the old secret end
    return secret


def gm_secret(store: Any, campaign: str) -> str | None:
    """The campaign's current API secret (for the dashboard's reveal), or None when it has none."""
    record = _campaign_record(store, GM_SECRET, campaign)
    if record is None or record.get("cid") != require_campaign(store, campaign):
        return None
    return record.get("secret")


def is_gm_secret(store: Any, campaign: str, secret: str | None, cid: int | None = None) -> bool:
    """`cid`: the campaign's id when the caller has just read it (one query less per request)."""
    record = _campaign_record(store, GM_SECRET, campaign)
    if record is None or not secret or record.get("cid") != (require_campaign(store, campaign) if cid is None else cid):
        return False
    return hmac.compare_digest(str(record.get("hash", "")), _hash(secret))


# ------------------------------------------------------------------ sign-in codes and GM sessions


def new_signin_code(store: Any, campaign: str, seconds: int = SIGNIN_SECONDS) -> str:
    """A one-time code that signs one browser in as GM of the campaign, valid for `seconds`."""
    code = secrets.token_urlsafe(18)
    record = {"campaign": campaign, "cid": require_campaign(store, campaign), "expires": time.time() + seconds}
    store.set_meta(SIGNIN.format(digest=_hash(code, "signin")), json.dumps(record))
    return code


class SignInRefused(Exception):
    """Why a sign-in code does not sign in: `reason` is unknown, used or expired."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def redeem_signin_code(store: Any, campaign: str, code: str | None) -> str:
    """Use the code (once): the GM session fingerprint to grant. SignInRefused when it cannot be used."""
    if not well_formed(code):
        raise SignInRefused("unknown")
    key = SIGNIN.format(digest=_hash(code or "", "signin"))
    record = _record(store, key)
    if record is None or record.get("cid") != require_campaign(store, campaign):  # (its id: a rename keeps it)
        raise SignInRefused("used" if store.get_meta(key) == "used" else "unknown")
    store.set_meta(key, "used")  # (two uses at the same instant could both pass: the window is one request)
    if float(record.get("expires", 0)) < time.time():
        raise SignInRefused("expired")
    return gm_fingerprint(store, campaign, create=True)


def gm_fingerprint(store: Any, campaign: str, create: bool = False) -> str | None:
    """What a GM cookie holds for the campaign: a digest of its session key and id. The key is made when a
    session is first granted (`create`); before that no session can be valid (None)."""
    value = _campaign_value(store, GM_SESSIONS, campaign)
    if not value:
        if not create:
            return None
        key = GM_SESSIONS.format(campaign=by_id(store, campaign))
        store.set_meta(key, secrets.token_urlsafe(24))
        value = store.get_meta(key)
    digest = f"{value}\x00{require_campaign(store, campaign)}".encode()
    return hashlib.sha256(digest).hexdigest()[:24]


def end_gm_sessions(store: Any, campaign: str) -> str | None:
    """Every browser signed in as GM of the campaign is signed out; the fingerprint of the new key."""
    store.set_meta(GM_SESSIONS.format(campaign=by_id(store, campaign)), secrets.token_urlsafe(24))
    _access_changed(store, require_campaign(store, campaign))  # their dashboards' streams end
    return gm_fingerprint(store, campaign, create=True)


def _access_changed(store: Any, cid: int) -> None:
    from ....adapters.notify import access_changed

    access_changed(store, cid)


# ------------------------------------------------------------------ the server's admin secret


def new_admin_secret(store: Any) -> str:
    secret = secrets.token_urlsafe(24)
    store.set_meta(ADMIN_SECRET, _hash(secret, "admin"))
    return secret


def has_admin_secret(store: Any) -> bool:
    return bool(store.get_meta(ADMIN_SECRET))


def is_admin_secret(store: Any, secret: str | None) -> bool:
    stored = store.get_meta(ADMIN_SECRET)
    return bool(stored and secret) and hmac.compare_digest(stored, _hash(secret or "", "admin"))


def admin_fingerprint(store: Any) -> str | None:
    stored = store.get_meta(ADMIN_SECRET)
    return hashlib.sha256(stored.encode()).hexdigest()[:24] if stored else None


# ------------------------------------------------------------------ cookies


def cookie_key(store: Any) -> bytes:
    """The key that signs session cookies: made once per database, so every worker shares it."""
    value = store.get_meta(COOKIE_KEY)
    if value is None:
        store.set_meta(COOKIE_KEY, secrets.token_urlsafe(32))
        value = store.get_meta(COOKIE_KEY)
    return value.encode()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """HMAC-SHA256 signed JSON, for cookies."""

    def __init__(self, key: bytes) -> None:
        self.key = key

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self.key, body.encode(), hashlib.sha256).digest())

    def sign(self, payload: dict[str, Any]) -> str:
        body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=True).encode())
        return f"{body}.{self._mac(body)}"

    def unsign(self, value: str | None) -> dict[str, Any] | None:
        if not value or value.count(".") != 1:
            return None
        body, mac = value.split(".")
        if not hmac.compare_digest(mac, self._mac(body)):
            return None
        try:
            payload = json.loads(_unb64(body))
        except (ValueError, UnicodeDecodeError):
            return None
        return payload if isinstance(payload, dict) else None


SESSION_COOKIE = "sawbones_session"
MAX_FLASH = 64_000  # characters of flashed lines kept (on the server: an advance over days for a party is long)
MAX_COOKIE_FLASH = 1_000  # ... in the cookie, for a browser the server keeps nothing for (`keep_flash`)


class Session:
    """The browser's session cookie: its id, CSRF token, the campaigns it is GM of, whether it is the
    server's admin, and whether a flash message waits for it on the server (never the message itself)."""

    def __init__(self, data: dict[str, Any] | None) -> None:
        self.changed = data is None
        self.data: dict[str, Any] = data or {}
        self.pending_flash: dict[str, Any] | None = None
        for key in ("csrf", "sid"):
            if not isinstance(self.data.get(key), str):
                self.data[key] = secrets.token_urlsafe(24)
                self.changed = True
        if not isinstance(self.data.get("gm"), dict):
            self.data["gm"] = {}
        self.data.pop("flash", None)  # an older cookie's flash is dropped, never shown

    @property
    def csrf(self) -> str:
        return self.data["csrf"]

    @property
    def sid(self) -> str:
        return self.data["sid"]

    def check_csrf(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf.encode(), str(token).encode("utf-8", "replace"))

    def gm_of(self, campaign: str, key: str | None = None) -> str | None:
        """The fingerprint held for the campaign: under its id (`key`, security.by_id), or its name (older)."""
        gm = self.data["gm"]
        return (gm.get(key) if key is not None else None) or gm.get(campaign)

    def gm_campaigns(self) -> list[str]:
        return list(self.data["gm"])

    def grant(self, campaign: str, fingerprint: str) -> None:
        gm = dict(self.data["gm"])
        gm.pop(campaign, None)
        gm[campaign] = fingerprint
        self.data["gm"] = dict(list(gm.items())[-12:])  # a browser is GM of a dozen campaigns at most
        self.changed = True

    def admin(self) -> str | None:
        value = self.data.get("admin")
        return value if isinstance(value, str) else None

    def grant_admin(self, fingerprint: str) -> None:
        self.data["admin"] = fingerprint
        self.changed = True

    def flash(self, kind: str, lines: list[str]) -> None:
        """A message for the next page: kept on the server (access.py), the cookie only says one waits."""
        self.pending_flash = {"kind": kind, "lines": _bounded(lines, MAX_FLASH)}
        self.data["f"] = 1
        self.changed = True

    def keep_flash(self, closed: bool) -> bool:
        """Whether the waiting flash is written on the server: a GM's or the admin's, or anyone's on an open
        server. A closed server writes nothing for a browser that is neither (a stranger's form, a player's
        link): its message rides in the signed cookie, shortened, and is gone once shown."""
        if self.pending_flash is None:
            return False
        if not closed or self.data["gm"] or self.admin():
            return True
        self.data["f"] = {"kind": self.pending_flash["kind"],
                          "lines": _bounded(self.pending_flash["lines"], MAX_COOKIE_FLASH)}
        self.pending_flash = None
        return False

    def flash_waits(self) -> bool:
        return bool(self.data.get("f"))

    def cookie_flash(self) -> dict[str, Any] | None:
        """The message that rides in the cookie (`keep_flash`), if that is where it waits."""
        held = self.data.get("f")
        return held if isinstance(held, dict) else None

    def flash_taken(self) -> None:
        if self.data.pop("f", None) is not None:
            self.changed = True


def _bounded(lines: list[str], most: int) -> list[str]:
    """The lines up to `most` characters in all, then "…"."""
    kept, size = [], 0
    for line in lines:
        size += len(line)
        if size > most:
            kept.append("…")
            break
        kept.append(line)
    return kept
