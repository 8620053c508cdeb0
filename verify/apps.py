from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VerifyConfig(AppConfig):
    name = "verify"
    verbose_name = _("Verify")
