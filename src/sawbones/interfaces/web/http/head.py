"""HEAD, everywhere GET is (issue 41: HEAD was refused with 405 on every route): the request is served as its
GET, and the answer's status and headers are sent without its body (RFC 9110 §9.3.2)."""

from __future__ import annotations

from typing import Any


class HeadAsGet:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        ended = False

        async def headers_only(message: dict) -> None:
            nonlocal ended
            if message["type"] == "http.response.body":
                if ended or message.get("more_body", False):
                    return  # (a stream's parts: none is sent; its end is)
                ended = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
