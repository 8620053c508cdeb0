"""Celery's lines about the routine periodic tasks (the heartbeat every 10 s, the sweeper every
second or two) are DEBUG, not INFO: quiet at --loglevel=INFO, shown when asked
(--loglevel=DEBUG). Other tasks' lines keep INFO. The lines come from Celery's own code: beat's
Scheduler.apply_entry, and the worker's "received" and "succeeded" messages."""

from __future__ import annotations

import logging

import pytest
from celery.app import trace
from celery.beat import ScheduleEntry, Scheduler
from django.conf import settings

from sahrat_site import celery as sahrat_celery
from sahrat_site.celery import app

ROUTINE = sorted(e["task"] for e in settings.CELERY_BEAT_SCHEDULE.values())


def log_one_cycle(task: str) -> None:
    """What beat and a worker log for one run of ``task``."""
    scheduler = Scheduler(app, lazy=True)
    scheduler.apply_async = lambda *args, **kwargs: None  # nothing goes to the broker
    scheduler.apply_entry(ScheduleEntry(name=task.rsplit(".", 1)[-1], task=task, app=app))
    context = {"id": "abc", "name": task, "args": "()", "kwargs": "{}", "eta": None}
    logging.getLogger("celery.worker.strategy").info(
        trace.LOG_RECEIVED, context, extra={"data": context}
    )
    trace.info(trace.LOG_SUCCESS, {**context, "return_value": "1.0", "runtime": 0.001})


def lines_about(caplog, task: str) -> list[tuple[str, int]]:
    return [(r.name, r.levelno) for r in caplog.records if task in r.getMessage()]


def test_every_scheduled_task_is_a_routine_one():
    assert set(ROUTINE) == set(sahrat_celery.ROUTINE_TASKS)


@pytest.mark.parametrize("task", ROUTINE)
def test_routine_tasks_are_quiet_at_info(caplog, task):
    caplog.set_level(logging.INFO)
    log_one_cycle(task)
    assert lines_about(caplog, task) == []


@pytest.mark.parametrize("task", ROUTINE)
def test_routine_tasks_show_at_debug_when_asked(caplog, task):
    caplog.set_level(logging.DEBUG)
    log_one_cycle(task)
    lines = lines_about(caplog, task)
    assert {name for name, _ in lines} >= {
        "celery.beat",
        "celery.worker.strategy",
        "celery.app.trace",
    }
    assert {level for _, level in lines} == {logging.DEBUG}


def test_other_tasks_keep_info(caplog):
    caplog.set_level(logging.INFO)
    log_one_cycle("games.tasks.match_due")
    lines = lines_about(caplog, "games.tasks.match_due")
    assert len(lines) == 3 and {level for _, level in lines} == {logging.INFO}
