"""`mordheim-bot` as a new user runs it: no token means the console, in one line."""

import os
import subprocess
import sys


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
