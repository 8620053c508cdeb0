from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX = 40


class User(AbstractUser):
    """A player (or staff member). The display name is what the table shows, not the username."""

    class Language(models.TextChoices):
        ARABIC = "ar", "العربية"
        ENGLISH = "en", "English"

    display_name = models.CharField(_("display name"), max_length=DISPLAY_NAME_MAX)
    language = models.CharField(
        _("language"), max_length=5, choices=Language.choices, default=Language.ARABIC
    )

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.display_name or self.username
