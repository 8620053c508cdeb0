"""The Celery app: broker and result backend on Redis, tasks found in every installed app."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")

app = Celery("sahrat")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["sahrat_site"])
