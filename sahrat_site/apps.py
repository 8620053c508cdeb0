from django.apps import AppConfig


class SahratSiteConfig(AppConfig):
    """The project package as an app, so its system checks are registered at start-up."""

    name = "sahrat_site"
    verbose_name = "Sahrat"

    def ready(self) -> None:
        from sahrat_site import checks  # noqa: F401  (registers the checks)
