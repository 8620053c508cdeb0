"""What the WebSocket protocol fixes for every socket (docs/protocol.md): the close codes, the
words of each refusal, and what a sequence number is."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

# Close codes in the 4000 range are the application's own (RFC 6455 §7.4.2); docs/protocol.md.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY_SOCKETS = 4409
CLOSE_RATE_LIMITED = 4429
# The server could not set the socket up: try again later. RFC 6455's own 1013 says the same, but
# Daphne's autobahn sends only 1000 and 3000-4999 (any other code raises inside the application
# and the client sees 1011), so the code is the application's, after HTTP's 503.
CLOSE_TRY_AGAIN = 4503

ERRORS = {
    "not_text": _("A message must be JSON text."),
    "too_long": _("The message is too long."),
    "not_json": _("The message is not valid JSON."),
    "too_deep": _("The message nests too deeply."),
    "no_type": _('A message must be a JSON object with a "type" field.'),
    "bad_seq": _("The sequence number (seq) must be a whole number."),
    "unknown_type": _("Unknown message type."),
    "rate_limited": _("Too many messages too fast; the connection is closed. Reconnect to go on."),
    "too_many_sockets": _(
        "You have too many Sahrat pages open; close one and reload this page to connect."
    ),
    "unavailable": _("The server is busy; reload the page in a moment."),
}


def is_seq(value: Any) -> bool:
    """A sequence number is a JSON integer: not a string, a float (even 1.0), a bool or null."""
    return isinstance(value, int) and not isinstance(value, bool)
