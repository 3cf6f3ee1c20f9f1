#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for the tests: initdb into a temporary folder, pg_ctl on a free
loopback port, password authentication, stopped and deleted afterwards.

Usage:
    python3 tools/pg_cluster.py start [--install]   # prints shell lines for eval:
        export MORDHEIM_TEST_PG_URL='postgresql://mordheim:PASSWORD@127.0.0.1:PORT/mordheim_test'
        export MORDHEIM_TEST_PG_DIR='/tmp/mordheim-pg-XXXX'
    python3 tools/pg_cluster.py stop DIR             # stops the cluster in DIR and deletes DIR

`.ci/run` uses both; `tests/pg.py` imports this module and calls start() / Cluster.stop() when
MORDHEIM_TEST_PG_URL is not set. Standard library only, so it runs before any virtual environment.

The server runs as an unprivileged user, because PostgreSQL refuses to run as root (CI runs as
root): when this script runs as root, initdb, pg_ctl and the server run as MORDHEIM_PG_OS_USER
(default `postgres`, else `nobody`), who owns the temporary folder (data, socket, log); otherwise
they run as the calling user. The superuser `mordheim` has a random password, and every connection,
loopback TCP or the folder's Unix socket, must give it (scram-sha-256): no trust, no peer.
Durability is off (fsync, synchronous_commit, full_page_writes) and shared_buffers is small: the
data is thrown away.

