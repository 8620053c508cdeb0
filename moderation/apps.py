from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    """Chat that stays decent: the word filter, mutes and the panic switch, reports, chat
    timeouts and bans from coin tables, and the staff's moderation queue."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from moderation.models import BannedWord
        from moderation.rules import forget_words

        # A word edited in the admin applies at once, in this process and (by the stamp in Redis,
        # moderation.rules) in every other.
        post_save.connect(forget_words, sender=BannedWord, dispatch_uid="forget-words-saved")
        post_delete.connect(forget_words, sender=BannedWord, dispatch_uid="forget-words-gone")
