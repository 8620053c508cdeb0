"""Daphne's WebSocket protocol with backpressure against a flooding client.

Daphne reads every frame a client sends and queues it for the application without limit, and it
goes on reading and queueing while a close handshake waits for a client that never reads. One
socket sending a million one-byte frames kept Daphne's only event loop parsing for half a minute
(another player's round trip went to 1.8 s) and left 93 MB behind. The consumer's rate limit
(realtime/consumer.py) decides when a socket is flooding; this protocol keeps the flood cheap
until then and stops it after:

- at most ``MAX_PENDING`` frames of one socket wait for its application. Past that, Daphne stops
  reading the socket (TCP pushes back on the sender) until the application has caught up, and the
  frame that overflowed is dropped. Only a client far past the rate limit gets there, and the
  consumer closes it a moment later;
- once the server has started closing a socket, no further frame reaches the application;
- a socket closed for flooding (close code 4429) is never read again: its close frame still goes
  out, and the connection is dropped when the close handshake times out, ``FLOOD_CLOSE_WAIT_S``
  later (autobahn's ``closeHandshakeTimeout``, 1 s for other sockets). Closing the TCP connection
  at once would not do: with unread data waiting, the kernel answers with a reset, which throws
  away whatever the client has not read yet, the close frame included; a client on a busy phone
  (or a test on two loaded cores) could take longer than 1 s to read it, and never see why.

Installed by sahrat_site/asgi.py when the application is loaded (Daphne builds its protocol from
``WebSocketFactory.protocol`` for each connection).
"""

from __future__ import annotations

from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol
from twisted.internet import reactor

from realtime.protocol import CLOSE_RATE_LIMITED

# Frames a socket's application may have waiting: far above what the rate limit lets a client send
# at once (settings.WS_RATE_BURST), far below what could hurt the process.
MAX_PENDING = 200
RESUME_CHECK_S = 0.05
# How long a socket closed for flooding has to read its close frame before the reset.
FLOOD_CLOSE_WAIT_S = 5


class GuardedWebSocketProtocol(WebSocketProtocol):
    _paused = False
    _closed_for_flood = False

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        if self.state != self.STATE_OPEN:
            return
        queue = getattr(self, "application_queue", None)
        if queue is not None and queue.qsize() >= MAX_PENDING:
            self._pause()
            return
        super().onMessage(payload, isBinary)

    def serverClose(self, code: int | None = None) -> None:
        if code == CLOSE_RATE_LIMITED:
            self.closeHandshakeTimeout = FLOOD_CLOSE_WAIT_S  # read before sendClose arms it
        super().serverClose(code)
        if code == CLOSE_RATE_LIMITED:
            self._closed_for_flood = True
            self._pause()

    def _pause(self) -> None:
        if self._paused or self.transport is None:
            return
        self._paused = True
        self.transport.pauseProducing()  # stop reading; writing goes on
        reactor.callLater(RESUME_CHECK_S, self._maybe_resume)

    def _maybe_resume(self) -> None:
        if self._closed_for_flood or self.state != self.STATE_OPEN or self.transport is None:
            return  # stays paused until the close handshake times out and drops it
        queue = getattr(self, "application_queue", None)
        if queue is not None and queue.qsize() >= MAX_PENDING // 2:
            reactor.callLater(RESUME_CHECK_S, self._maybe_resume)
            return
        self._paused = False
        self.transport.resumeProducing()


def install() -> None:
    """Make every new Daphne WebSocket connection a guarded one."""
    WebSocketFactory.protocol = GuardedWebSocketProtocol