Environment:
    MORDHEIM_PG_BIN      folder holding initdb and pg_ctl (default: the newest
                         /usr/lib/postgresql/*/bin, else the ones on PATH)
    MORDHEIM_PG_OS_USER  the OS user the server runs as when this runs as root
    MORDHEIM_PG_TMPDIR   where the temporary folder is made (default: the system's temporary folder)

`start --install`: when no PostgreSQL is found, MORDHEIM_PG_BIN is not set, and this runs as root
on a system with apt-get, installs the distribution's `postgresql` package first (for CI images).
"""

from __future__ import annotations

import argparse
import glob
import os
import pwd
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "mordheim"
DATABASE = "mordheim_test"
MARKER = "mordheim-pg-cluster"  # a file in every folder this script made; `stop` deletes no other folder
START_TIMEOUT = 30  # seconds pg_ctl waits for the server to accept connections
PORT_ATTEMPTS = 5  # a free port found can be taken by someone else before the server binds it

SERVER_SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "16MB",
    "max_connections": "100",
    "max_wal_size": "256MB",  # fewer checkpoints while tests create and drop databases
    "dynamic_shared_memory_type": "posix",
}


class ClusterError(RuntimeError):
    """The cluster could not be started or stopped; the message says why and what to do."""


@dataclass
class Cluster:
    dir: Path  # the temporary folder: data/, the Unix socket, server.log
    port: int
    password: str
    bin_dir: Path
    os_user: str  # the OS user the server runs as
    database: str = DATABASE
    start_seconds: float = 0.0

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}:{self.password}@127.0.0.1:{self.port}/{self.database}"

    def stop(self) -> float:
        """Stop the server and delete the folder; returns the seconds it took."""
        return stop(self.dir)


# -- finding PostgreSQL ---------------------------------------------------------------------------


def _version_key(path: str) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", path)) or (0,)


def find_bin_dir() -> Path:
    """The folder with initdb and pg_ctl; ClusterError if there is none."""
    explicit = os.environ.get("MORDHEIM_PG_BIN")
    if explicit:
        bin_dir = Path(explicit)
        missing = [tool for tool in ("initdb", "pg_ctl", "createdb") if not (bin_dir / tool).is_file()]
        if missing:
            raise ClusterError(f"MORDHEIM_PG_BIN={explicit}: no {', '.join(missing)} there")
        return bin_dir
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=_version_key)
    if candidates:
        return Path(candidates[-1]).parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("pg_ctl"):
        return Path(on_path).resolve().parent
    raise ClusterError(
        "PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb and no initdb on PATH. "
        "Install it (Debian/Ubuntu: apt-get install postgresql) or set MORDHEIM_PG_BIN to the folder "
        "holding initdb and pg_ctl"
    )


def install_postgresql() -> None:
    """apt-get install postgresql (root on a Debian-like system only)."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise ClusterError("PostgreSQL is missing and cannot be installed here (needs root and apt-get)")
    _log("PostgreSQL is not installed: apt-get install postgresql")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "postgresql"]):
        done = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            raise ClusterError(f"{' '.join(cmd)} failed:\n{done.stdout[-2000:]}")


# -- running as the unprivileged user --------------------------------------------------------------


def _os_user() -> pwd.struct_passwd:
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid())
    names = [os.environ["MORDHEIM_PG_OS_USER"]] if os.environ.get("MORDHEIM_PG_OS_USER") else ["postgres", "nobody"]
    for name in names:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise ClusterError(
        f"running as root, and no unprivileged user to run PostgreSQL as (tried {', '.join(names)}): "
        "create one (useradd --system postgres) or set MORDHEIM_PG_OS_USER"
    )


def _run(cmd: list[str], user: pwd.struct_passwd, cwd: Path, env_extra: dict[str, str] | None = None,
         timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(cwd),
        "LC_ALL": "C",
        "TZ": "UTC",
        **(env_extra or {}),
    }
    kwargs: dict = {}
    if os.geteuid() == 0 and user.pw_uid != 0:
        kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
    return subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=timeout, **kwargs)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no server log)"


def _log(message: str) -> None:
    print(f"pg_cluster: {message}", file=sys.stderr, flush=True)


# -- start and stop --------------------------------------------------------------------------------


def start(database: str = DATABASE, install: bool = False) -> Cluster:
    """Start a throwaway cluster with an empty database `database`; ClusterError if it cannot."""
    began = time.perf_counter()
    try:
        bin_dir = find_bin_dir()
    except ClusterError:
        if not install or os.environ.get("MORDHEIM_PG_BIN"):
            raise
        install_postgresql()
        bin_dir = find_bin_dir()
    user = _os_user()
    if os.geteuid() == 0 and user.pw_uid == 0:
        raise ClusterError("MORDHEIM_PG_OS_USER is root: PostgreSQL refuses to run as root")

    base = os.environ.get("MORDHEIM_PG_TMPDIR") or None
    folder = Path(tempfile.mkdtemp(prefix="mordheim-pg-", dir=base))
    (folder / MARKER).write_text(f"{os.getpid()}\n")
    os.chmod(folder, 0o700)
    if os.geteuid() == 0:
        os.chown(folder, user.pw_uid, user.pw_gid)
        os.chown(folder / MARKER, user.pw_uid, user.pw_gid)
    try:
        return _start_in(folder, bin_dir, user, database, began)
    except BaseException:  # a failure, ^C or SIGTERM: leave no server and no folder behind
        try:
            stop(folder, quiet=True)
        except ClusterError as exc:
            _log(f"cleaning up after the failed start: {exc}")
        raise


def _start_in(folder: Path, bin_dir: Path, user: pwd.struct_passwd, database: str, began: float) -> Cluster:
    password = secrets.token_hex(16)
    pwfile = folder / "pwfile"
    pwfile.write_text(password + "\n")
    if os.geteuid() == 0:
        os.chown(pwfile, user.pw_uid, user.pw_gid)
    os.chmod(pwfile, 0o600)
    data = folder / "data"
    steps = [time.perf_counter()]
    try:
        done = _run([str(bin_dir / "initdb"), "-D", str(data), "-U", SUPERUSER, f"--pwfile={pwfile}",
                     "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
                    user, folder)
    except OSError as exc:
        raise ClusterError(f"initdb could not run ({bin_dir}/initdb): {exc}") from exc
    pwfile.unlink()
    if done.returncode != 0:
        hint = (f"\n(the OS user {user.pw_name} must be able to reach {folder.parent}: set MORDHEIM_PG_TMPDIR "
                "to a folder it can reach)") if "Permission denied" in done.stdout else ""
        raise ClusterError(f"initdb failed (as OS user {user.pw_name}, in {folder}):\n{done.stdout.strip()}{hint}")
    steps.append(time.perf_counter())

    log = folder / "server.log"
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port = _free_port()
        settings = {**SERVER_SETTINGS, "port": str(port), "unix_socket_directories": str(folder)}
        options = " ".join(f"-c {shlex.quote(f'{key}={value}')}" for key, value in settings.items())
        done = _run([str(bin_dir / "pg_ctl"), "start", "-D", str(data), "-l", str(log), "-w",
                     "-t", str(START_TIMEOUT), "-o", options], user, folder, timeout=START_TIMEOUT + 10)
        if done.returncode == 0:
            break
        server_log = _tail(log)
        if "already in use" in server_log and attempt < PORT_ATTEMPTS:
            _log(f"port {port} was taken before the server bound it; trying another")
            log.unlink(missing_ok=True)
            continue
        raise ClusterError(f"pg_ctl start failed (port {port}):\n{done.stdout.strip()}\nserver log:\n{server_log}")

    steps.append(time.perf_counter())
    cluster = Cluster(dir=folder, port=port, password=password, bin_dir=bin_dir, os_user=user.pw_name,
                      database=database)
    # createdb over TCP with the password: checks the URL's way in before anyone is handed it
    done = _run([str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", SUPERUSER, database],
                user, folder, env_extra={"PGPASSWORD": password, "PGCONNECT_TIMEOUT": "10"}, timeout=30)
    if done.returncode != 0:
        raise ClusterError(f"createdb {database} failed:\n{done.stdout.strip()}\nserver log:\n{_tail(log)}")
    steps.append(time.perf_counter())
    cluster.start_seconds = steps[-1] - began
    version = (folder / "data" / "PG_VERSION").read_text().strip()
    initdb, server, createdb = (b - a for a, b in zip(steps, steps[1:]))
    _log(f"PostgreSQL {version} started on 127.0.0.1:{port} as OS user {user.pw_name} in {cluster.start_seconds:.2f} s "
         f"(initdb {initdb:.2f} s, server {server:.2f} s, createdb {createdb:.2f} s; {folder})")
    return cluster


def stop(folder: Path | str, quiet: bool = False) -> float:
    """Stop the cluster in `folder` (if it runs) and delete the folder; returns the seconds it took."""
    began = time.perf_counter()
    folder = Path(folder)
    if not (folder / MARKER).is_file():
        raise ClusterError(f"{folder} is not a folder made by tools/pg_cluster.py (no {MARKER} file): not touching it")
    data = folder / "data"
    pid_file = data / "postmaster.pid"
    server_seconds = 0.0
    if pid_file.is_file():
        owner = pwd.getpwuid(folder.stat().st_uid)
        bin_dir = _bin_dir_of(data)
        # immediate: no shutdown checkpoint, the data is thrown away anyway
        done = _run([str(bin_dir / "pg_ctl"), "stop", "-D", str(data), "-m", "immediate", "-w", "-t", "30"],
                    owner, folder, timeout=40)
        if done.returncode != 0 and pid_file.is_file():
            _kill_postmaster(pid_file)
        server_seconds = time.perf_counter() - began
        if server_seconds > 2 and not quiet:
            _log(f"the server took {server_seconds:.1f} s to stop; its log ends:\n{_tail(folder / 'server.log', 10)}")
    shutil.rmtree(folder, ignore_errors=True)
    if folder.exists():
        raise ClusterError(f"could not delete {folder}")
    seconds = time.perf_counter() - began
    if not quiet:
        _log(f"stopped and deleted {folder} in {seconds:.2f} s (server {server_seconds:.2f} s, "
             f"deleting {seconds - server_seconds:.2f} s)")
    return seconds


def _bin_dir_of(data: Path) -> Path:
    """The bin folder that runs `data`: the one of its major version when installed side by side."""
    try:
        version = (data / "PG_VERSION").read_text().strip()
    except OSError:
        version = ""
    explicit = os.environ.get("MORDHEIM_PG_BIN")
    if explicit and (Path(explicit) / "pg_ctl").is_file():
        return Path(explicit)
    if version and Path(f"/usr/lib/postgresql/{version}/bin/pg_ctl").is_file():
        return Path(f"/usr/lib/postgresql/{version}/bin")
    return find_bin_dir()


def _kill_postmaster(pid_file: Path) -> None:
    """pg_ctl stop failed: SIGKILL the postmaster named in the pid file (its children exit with it)."""
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError) as exc:
        raise ClusterError(f"pg_ctl stop failed and the pid file cannot be read: {exc}") from exc
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return  # no such process: the server is gone
    if b"postgres" not in command:
        return  # a stale pid file whose number now belongs to another process: leave it alone
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return
    except OSError as exc:
        raise ClusterError(f"pg_ctl stop failed and the postmaster {pid} could not be killed: {exc}") from exc
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise ClusterError(f"the postmaster {pid} is still running after SIGKILL")


# -- command line ----------------------------------------------------------------------------------


def _raise_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    start_cmd = commands.add_parser("start", help="start a cluster; print `export` lines for eval")
    start_cmd.add_argument("--install", action="store_true", help="apt-get install postgresql when it is missing")
    start_cmd.add_argument("--database", default=DATABASE)
    stop_cmd = commands.add_parser("stop", help="stop the cluster in DIR and delete DIR")
    stop_cmd.add_argument("dir")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _raise_on_sigterm)
    try:
        if args.command == "start":
            cluster = start(args.database, install=args.install)
            print(f"export MORDHEIM_TEST_PG_URL={shlex.quote(cluster.url)}")
            print(f"export MORDHEIM_TEST_PG_DIR={shlex.quote(str(cluster.dir))}")
        else:
            stop(args.dir)
    except ClusterError as exc:
        _log(f"error: {exc}")
        return 1
    except KeyboardInterrupt as exc:  # ^C or SIGTERM; start() has cleaned up after itself
        _log(f"interrupted ({exc or 'SIGINT'})")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
