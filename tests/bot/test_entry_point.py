"""`mordheim-bot` as a new user runs it: no token means the console, in one line."""

import os
import subprocess
import sys
from pathlib import Path


def run(args, tmp_path, stdin=""):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["MORDHEIM_DB"] = str(tmp_path / "m.db")
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )


def test_no_token_opens_the_console(tmp_path):
    proc = run([], tmp_path, stdin="/echo hello\n")
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("No DISCORD_TOKEN set, so opening the offline console")
    assert "hello" in proc.stdout and proc.returncode == 0
    assert (tmp_path / "m.db").exists()


def test_one_line_exit_codes(tmp_path):
    ok = run(["console", "--seed", "5", "-c", "/roll 2d6"], tmp_path)
    assert ok.returncode == 0 and "Total:" in ok.stdout
    again = run(["console", "--seed", "5", "-c", "/roll 2d6"], tmp_path)
    assert again.stdout == ok.stdout  # --seed makes dice deterministic
    bad = run(["console", "-c", "/roll 1d0"], tmp_path)
    assert bad.returncode == 1 and "at least 2 sides" in bad.stdout


def test_run_without_token_says_how_to_fix(tmp_path):
    proc = run(["run"], tmp_path)
    assert proc.returncode == 2 and "DISCORD_TOKEN" in proc.stderr


def test_bytecode_goes_to_the_bots_cache_never_beside_the_sources(tmp_path):
    # PYTHONDONTWRITEBYTECODE keeps __pycache__ out of source trees; a start still should not
    # compile every module again (bot/__main__.py: keep_bytecode)
    cache = tmp_path / "bytecode"
    env_cache = {"PYTHONDONTWRITEBYTECODE": "1", "MORDHEIM_BYTECODE_CACHE": str(cache)}
    sources = Path(__file__).resolve().parents[2]
    beside = set(sources.glob("*/__pycache__/*.pyc"))
    proc = subprocess.run([sys.executable, "-m", "bot", "console", "-c", "/echo hi"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=60,
                          env={**{k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "PYTHONPYCACHEPREFIX")},
                               **env_cache, "MORDHEIM_DB": str(tmp_path / "m.db")})
    assert proc.returncode == 0 and "hi" in proc.stdout
    assert list(cache.rglob("client.cpython-*.pyc")) and list(cache.rglob("combat.cpython-*.pyc"))
    assert set(sources.glob("*/__pycache__/*.pyc")) == beside  # nothing new beside the sources


def test_keep_bytecode_only_when_python_would_not(monkeypatch, tmp_path):
    from bot.__main__ import keep_bytecode

    monkeypatch.setattr(sys, "pycache_prefix", None)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setenv("MORDHEIM_BYTECODE_CACHE", "off")
    assert keep_bytecode() is None and sys.dont_write_bytecode
    monkeypatch.setenv("MORDHEIM_BYTECODE_CACHE", str(tmp_path))
    assert keep_bytecode() == tmp_path and sys.pycache_prefix == str(tmp_path) and not sys.dont_write_bytecode
    monkeypatch.setattr(sys, "dont_write_bytecode", False)  # Python writes bytecode anyway: nothing to do
    monkeypatch.setattr(sys, "pycache_prefix", None)
    assert keep_bytecode() is None and sys.pycache_prefix is None
