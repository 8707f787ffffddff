"""The ``ansible_python_interpreter`` of a play with a warm module interpreter
(``warm_modules.py``): started as ``python -I -S`` (no site, no environment: a few milliseconds),
it hands its standard streams, working directory, umask, environment and arguments to the server
over the sandbox-private socket, waits for the child that runs them and exits as it did.

Anything the server does not take (a client whose start-up environment differs, options other
than a script path, a terminal on stdin, no server at all) gets a fresh interpreter: this process
execs the real one with its own arguments and stdin untouched.

Standard library only.
"""

import array
import json
import os
import signal
import socket
import struct
import sys

SOCKET = "/tmp/itbench-warm-modules.sock"
STARTUP_PREFIXES = ("PYTHON", "LC_")
STARTUP_NAMES = ("LANG", "HOME")


def fresh(args):
    os.execv(sys.executable, [sys.executable, *args])


def main():
    args = sys.argv[1:]
    if len(args) > 1 or (args and (args[0].startswith("-") or not os.path.isfile(args[0]))):
        fresh(args)
    env = dict(os.environ)
    umask = os.umask(0)
    os.umask(umask)
    request = {
        "args": args,
        "cwd": os.getcwd(),
        "umask": umask,
        "env": env,
        "startup": {
            k: v for k, v in env.items() if k.startswith(STARTUP_PREFIXES) or k in STARTUP_NAMES
        },
    }
    body = json.dumps(request).encode()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(SOCKET)
        fds = array.array("i", [0, 1, 2])
        message = struct.pack("!I", len(body)) + body
        sent = conn.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds.tobytes())])
        if sent < len(message):
            conn.sendall(message[sent:])
        reply = conn.makefile("rb")
        if reply.readline() != b"warm\n":
            conn.close()
            fresh(args)
    except OSError:
        conn.close()
        fresh(args)
    # the child owns the streams now; a signal that ends this process ends it too (the server
    # kills the child when this end of the socket closes)
    line = reply.readline()
    if not line:
        os._exit(1)
    status = int(line)
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


if __name__ == "__main__":
    main()
