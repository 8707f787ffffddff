"""The host side of a loopback relay (``itbench/sandbox/loopback.py``): a client that has sent
its whole request and closed its sending side still gets the answer, as over a direct TCP
connection (the write-counting proxy of live mode relays the same way)."""

from __future__ import annotations

import socket
import threading

from itbench.sandbox.loopback import LoopbackService, relayed


def _answer_after_eof(server: socket.socket) -> None:
    """Reads until the client's end of input, then answers with what it read, reversed."""
    connection, _ = server.accept()
    with connection:
        received = b""
        while chunk := connection.recv(4096):
            received += chunk
        connection.sendall(received[::-1])


def test_a_half_closed_client_still_gets_its_answer() -> None:
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    threading.Thread(target=_answer_after_eof, args=(server,), daemon=True).start()
    service = LoopbackService("127.0.0.1", port)
    with relayed((service,)) as paths, socket.socket(socket.AF_UNIX) as client:
        client.settimeout(10)
        client.connect(str(paths[service]))
        client.sendall(b"request")
        client.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := client.recv(4096):
            answer += chunk
    server.close()
    assert answer == b"tseuqer"
