"""The bot's one way to sawbones: its JSON API over HTTP (docs/integrations.md), as any outside bot calls it.

`Api` holds the campaign's API secret (sent as a Bearer header, never logged or shown). A refusal is
`Refused(status, code, message, doc)` (the API's one error shape); a server that does not answer is `Down`:
`Down.maybe_applied` when the request may have reached it (a timeout, a 502/503/504 on the way back), not when
the connection was refused. The keys the bot sends are unguessable (`key`, `key_for`): sawbones scopes them to
the campaign's secret, and no player can tell or spoil them.
Each request asks for the reader's language (`?lang=`, presentation.locale.language()): the API's lines and
refusals come in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from typing import Any
from urllib.parse import quote

import httpx

from ..presentation.locale import language


class Down(Exception):
    """sawbones does not answer (refused connection, timeout, a proxy's 502); `maybe_applied`: the request may
    have reached it (a timeout, a 502/503/504), so an action may have been applied."""

    def __init__(self, what: str, maybe_applied: bool = False) -> None:
        super().__init__(what)
        self.maybe_applied = maybe_applied


class Refused(Exception):
    def __init__(self, status: int, code: str, message: str, doc: dict[str, Any]) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.doc = status, code, message, doc


UNDOABLE_NOT = ("action_undone", "campaign_created", "campaign_renamed")  # as the dashboard's undo preview
INDEX_KEPT = 60.0  # seconds the tables' index is kept (content changes when the server restarts)
QUIET = ("clock_advanced", "request_keyed")  # no news in an action's lines (as the dashboard)
CHARACTERS_KEPT = 30.0  # seconds the character list is fresh (each action of the feed refreshes it too)
ANSWER_WITHIN = 2.0  # seconds an autocomplete waits for sawbones (Discord gives up at 3)
NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol)  # the request never left


def key() -> str:
    """A new Idempotency-Key nobody can guess."""
    return secrets.token_urlsafe(18)


class Api:
    """The campaign's API: `get`, `act` (a GM action, with Idempotency-Key and If-Match), the player API."""

    def __init__(self, server_url: str, campaign: str, secret: str, timeout: float = 10.0) -> None:
        self.server_url = server_url.rstrip("/")
        self.campaign = campaign
        self.base = f"/api/campaigns/{quote(campaign, safe='')}"
        self._secret = secret
        self._timeout = timeout
        self._client: httpx.AsyncClient | None = None
        self._tokens: dict[str, str] = {}  # character id -> player token
        self._index: dict[str, tuple[float, Any]] = {}  # language -> (when, GET /api/tables)
        self._characters: tuple[float, list[dict[str, Any]]] | None = None  # (when, GET …/characters)
        self._refreshing: asyncio.Task[Any] | None = None
        self._closed = False
        self._indexing: dict[str, asyncio.Task[Any]] = {}  # language -> the index asked in the background

    def key_for(self, *parts: Any) -> str:
        """An Idempotency-Key made of `parts` and the secret: the same for a retry, unguessable without it."""
        text = "\x1f".join(str(p) for p in parts)
        return hmac.new(self._secret.encode(), text.encode(), hashlib.sha256).hexdigest()[:32]

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self._secret}"}

    def client(self) -> httpx.AsyncClient:
        if self._closed:
            raise Down("closed")  # (the bot stops: a task still under way ends here)
        if self._client is None:
            self._client = httpx.AsyncClient(base_url=self.server_url, timeout=self._timeout, trust_env=False)
        return self._client

    async def close(self) -> None:
        self._closed = True
        for task in (self._refreshing, *self._indexing.values()):
            if task is not None and not task.done():
                task.cancel()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def request(self, method: str, path: str, *, json: Any = None,
                      params: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
                      auth: bool = True) -> Any:
        sent = {**(self.headers() if auth else {}), **(headers or {})}
        query = {"lang": language(), **(params or {})}
        try:
            answer = await self.client().request(method, path, json=json, params=query, headers=sent)
        except NOT_SENT as exc:
            raise Down(type(exc).__name__) from None
        except httpx.HTTPError as exc:  # (a timeout, a connection cut: the request may have been applied)
            raise Down(type(exc).__name__, maybe_applied=True) from None
        if answer.status_code in (502, 503, 504):
            raise Down(str(answer.status_code), maybe_applied=True)
        try:
            doc = answer.json()
        except ValueError:
            raise Down(f"{answer.status_code}: not JSON") from None
        if answer.status_code >= 400:
            error = doc.get("error", {}) if isinstance(doc, dict) else {}
            raise Refused(answer.status_code, str(error.get("code", "")), str(error.get("message", "")), doc)
        return doc

    async def get(self, path: str, **params: Any) -> Any:
        return await self.request("GET", self.base + path, params=params)

    async def act(self, name: str, body: dict[str, Any] | None, key: str | None = None,
                  version: int | None = None) -> Any:
        headers = {}
        if key is not None:
            headers["Idempotency-Key"] = key
        if version is not None:
            headers["If-Match"] = str(version)
        return await self.request("POST", f"{self.base}/{name}", json=body, headers=headers)

    async def tables_index(self) -> Any:
        """GET /api/tables (every table's id and name) in the reader's language, kept: autocompletes ask it at
        each keystroke. Older than a minute, the one kept answers while a new one is asked in the background."""
        kept = self._index.get(language())
        if kept is None:
            return await self._read_index()
        if time.monotonic() - kept[0] >= INDEX_KEPT:
            self.warm_index()
        return kept[1]

    def warm_index(self) -> None:
        """Ask the tables' index in the background (at start, in the channels' language; when old)."""
        lang = language()
        if lang not in self._indexing or self._indexing[lang].done():
            self._indexing[lang] = asyncio.get_running_loop().create_task(self._read_index(quiet=True))

    async def _read_index(self, quiet: bool = False) -> Any:
        try:
            index = await self.request("GET", "/api/tables")
        except (Down, Refused):
            if quiet:
                return None
            raise
        self._index[language()] = (time.monotonic(), index)
        return index

    # ------------------------------------------------------------ characters and players

    async def characters(self) -> list[dict[str, Any]]:
        listed = (await self.get("/characters"))["characters"]
        self._characters = (time.monotonic(), listed)
        return listed

    def refresh_characters(self) -> None:
        """Ask the character list again in the background (an action may have changed it)."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        try:
            await self.characters()
        except (Down, Refused):
            pass

    async def characters_soon(self) -> list[dict[str, Any]]:
        """The character list for an autocomplete: the one kept (refreshed in the background when old), else
        what sawbones says within ANSWER_WITHIN seconds, else nothing."""
        kept = self._characters
        if kept is not None:
            if time.monotonic() - kept[0] > CHARACTERS_KEPT:
                self.refresh_characters()
            return kept[1]
        self.refresh_characters()
        assert self._refreshing is not None
        try:
            await asyncio.wait_for(asyncio.shield(self._refreshing), ANSWER_WITHIN)
        except asyncio.TimeoutError:
            return []
        return self._characters[1] if self._characters is not None else []

    async def character_of(self, user_id: int) -> dict[str, Any] | None:
        found = (await self.get("/characters", external=f"discord:{user_id}"))["characters"]
        return found[0] if found else None

    async def link(self, user_id: int, character: str) -> dict[str, Any]:
        """The member plays `character` (external reference discord:<id>), and no other character."""
        ref = f"discord:{user_id}"
        before = await self.character_of(user_id)
        target = (await self.request("GET", f"{self.base}/characters/{quote(character, safe='')}"))
        if before is not None and before["id"] != target["id"]:
            await self.request("PATCH", f"{self.base}/characters/{before['id']}",
                               json={"external": [e for e in before["external"] if e != ref]})
        listed = next(c for c in await self.characters() if c["id"] == target["id"])
        if ref not in listed["external"]:
            await self.request("PATCH", f"{self.base}/characters/{target['id']}",
                               json={"external": [*listed["external"], ref]})
        return target

    async def token(self, character_id: str) -> str:
        if character_id not in self._tokens:
            doc = await self.request("GET", f"{self.base}/characters/{quote(character_id, safe='')}/player-link")
            self._tokens[character_id] = doc["token"]
        return self._tokens[character_id]

    async def player(self, character_id: str, path: str = "", **params: Any) -> Any:
        token = await self.token(character_id)
        try:
            return await self.request("GET", f"/api/player/{token}{path}", params=params, auth=False)
        except Refused as exc:
            if exc.status != 403:
                raise
            self._tokens.pop(character_id, None)  # the link was renewed: ask again, once
            token = await self.token(character_id)
            return await self.request("GET", f"/api/player/{token}{path}", params=params, auth=False)

    async def answer_as_player(self, character_id: str, body: dict[str, Any], key: str) -> Any:
        token = await self.token(character_id)
        return await self.request("POST", f"/api/player/{token}/answer", json=body,
                                  headers={"Idempotency-Key": key}, auth=False)

    async def last_action(self) -> tuple[int, list[str], int] | None:
        """(action, its lines, the campaign's version) of the action `undo` reverts now, or None."""
        log = (await self.get("/log", limit=200))["events"]
        undone = {e["action"] for e in log if e["undone"]}
        firsts: dict[int, str] = {}
        for e in log:
            firsts.setdefault(e["action"], e["type"])
        candidates = [a for a, first in firsts.items() if a not in undone and first not in UNDOABLE_NOT]
        if not candidates:
            return None
        action = max(candidates)
        version = max(e["version"] for e in log) if log else 0
        return action, [e["text"] for e in log if e["action"] == action and e["text"] and e["type"] not in QUIET], version
