"""The Foundry VTT module (issue 37): installed by URL from `sawbones serve` (GET /foundry/module.json and
/foundry/sawbones.zip), served over TLS (`serve --certfile/--keyfile`), and its own tests (node --test on the
stand-in of Foundry's globals, against a real `sawbones serve`) run here, so that `bash test.sh` runs them."""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "integrations" / "foundry"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(tmp_path: Path, *more: str) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    env = dict(os.environ, SAWBONES_DATABASE_URL=f"sqlite:///{tmp_path}/s.db", PYTHONUNBUFFERED="1")
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "sawbones", "serve", "--port", str(port), *more], cwd=tmp_path,
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, port
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    pytest.fail(f"sawbones serve did not start: {(tmp_path / 'server.log').read_text()}")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def _version() -> str:
    from importlib.metadata import version

    return version("sawbones")


def test_module_json_installs_the_module_from_the_server_itself(tmp_path):
    """The address the GM pastes into Foundry's "Install Module": a valid manifest whose manifest and download
    point back to this server, with the package's version; the zip it names opens and holds the module."""
    proc, port = _serve(tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            answer = client.get("/foundry/module.json")
            assert answer.status_code == 200
            manifest = json.loads(answer.text)
            assert manifest["id"] == "sawbones"
            assert manifest["version"] == _version()
            assert manifest["manifest"] == f"{base}/foundry/module.json"
            assert manifest["download"] == f"{base}/foundry/sawbones.zip"
            assert manifest["compatibility"]["minimum"] == "13" and manifest["compatibility"]["verified"] == "13"
            systems = {s["id"]: s["compatibility"] for s in manifest["relationships"]["systems"]}
            assert systems["dnd5e"]["minimum"].startswith("5.") and systems["pf1"]["minimum"] == "11.8"
            assert {lang["lang"] for lang in manifest["languages"]} == {"en", "fr"}
            download = client.get(manifest["download"].removeprefix(base))
            assert download.status_code == 200 and download.headers["content-type"] == "application/zip"
    finally:
        _stop(proc)
    with zipfile.ZipFile(io.BytesIO(download.content)) as archive:
        names = set(archive.namelist())
        inside = json.loads(archive.read("module.json"))
        assert inside == manifest, "the zip's manifest is the one served"
        for path in [*inside["esmodules"], *inside["styles"], *(lang["path"] for lang in inside["languages"]),
                     "data/mapping.json", "scripts/hits.js"]:
            assert path in names, f"{path} ships in the zip"
        assert not any(name.startswith("test/") for name in names), "the module's tests stay out"
        for lang in inside["languages"]:
            assert json.loads(archive.read(lang["path"]))["SAWBONES"]["Settings"]["serverUrl"]["Name"]


def test_the_module_files_ship_with_the_package():
    """The routes find the module from an installed sawbones: its files are package data (foundry_module)."""
    from sawbones.interfaces.web.pages.foundry import module_dir

    found = module_dir()
    assert (found / "module.json").is_file() and (found / "scripts" / "main.js").is_file()
    assert found.resolve() == MODULE.resolve()


def _certificate(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to serve")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_serve_over_tls(tmp_path):
    """`serve --certfile/--keyfile`: https, the banner says so, and /foundry/module.json points to https."""
    cert, key = _certificate(tmp_path)
    proc, port = _serve(tmp_path, "--certfile", str(cert), "--keyfile", str(key))
    try:
        context = ssl.create_default_context(cafile=str(cert))
        with httpx.Client(base_url=f"https://127.0.0.1:{port}", verify=context, timeout=30) as client:
            manifest = client.get("/foundry/module.json").json()
            assert manifest["download"] == f"https://127.0.0.1:{port}/foundry/sawbones.zip"
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/foundry/module.json", timeout=5)
    finally:
        _stop(proc)
    assert f"https://127.0.0.1:{port}/" in (tmp_path / "server.log").read_text()


@pytest.mark.parametrize("args, said", [
    (["--certfile", "CERT"], "--certfile and --keyfile go together"),
    (["--certfile", "CERT", "--keyfile", "missing.pem"], "cannot read missing.pem"),
    (["--certfile", "KEY", "--keyfile", "CERT"], "are not a PEM certificate and its unencrypted private key"),
])
def test_serve_refuses_a_bad_certificate_in_one_line(tmp_path, cli, args, said):
    cert, key = _certificate(tmp_path)
    result = cli("serve", "--port", str(_free_port()),
                 *[str(cert) if a == "CERT" else str(key) if a == "KEY" else a for a in args])
    assert result.code != 0
    assert said in result.err and "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_serve_says_it_in_french(tmp_path, cli):
    cert, _ = _certificate(tmp_path)
    result = cli("--lang", "fr", "serve", "--port", str(_free_port()), "--certfile", str(cert))
    assert result.code != 0 and "--certfile et --keyfile vont ensemble" in result.err


def test_the_module_tests_run_with_node(tmp_path):
    """integrations/foundry/test/*.test.mjs: the dnd5e and pf1 stories, hits and heals, faults, on the stand-in."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Foundry module's tests need Node 20")
    files = sorted(str(p.relative_to(MODULE)) for p in (MODULE / "test").glob("*.test.mjs"))
    assert len(files) >= 5
    env = dict(os.environ, SAWBONES_PYTHON=sys.executable, TMPDIR=str(tmp_path))
    run = subprocess.run([node, "--test", *files], cwd=MODULE, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert "# fail 0" in run.stdout
