#!/usr/bin/python3
"""A D-Bus "bus" that never answers, for the tests of a silent system bus.

    silent_bus.py SOCKET_PATH [--after-auth]

Listens on the Unix socket SOCKET_PATH and accepts every connection. Without --after-auth it
says nothing at all (the client's authentication never ends); with it, it completes the
SASL EXTERNAL handshake as dbus-daemon does (OK, AGREE_UNIX_FD) and then reads whatever the
client sends — its Hello first — and answers nothing. Prints "listening" once it listens.
Runs until killed.
"""
import os
import socket
import sys
import threading
import uuid


def handshake(connection):
    """Answers the client's SASL lines until BEGIN."""
    pending = b""
    while True:
        data = connection.recv(4096)
        if not data:
            return False
        pending += data.lstrip(b"\0")
        while b"\r\n" in pending:
            line, pending = pending.split(b"\r\n", 1)
            if line.startswith(b"AUTH"):
                connection.sendall(b"OK " + uuid.uuid4().hex.encode() + b"\r\n")
            elif line.startswith(b"NEGOTIATE_UNIX_FD"):
                connection.sendall(b"AGREE_UNIX_FD\r\n")
            elif line.startswith(b"BEGIN"):
                return True
            else:
                connection.sendall(b"ERROR\r\n")


def serve(connection, after_auth):
    try:
        if after_auth and not handshake(connection):
            return
        while connection.recv(65536):
            pass
    except OSError:
        pass


def main():
    path = sys.argv[1]
    after_auth = "--after-auth" in sys.argv[2:]
    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    print("listening", flush=True)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, after_auth), daemon=True).start()


if __name__ == "__main__":
    main()
