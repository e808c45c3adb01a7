"""Access: the GM secret of a campaign, read-only player tokens, signed session cookies, CSRF.

Everything lives in the store's meta table: the GM secret only as a hash (shown once, when made),
player tokens (one per character, read-only), and the key that signs session cookies.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any

GM_SECRET = "gm_secret:{campaign}"
PLAYER_TOKEN = "player_token:{token}"
PLAYER_OF = "player_of:{campaign}\x1f{character}"
COOKIE_KEY = "web_cookie_key"
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _hash(secret: str) -> str:
    return hashlib.sha256(b"sawbones-gm-secret\x00" + secret.encode("utf-8", "replace")).hexdigest()


def new_gm_secret(store: Any, campaign: str) -> str:
    """Make (or replace) the campaign's GM secret; only its hash is kept, so this is the one time it is seen."""
    secret = secrets.token_urlsafe(24)
    store.set_meta(GM_SECRET.format(campaign=campaign), _hash(secret))
    return secret


def gm_fingerprint(store: Any, campaign: str) -> str | None:
    """A short digest of the stored hash: a GM cookie names it, so a new secret ends every old session."""
    stored = store.get_meta(GM_SECRET.format(campaign=campaign))
    return hashlib.sha256(stored.encode()).hexdigest()[:20] if stored else None


def is_gm_secret(store: Any, campaign: str, secret: str | None) -> bool:
    stored = store.get_meta(GM_SECRET.format(campaign=campaign))
    return bool(stored and secret) and hmac.compare_digest(stored, _hash(secret or ""))


def player_token(store: Any, campaign: str, character_id: str) -> str:
    """The read-only link token of one character (made on first use, then stable)."""
    key = PLAYER_OF.format(campaign=campaign, character=character_id)
    token = store.get_meta(key)
    if token is None:
        token = secrets.token_urlsafe(18)
        store.set_meta(PLAYER_TOKEN.format(token=token), json.dumps([campaign, character_id]))
        store.set_meta(key, token)
    return token


def player_target(store: Any, token: str) -> tuple[str, str] | None:
    """(campaign, character id) of a player token, or None."""
    if not token or len(token) > 64 or not set(token) <= TOKEN_CHARS:
        return None
    raw = store.get_meta(PLAYER_TOKEN.format(token=token))
    if raw is None:
        return None
    campaign, character = json.loads(raw)
    return campaign, character


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
MAX_FLASH = 1800  # characters of flashed lines kept in the cookie


class Session:
    """The browser's session: its CSRF token, the campaigns it is GM of, and one flash message."""

    def __init__(self, data: dict[str, Any] | None) -> None:
        self.changed = data is None
        self.data: dict[str, Any] = data or {}
        if not isinstance(self.data.get("csrf"), str):
            self.data["csrf"] = secrets.token_urlsafe(24)
            self.changed = True
        if not isinstance(self.data.get("gm"), dict):
            self.data["gm"] = {}

    @property
    def csrf(self) -> str:
        return self.data["csrf"]

    def check_csrf(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf.encode(), str(token).encode("utf-8", "replace"))

    def gm_of(self, campaign: str) -> str | None:
        return self.data["gm"].get(campaign)

    def grant(self, campaign: str, fingerprint: str) -> None:
        gm = dict(self.data["gm"])
        gm[campaign] = fingerprint
        self.data["gm"] = dict(list(gm.items())[-12:])  # a browser is GM of a dozen campaigns at most
        self.changed = True

    def flash(self, kind: str, lines: list[str]) -> None:
        kept, size = [], 0
        for line in lines:
            size += len(line)
            if size > MAX_FLASH:
                kept.append("…")
                break
            kept.append(line)
        self.data["flash"] = {"kind": kind, "lines": kept}
        self.changed = True

    def pop_flash(self) -> dict[str, Any] | None:
        flash = self.data.pop("flash", None)
        if flash is not None:
            self.changed = True
        return flash
