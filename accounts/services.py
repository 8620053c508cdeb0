"""State changes for accounts: one function per use case."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User
from wallet import services as wallet_services


class UsernameTaken(Exception):
    """Another account already has this username (the form checks first; a race ends here)."""


def user_create(
    *, username: str, display_name: str, password: str, language: str, email: str = ""
) -> User:
    """Create a player with an Argon2-hashed password; UsernameTaken if the name is gone.
    ``email`` (optional) is where a forgotten password's link goes."""
    if language not in User.Language.values:
        raise ValueError(language)
    user = User(username=username, display_name=display_name, language=language, email=email)
    user.set_password(password)
    # The starter grant commits with the account, so no account is ever made without it.
    with transaction.atomic():
        try:
            # A savepoint, so a caller's transaction survives the refused insert.
            with transaction.atomic():
                user.save()
        except IntegrityError as exc:
            raise UsernameTaken(username) from exc
        wallet_services.grant_starter(user=user)
    return user


@transaction.atomic
def user_update_profile(
    *, user: User, display_name: str, language: str, digits: str | None = None
) -> None:
    """Save a player's display name, language and digit style (None keeps the style)."""
    if language not in User.Language.values:
        raise ValueError(language)
    if digits is not None and digits not in User.Digits.values:
        raise ValueError(digits)
    locked = User.objects.select_for_update().get(pk=user.pk)
    locked.display_name, locked.language = display_name, language
    if digits is not None:
        locked.digits = digits
    locked.save(update_fields=["display_name", "language", "digits"])
    user.display_name, user.language, user.digits = display_name, language, locked.digits


@transaction.atomic
def user_set_language(*, user: User, language: str) -> None:
    """Remember a signed-in player's language so every device shows it."""
    if language not in User.Language.values:
        raise ValueError(language)
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language


@transaction.atomic
def user_set_email(*, user: User, email: str) -> None:
    """Save (or, blank, remove) the address a forgotten password's link is sent to."""
    User.objects.filter(pk=user.pk).update(email=email)
    user.email = email
