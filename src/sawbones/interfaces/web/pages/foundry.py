"""The Foundry VTT module (integrations/foundry/), installed by URL from the GM's own server.

`GET /foundry/module.json`: the module's manifest with `version` (the package's), `manifest` and `download`
pointing back to this server (the address the request came in by). `GET /foundry/sawbones.zip`: the module's
files, its manifest rewritten the same way; its tests are left out. Foundry's server fetches both (not the
browser): no CORS, no secret. The files ship with the package (`foundry_module`, a link to
integrations/foundry/ in a checkout, package data in a wheel).
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ....errors import NotFound
from ....message import msg

router = APIRouter(prefix="/foundry", tags=["foundry"])
SHIPPED = ("module.json", "lang", "scripts", "data", "styles", "README.md")  # what goes in the zip


def module_dir() -> Path:
    """The module's files: next to this package, else the checkout's integrations/foundry."""
    here = Path(__file__).resolve().parent
    shipped = Path(__file__).parent.parent / "foundry_module"
    for candidate in (shipped, *(p / "integrations" / "foundry" for p in here.parents)):
        if (candidate / "module.json").is_file():
            return candidate
    raise NotFound(msg("the Foundry VTT module's files are not installed with this sawbones"), "/foundry")


def _version() -> str:
    """The installed package's version (the module's version is sawbones')."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("sawbones")
    except PackageNotFoundError:  # pragma: no cover - a source tree without its metadata
        return "0"


def manifest(base: str) -> dict[str, Any]:
    """module.json as this server serves it: its version, and addresses back to `base`."""
    doc = json.loads((module_dir() / "module.json").read_text("utf-8"))
    doc["version"] = _version()
    doc["manifest"] = f"{base}/foundry/module.json"
    doc["download"] = f"{base}/foundry/sawbones.zip"
    return doc


def _base(request: Request) -> str:
    return str(request.base_url).rstrip("/")


def build_zip(base: str) -> bytes:
    root = module_dir()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("module.json", json.dumps(manifest(base), indent=2, ensure_ascii=False) + "\n")
        for name in SHIPPED[1:]:
            path = root / name
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() \
                else []
            for file in files:
                archive.write(file, file.relative_to(root).as_posix())
    return out.getvalue()


@router.get("/module.json", summary="The Foundry VTT module's manifest (paste this address into Install Module)")
def module_json(request: Request) -> JSONResponse:
    return JSONResponse(manifest(_base(request)), headers={"Cache-Control": "no-cache"})


@router.get("/sawbones.zip", summary="The Foundry VTT module, zipped", response_class=Response,
            responses={200: {"content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}},
                             "description": "The module's files (a zip), its manifest pointing to this server."}})
def module_zip(request: Request) -> Response:
    return Response(build_zip(_base(request)), media_type="application/zip", headers={
        "Content-Disposition": 'attachment; filename="sawbones.zip"', "Cache-Control": "no-cache"})
