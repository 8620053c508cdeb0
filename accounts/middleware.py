"""A signed-in player's profile language wins over the cookie, on every device."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class ProfileLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)
