"""Tables served by real Daphne processes, from outside, over real WebSockets: two processes
behind one Redis and one PostgreSQL serve one table together, and again with the channel layer
sharded over two Redis servers (the test starts the second); a process reaching PostgreSQL through
PgBouncer in transaction mode (docs/scaling.md); and a restarted process picks every match up from
the database."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg
import pytest
import redis
from channels_redis.utils import _consistent_hash
from django.conf import settings
from django.test import Client
from websockets.sync.client import connect

import games
from bench import processes
from games.models import Match
from tests.conftest import ARTIFACTS, _subprocess_env
from tests.support.processes import free_port, stop, wait_port
from tests.tables.helpers import make_table, seat_humans

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def table_socket(stack: ExitStack, base: str, table_id: str, user):
    return stack.enter_context(
        connect(
            f"{base.replace('http', 'ws')}/ws/table/{table_id}/?format=json",
            origin=base,
            additional_headers={"Cookie": cookie(user)},
            open_timeout=20,
        )
    )


def state_at(ws, seq: int) -> dict:
    """Frames until a state at ``seq`` or later (bounded by the recv timeout)."""
    for _ in range(200):
        frame = json.loads(ws.recv(timeout=20))
        if frame["type"] == "state" and frame["match"]["seq"] >= seq:
            return frame
    raise AssertionError(f"no state at seq {seq}")


def move(ws, state: dict) -> None:
    action = games.get(state["table"]["game"]).bot_action(state["view"])
    ws.send(json.dumps({"type": "move", "seq": state["match"]["seq"], "action": action}))


def play_six_moves_across(
    one: str, two: str, table_id: str, users, while_open: Callable[[], None] = lambda: None
) -> None:
    """Each player on one process: every move, made on one, reaches the player on the other.
    ``while_open`` runs after the moves, the sockets still open."""
    with ExitStack() as stack:
        socks = [
            table_socket(stack, one, table_id, users[0]),
            table_socket(stack, two, table_id, users[1]),
        ]
        states = [state_at(ws, 0) for ws in socks]
        for seq in range(6):
            turn = states[0]["view"]["turn"]
            move(socks[turn], states[turn])
            states = [state_at(ws, seq + 1) for ws in socks]
            assert states[0]["match"]["seq"] == states[1]["match"]["seq"] == seq + 1
            assert states[0]["view"]["marbles"] == states[1]["view"]["marbles"]
        while_open()


def test_two_daphne_processes_on_two_redis_shards_serve_one_table_together(creator, users):
    """CHANNEL_REDIS_URLS lists two Redis servers: channels-redis spreads the channels over
    them (each process subscribes on both), and the table still plays across two processes."""
    port = free_port()
    shard = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_port(port, shard, "the second Redis")
        env = _subprocess_env()
        env["CHANNEL_REDIS_URLS"] = f"{env['REDIS_URL']},redis://127.0.0.1:{port}/0"
        # A table whose group channels-redis puts on the second server (by a hash of its name,
        # channels_redis.utils._consistent_hash, what its pub/sub layer shards with;
        # the same in every process): its moves reach the other process through that server.
        prefix = env.get("CHANNEL_PREFIX", "sahrat")
        for _ in range(40):
            table = make_table(creator, "jakaro", {"players": 2})
            group = f"{prefix}__group__{table.group}"
            if _consistent_hash(group, 2) == 1:
                break
        seat_humans(table, users[:2])
        second = redis.Redis(host="127.0.0.1", port=port)

        def on_the_second_server() -> None:
            assert group.encode() in second.pubsub_channels(f"{prefix}*")

        with (
            processes.daphne(env, ARTIFACTS / "daphne-shard-one.log") as (one, _),
            processes.daphne(env, ARTIFACTS / "daphne-shard-two.log") as (two, _),
        ):
            play_six_moves_across(one, two, table.public_id, users, on_the_second_server)
    finally:
        stop(shard)


def test_two_daphne_processes_serve_one_table_together(creator, users):
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    env = _subprocess_env()
    with (
        processes.daphne(env, ARTIFACTS / "daphne-one.log") as (one, _),
        processes.daphne(env, ARTIFACTS / "daphne-two.log") as (two, _),
    ):
        play_six_moves_across(one, two, table.public_id, users)


# Fewer server connections than one Daphne's pool holds (DB_POOL_MAX_SIZE, 10): the process's
# transactions take turns on two, each maybe on another than the last, as behind a busy pooler.
BOUNCER_SERVER_CONNECTIONS = 2


@contextmanager
def pgbouncer(db: dict) -> Iterator[int]:
    """PgBouncer (Debian's package, which `make test` installs) in transaction mode on a free
    port in front of the test database; yields its port. It refuses to run as root, so as root
    it runs as the postgres user, which must read its files."""
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="sahrat-pgbouncer-"))
    folder.chmod(0o755)
    users = folder / "users.txt"
    users.write_text(f'"{db["USER"]}" ""\n')
    ini = folder / "pgbouncer.ini"
    ini.write_text(
        "[databases]\n"
        f"{db['NAME']} = host={db['HOST'] or '127.0.0.1'} port={db['PORT'] or 5432} "
        f"dbname={db['NAME']}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {users}\nadmin_users = {db['USER']}\n"
        f"pool_mode = transaction\ndefault_pool_size = {BOUNCER_SERVER_CONNECTIONS}\n"
        # The tests' PGOPTIONS (tests/settings.py) arrive as the "options" startup parameter.
        "ignore_startup_parameters = extra_float_digits,options\n"
    )
    for path in (users, ini):
        path.chmod(0o644)
    command = [shutil.which("pgbouncer") or "/usr/sbin/pgbouncer", str(ini)]
    if os.geteuid() == 0:
        command[1:1] = ["-u", "postgres"]
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "pgbouncer.log", "w") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_port(port, proc, "PgBouncer (log: pgbouncer.log)")
        yield port
    finally:
        stop(proc)
        shutil.rmtree(folder)


def bouncer_transactions(port: int, user: str, name: str) -> int:
    """How many transactions PgBouncer has carried to database ``name`` (its admin console's
    SHOW STATS, which speaks only the simple query protocol)."""
    with psycopg.connect(
        host="127.0.0.1", port=port, user=user, dbname="pgbouncer", autocommit=True
    ) as conn:
        result = conn.pgconn.exec_(b"SHOW STATS")
        columns = [result.fname(i).decode() for i in range(result.nfields)]
        for row in range(result.ntuples):
            values = dict(
                zip(columns, (result.get_value(row, i) for i in range(result.nfields)), strict=True)
            )
            if values["database"] == name.encode():
                return int(values["total_xact_count"])
    raise AssertionError(f"PgBouncer has no database {name}")


def test_a_server_works_through_pgbouncer_in_transaction_mode(creator, users):
    """docs/scaling.md puts PgBouncer in transaction mode before PostgreSQL: a Daphne process
    whose ten pooled connections share two server connections serves a page and a table's moves,
    every move kept, and the pooler really carried them."""
    db = settings.DATABASES["default"]
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    with pgbouncer(db) as port:
        env = _subprocess_env()
        env["DATABASE_URL"] = f"postgres://{db['USER']}@127.0.0.1:{port}/{db['NAME']}"
        env["DB_POOLER"] = "transaction"
        with processes.daphne(env, ARTIFACTS / "daphne-pgbouncer.log") as (base, _):
            page = urllib.request.Request(
                f"{base}/majlis/t/{table.public_id}/", headers={"Cookie": cookie(users[0])}
            )
            with urllib.request.urlopen(page, timeout=30) as response:
                assert response.status == 200
                assert table.public_id in response.read().decode()
            before = bouncer_transactions(port, db["USER"], db["NAME"])
            with ExitStack() as stack:
                socks = [table_socket(stack, base, table.public_id, u) for u in users[:2]]
                states = [state_at(ws, 0) for ws in socks]
                for seq in range(12):  # each a transaction on whichever server connection is free
                    turn = states[0]["view"]["turn"]
                    move(socks[turn], states[turn])
                    states = [state_at(ws, seq + 1) for ws in socks]
                    assert states[0]["view"]["marbles"] == states[1]["view"]["marbles"]
            carried = bouncer_transactions(port, db["USER"], db["NAME"]) - before
    assert Match.objects.get(table=table, number=1).actions.count() == 12
    assert carried >= 12  # the moves' own; the sockets' sign-in and presence add more


def test_a_restarted_server_resumes_the_match_from_the_database(creator, users):
    table = make_table(creator, "hand", {"players": 2})
    seat_humans(table, users[:2])
    env = _subprocess_env()
    with processes.daphne(env, ARTIFACTS / "daphne-before.log") as (base, _), ExitStack() as stack:
        socks = [table_socket(stack, base, table.public_id, u) for u in users[:2]]
        states = [state_at(ws, 0) for ws in socks]
        for seq in range(3):
            turn = states[0]["view"]["turn"]
            move(socks[turn], states[turn])
            states = [state_at(ws, seq + 1) for ws in socks]
        before = states
    # The process is gone; a new one serves the same tables.
    with processes.daphne(env, ARTIFACTS / "daphne-after.log") as (base, _), ExitStack() as stack:
        socks = [table_socket(stack, base, table.public_id, u) for u in users[:2]]
        after = [state_at(ws, 3) for ws in socks]
        for b, a in zip(before, after, strict=True):
            assert a["view"] == b["view"] and a["match"]["seq"] == 3
        turn = after[0]["view"]["turn"]
        move(socks[turn], after[turn])
        assert [state_at(ws, 4)["match"]["seq"] for ws in socks] == [4, 4]
    assert Match.objects.get(table=table, number=1).actions.count() == 4


def test_a_server_stopped_as_its_players_leave_exits_by_itself(creator, users):
    """SIGTERM (a deploy) just as the last sockets close: their goodbyes' broadcasts run in
    worker threads after the server's loop has stopped. They used to wait on that loop for
    ever, so Daphne never exited and was killed by its supervisor (10 s later here, and in every
    test that stopped a server after closing its sockets)."""
    table = make_table(creator, "jakaro", {"players": 2})
    seat_humans(table, users[:2])
    with processes.daphne(_subprocess_env(), ARTIFACTS / "daphne-leaving.log") as (base, proc):
        stack = ExitStack()
        socks = [table_socket(stack, base, table.public_id, u) for u in users[:2]]
        states = [state_at(ws, 0) for ws in socks]
        move(socks[states[0]["view"]["turn"]], states[states[0]["view"]["turn"]])
        for ws in socks:
            state_at(ws, 1)
        stack.close()
        proc.terminate()
        assert proc.wait(timeout=60) == 0  # ended by itself, not killed
