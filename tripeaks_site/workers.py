"""gunicorn's sync worker, except that a connection gets the worker only once its request is in.

gunicorn's own sync worker takes a connection and then reads its request, blocking: a client that
sends its head a line a second holds the worker until gunicorn's timeout kills it, and as many
such clients as there are workers stop the site. This worker keeps every new connection waiting,
all of them at once, in the same select as its listening socket, and reads what each sends as it
comes: once the request's head is in, and its body (up to WHOLE_ENOUGH_BYTES in all; a body larger
than Django reads at all, DATA_UPLOAD_MAX_MEMORY_SIZE, is refused unread and not waited for), the
request is handled as before, one at a time, gunicorn's parser reading first what was read ahead.
A connection whose request is not in within ARRIVAL_SECONDS is answered 408 and closed, and at
most MAX_WAITING wait at once in a worker (past that the longest waiting is closed). Once answered,
a connection is closed gracefully as gunicorn does (shut down, then what the client still sends is
read until it closes too, for at most LINGER_SECONDS), in the same select rather than by waiting
on the client. Slow clients cost a socket each, not a worker.

It relies on SyncWorker's accept, wait and handle, as in the gunicorn versions pyproject.toml
allows. TLS is the proxy's: with gunicorn's own, the worker behaves as gunicorn's.
"""

import errno
import os
import re
import select
import socket
import time
from contextlib import suppress
from dataclasses import dataclass

from django.conf import settings
from gunicorn import util
from gunicorn.workers.sync import StopWaiting, SyncWorker

ARRIVAL_SECONDS = 10
# As gunicorn's graceful close: how long an answered client may take to close its side.
LINGER_SECONDS = 2
MAX_WAITING = 200
# Far more than a form of the site; a request this large is handled as the rest comes in.
WHOLE_ENOUGH_BYTES = 80 * 1024
HEAD_END = b"\r\n\r\n"
CONTENT_LENGTH = re.compile(rb"\r\ncontent-length[ \t]*:[ \t]*(\d+)", re.IGNORECASE)
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


def request_arrived(data: bytes, body_limit: int) -> bool:
    """Whether the start of a connection's bytes holds enough of its request to handle it."""
    if len(data) >= WHOLE_ENOUGH_BYTES:
        return True
    head_end = data.find(HEAD_END)
    if head_end < 0:
        return False
    declared = CONTENT_LENGTH.search(data, 0, head_end + 2)
    length = int(declared.group(1)) if declared else 0
    return length > body_limit or len(data) >= head_end + len(HEAD_END) + length


@dataclass
class Waiting:
    listener: socket.socket
    address: tuple
    deadline: float
    data: bytes = b""


class ReadAhead:
    """A client's socket as gunicorn's handling sees it: its parser reads first what was read
    ahead, and its graceful close (shut down, then read until the client closes too) is finished
    by the worker's select instead of by waiting for the client."""

    def __init__(self, sock: socket.socket, data: bytes, linger):
        self._sock = sock
        self._data = data
        self._linger = linger
        self._shut_down = False

    def recv(self, size: int) -> bytes:
        if self._shut_down:
            raise BlockingIOError(errno.EWOULDBLOCK, "the worker reads the rest of this later")
        if not self._data:
            return self._sock.recv(size)
        chunk, self._data = self._data[:size], self._data[size:]
        return chunk

    def shutdown(self, how):
        self._sock.shutdown(how)
        self._shut_down = True

    def close(self):
        if self._shut_down:
            self._linger(self._sock)
        else:
            self._sock.close()

    def __getattr__(self, name):
        return getattr(self._sock, name)


class RequestBufferingWorker(SyncWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.waiting: dict[socket.socket, Waiting] = {}
        self.lingering: dict[socket.socket, float] = {}
        """Answered connections, shut down on our side, until the client closes its side."""

    def accept(self, listener):
        if self.cfg.is_ssl:
            return super().accept(listener)
        client, address = listener.accept()
        client.setblocking(False)
        util.close_on_exec(client)
        self.waiting[client] = Waiting(listener, address, time.monotonic() + ARRIVAL_SECONDS)
        if len(self.waiting) > MAX_WAITING:
            self.drop(next(iter(self.waiting)))
        self.read_ahead([client])

    def wait(self, timeout):
        if not self.waiting and not self.lingering:
            return super().wait(timeout)
        self.notify()
        deadlines = [w.deadline for w in self.waiting.values()] + list(self.lingering.values())
        timeout = max(0, min(timeout, min(deadlines) - time.monotonic()))
        watched = [*self.wait_fds, *self.waiting, *self.lingering]
        try:
            ready = select.select(watched, [], [], timeout)[0]
        except OSError as error:
            if error.errno == errno.EBADF:
                raise StopWaiting from error
            raise
        if self.PIPE[0] in ready:
            os.read(self.PIPE[0], 1)
        self.read_ahead([sock for sock in ready if sock in self.waiting])
        self.drain([sock for sock in ready if sock in self.lingering])
        now = time.monotonic()
        for client in [client for client, w in self.waiting.items() if w.deadline <= now]:
            self.drop(client)
        for client in [client for client, end in self.lingering.items() if end <= now]:
            del self.lingering[client]
            client.close()
        return [sock for sock in ready if sock in self.wait_fds] or None

    def read_ahead(self, clients):
        """Read what these connections sent; handle each whose request is in, close those that
        hung up before it was."""
        for client in clients:
            waiting = self.waiting[client]
            try:
                received = client.recv(WHOLE_ENOUGH_BYTES)
            except BlockingIOError:
                continue
            except OSError:
                received = b""
            if not received:
                del self.waiting[client]
                client.close()
                continue
            waiting.data += received
            if request_arrived(waiting.data, settings.DATA_UPLOAD_MAX_MEMORY_SIZE):
                del self.waiting[client]
                client.setblocking(True)
                handled = ReadAhead(client, waiting.data, self.linger)
                self.handle(waiting.listener, handled, waiting.address)
                self.notify()

    def linger(self, client):
        client.setblocking(False)
        self.lingering[client] = time.monotonic() + LINGER_SECONDS

    def drain(self, clients):
        """Read and drop what closing clients still send; close each once it has closed."""
        for client in clients:
            try:
                if client.recv(WHOLE_ENOUGH_BYTES):
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            del self.lingering[client]
            client.close()

    def drop(self, client):
        """Close a connection whose request never came in, saying so if it still listens."""
        del self.waiting[client]
        with suppress(OSError):
            client.send(REQUEST_TIMEOUT)
        client.close()
