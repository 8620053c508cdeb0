"""The Celery app: broker and result backend on Redis, tasks found in every installed app."""

import logging
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sahrat_site.settings")

app = Celery("sahrat")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["sahrat_site"])

# Beat sends the heartbeat every 10 s and the sweeper every second or two, and the worker says
# "received" and "succeeded" for each: at INFO that buried every line worth reading. Those lines
# of these routine tasks are logged at ROUTINE_LEVEL instead (DEBUG unless the environment says
# CELERY_ROUTINE_LOG_LEVEL=INFO); `--loglevel=DEBUG` shows them too. The tasks' own lines (a
# time-out played, a seat given up) keep their level.
ROUTINE_TASKS = frozenset({"sahrat_site.tasks.heartbeat", "games.tasks.sweep"})
ROUTINE_LEVEL = logging.getLevelName(os.environ.get("CELERY_ROUTINE_LOG_LEVEL", "DEBUG").upper())
# beat: "Sending due task"; the worker: "received" (strategy) and "succeeded" (trace).
ROUTINE_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


class RoutineTasksQuiet(logging.Filter):
    """Moves Celery's INFO lines about a routine task to ROUTINE_LEVEL, and drops them when the
    logger does not log that level."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not isinstance(ROUTINE_LEVEL, int):
            return True
        args = record.args
        # beat logs (entry name, task name); the worker a dict with the task's "name".
        names = (args.get("name"),) if isinstance(args, dict) else args
        if not isinstance(names, tuple):
            return True
        if not any(isinstance(n, str) and n in ROUTINE_TASKS for n in names):
            return True
        record.levelno, record.levelname = ROUTINE_LEVEL, logging.getLevelName(ROUTINE_LEVEL)
        return logging.getLogger(record.name).isEnabledFor(ROUTINE_LEVEL)


for _name in ROUTINE_LOGGERS:
    logging.getLogger(_name).addFilter(RoutineTasksQuiet())
