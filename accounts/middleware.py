"""Which language a page speaks: the profile, then the visitor's own choice, then Arabic.

Django's LocaleMiddleware would fall back to the browser's Accept-Language. Sahrat is Arabic
first: many Gulf players carry phones set to English yet expect the majlis in Arabic, so a
visitor who never chose sees Arabic, and one click on the switch (a cookie) gives English.
"""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from language import digits


def chosen_language(request: HttpRequest) -> str:
    """The signed-in player's profile language, else the switch's cookie, else Arabic."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.language:
        return user.language
    cookie = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return cookie if cookie in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


class ProfileLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = chosen_language(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        # The digits every number of this page is written in (the profile's choice, else the
        # language's); the response is rendered inside, so templates and rendering.py see it.
        token = digits.activate(digits.style_of(getattr(request, "user", None), language))
        try:
            return self.get_response(request)
        finally:
            digits.reset(token)
