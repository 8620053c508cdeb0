from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "standing"
    verbose_name = _("Standing")
