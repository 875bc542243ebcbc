"""Clients that hold connections open: a head or a body trickled a byte at a time, one address
opening hundreds of connections, and a flood at the process's descriptor limit. Each is the
attacker's steps against the server without --dev; the server answers every one, sheds what is
over its limits with 503 and Retry-After, keeps answering everyone else, and never dies.

The attacker connects from 127.0.0.2 (every 127/8 address is this machine's loopback), so the
operator's own checks from 127.0.0.1 are another client address, as a load balancer's are."""
import http.client
import resource
import select
import socket
import time

import pytest

from server_helpers import SERVER, DevServer, database_url

ATTACKER = "127.0.0.2"


def production(tmp_path, *args, descriptors=None):
    """The server without --dev; with `descriptors`, its open-file limit (soft and hard) is that."""
    limit = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, descriptors))) if descriptors else None
    return DevServer("--database", database_url(tmp_path), *args, executable=SERVER, preexec_fn=limit)


def open_held(server, count, head=b"POST /v1/events HTTP/1.1\r\nhost: x\r\n"):
    """`count` connections from the attacker's address, each having sent part of a head."""
    held = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(ATTACKER, 0))
        connection.sendall(head)
        held.append(connection)
    return held


def answer_or_close(connection, timeout):
    """The first line the server wrote on `connection` and the rest of what it wrote, or (None,
    b"") when it closed without a word."""
    connection.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = connection.recv(4096)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, socket.timeout):
        pass
    line, _, rest = data.partition(b"\r\n")
    return (line.decode() or None), rest


def answers_within(connections, seconds, closed_enough=None, settle=0.5):
    """What the server wrote on each connection within `seconds` (as `answer_or_close` reads it;
    (None, b"") for one it holds without a word). With `closed_enough`, the reading ends `settle`
    seconds after that many connections closed: a loaded machine may take seconds to accept them
    all, and a quiet one should not wait for nothing."""
    data, open_ = {connection: b"" for connection in connections}, set(connections)
    deadline = time.monotonic() + seconds
    while open_ and time.monotonic() < deadline:
        if closed_enough is not None and len(connections) - len(open_) >= closed_enough:
            deadline = min(deadline, time.monotonic() + settle)
            closed_enough = None
        readable, _, _ = select.select(list(open_), [], [], max(0.0, deadline - time.monotonic()))
        for connection in readable:
            try:
                chunk = connection.recv(4096)
            except ConnectionResetError:
                chunk = b""
            data[connection] += chunk
            if not chunk:
                open_.discard(connection)
    answers = []
    for connection in connections:
        line, _, rest = data[connection].partition(b"\r\n")
        answers.append((line.decode() or None, rest))
    return answers


def healthz(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        return response.status, response.getheader("retry-after")
    finally:
        connection.close()


def trickle(connection, data, every, until):
    """Sends `data` a byte every `every` seconds, for at most `until` seconds or until the
    server closes; the seconds it took."""
    started = time.monotonic()
    for byte in data:
        if time.monotonic() - started > until:
            break
        try:
            connection.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            break
        time.sleep(every)
    return time.monotonic() - started


def test_a_head_trickled_a_byte_at_a_time_is_answered_408_when_its_time_is_up(tmp_path):
    server = production(tmp_path, "--request-head-timeout-ms", "700")
    try:
        [connection] = open_held(server, 1, head=b"G")
        took = trickle(connection, b"ET /healthz HTTP/1.1\r\nx-slow: " + b"a" * 200, every=0.05, until=5)
        assert took < 4, "the server cut the head off well before the client was done"
        line, rest = answer_or_close(connection, timeout=5)
        assert line == "HTTP/1.1 408 Request Timeout" and b'"request_timeout"' in rest
        assert healthz(server) == (200, None)
    finally:
        server.stop()


def test_a_body_trickled_a_byte_at_a_time_is_cut_off_when_its_time_is_up(tmp_path):
    server = production(tmp_path, "--request-body-timeout-ms", "700")
    try:
        head = b"POST /v1/events HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 400\r\n\r\n"
        [connection] = open_held(server, 1, head=head)
        took = trickle(connection, b'{"records":[' + b" " * 380, every=0.05, until=10)
        assert took < 5, "the server closed the connection well before the body was done"
        line, _ = answer_or_close(connection, timeout=5)
        assert line is None or not line.startswith("HTTP/1.1 2"), line
        assert healthz(server) == (200, None)
    finally:
        server.stop()


def test_one_address_holding_many_connections_is_shed_past_its_share_and_others_are_served(tmp_path):
    server = production(tmp_path, "--max-connections-per-address", "20")
    try:
        held = open_held(server, 35)
        assert healthz(server) == (200, None), "another address is still served"
        # Which 15 are shed is the server's order of admitting them, which its event loops do not
        # keep to the order they were opened in: read them all, and count.
        answers = answers_within(held, seconds=15, closed_enough=15)
        shed = [rest for line, rest in answers if line == "HTTP/1.1 503 Service Unavailable"]
        assert len(shed) == 15 and all(line is None for line, _ in answers if line != "HTTP/1.1 503 Service Unavailable"), answers
        assert all(b"retry-after: 1" in rest.lower() and b'"overloaded"' in rest for rest in shed)
        for connection in held:
            connection.close()
    finally:
        server.stop()


def test_past_the_servers_connection_limit_new_connections_are_answered_503_not_left_waiting(tmp_path):
    server = production(tmp_path, "--max-connections", "30", "--max-connections-per-address", "0")
    try:
        held = open_held(server, 30)
        # The held connections count once the server has accepted them, which a loaded machine
        # may take a while to do; until then a check may still be served. Each check is answered
        # (healthz waits 10 s at most), and once all 30 are in, it is 503 with when to come back.
        deadline = time.monotonic() + 15
        while (answer := healthz(server)) == (200, None) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert answer == (503, "1"), "a full server says so at once, with when to come back"
        for connection in held:
            connection.close()
        deadline = time.monotonic() + 10
        while healthz(server)[0] != 200:
            assert time.monotonic() < deadline, "the server never took connections again"
            time.sleep(0.1)
    finally:
        server.stop()


def test_a_flood_at_the_descriptor_limit_leaves_the_server_up_and_answering(tmp_path):
    # Before the limits, this took the process's last descriptors: libdispatch could not open
    # one to watch its threads and stopped the server (SIGILL) within seconds.
    server = production(tmp_path, "--rate-limit-address", "50", descriptors=256)
    try:
        held = open_held(server, 600, head=b"POST /v1/events HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{")
        time.sleep(4)
        assert server.process.poll() is None, server.process.stderr.read()
        assert healthz(server) == (200, None)
        for connection in held:
            connection.close()
    finally:
        server.stop()


def test_a_connection_limit_the_descriptors_cannot_hold_stops_the_start_naming_both(tmp_path):
    with pytest.raises(RuntimeError) as refused:
        production(tmp_path, "--max-connections", "5000", descriptors=1024)
    assert "--max-connections 5000" in str(refused.value) and "ulimit -n" in str(refused.value)
