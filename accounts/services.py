"""State changes for accounts: one function per use case."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User


@transaction.atomic
def user_set_language(*, user: User, language: str) -> None:
    """Remember a signed-in player's language so every device shows it."""
    if language not in User.Language.values:
        raise ValueError(language)
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language
