from django.apps import AppConfig


class LanguageConfig(AppConfig):
    name = "language"
    verbose_name = "Words and digits"
