from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.names import fold

DISPLAY_NAME_MAX = 40


class SahratUserManager(UserManager):
    def get_by_natural_key(self, username: str) -> "User":
        # Log-in by any spelling that folds to the account's name: "Sara" signs in as "sara".
        return self.get(username_key=fold(username))


class User(AbstractUser):
    """A player (or staff member). The display name is what the table shows, not the username."""

    class Language(models.TextChoices):
        ARABIC = "ar", "العربية"
        ENGLISH = "en", "English"

    class Digits(models.TextChoices):
        # Unicode's numbering-system names (language/digits.py); blank: as the language reads.
        BY_LANGUAGE = "", _("as my language (Arabic-Indic in Arabic, Western in English)")
        ARABIC = "arab", _("Arabic-Indic (١٢٣)")
        WESTERN = "latn", _("Western (123)")

    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX)
    language = models.CharField(
        _("language"), max_length=5, choices=Language.choices, default=Language.ARABIC
    )
    digits = models.CharField(
        _("digits"), max_length=4, choices=Digits.choices, default=Digits.BY_LANGUAGE, blank=True
    )
    # The panic switch (moderation): every chat is hidden for this player until they bring it back.
    hide_chat = models.BooleanField(_("hide all chat"), default=False)
    # The username folded for comparison (accounts/names.py). Unique in the database, so "Sara",
    # "SARA" and a Cyrillic "Ѕаrа" cannot all be created, even by sign-ups racing each other.
    username_key = models.CharField(max_length=150, unique=True, editable=False)

    objects = SahratUserManager()

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username

    def save(self, *args, **kwargs) -> None:
        self.username_key = fold(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)
