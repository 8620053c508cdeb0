"""ASGI entry point: Daphne serves HTTP and WebSockets from this one application."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from realtime import collector, daphne_guard  # noqa: E402
from realtime.origin import SiteOriginValidator  # noqa: E402
from sahrat_site.routing import websocket_urlpatterns  # noqa: E402

# Backpressure against flooding sockets (realtime/daphne_guard.py).
daphne_guard.install()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Origin first (a foreign page, or another port or scheme of this host, cannot open a
        # socket with the player's cookies), then the session user; each consumer refuses
        # anonymous users itself.
        "websocket": SiteOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Last: everything loaded so far is out of the garbage collector's sight (realtime/collector.py).
collector.tune()
