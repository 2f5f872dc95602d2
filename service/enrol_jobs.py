"""The enrolments a server runs, one :class:`EnrolJob` each: the ``deck add`` process, its progress
read from its lines, and the answer ``GET /api/decks/jobs/{job}`` gives.

>>> job = EnrolJob("family", started=100.0)
>>> job.read_progress("progress 0.250 making scenes"); job.fraction, job.message
(0.25, 'making scenes')
>>> job.public(160.0).seconds_left
180.0
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from dataclasses import dataclass, field

from .schemas import JobAnswer

MAX_JOBS = 10
"""Enrolment jobs remembered (the running one and the last finished ones), for GET /api/decks/jobs."""


@dataclass
class EnrolJob:
    """One enrolment: its deck's name, how far it is, and how it ended (``done``, or an ``error``)."""

    name: str
    started: float = field(default_factory=time.monotonic)
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    fraction: float = 0.0
    message: str = "starting"
    last_line: str = ""
    done: bool = False
    error: str | None = None
    cancelled: bool = False
    process: asyncio.subprocess.Process | None = None
    task: asyncio.Task | None = None

    @property
    def running(self) -> bool:
        return not self.done and self.error is None

    def read_progress(self, line: str) -> None:
        """Fold one line of the enrolment's standard error in: a ``progress FRACTION MESSAGE`` line
        moves the bar; any other line is kept as the last word, the error if the command fails.

        >>> job = EnrolJob("family")
        >>> job.read_progress("sisepai deck: error: no faces"); job.last_line
        'sisepai deck: error: no faces'
        """
        line = line.strip()
        parts = line.split(" ", 2)
        if parts[0] == "progress" and len(parts) >= 2:
            try:
                fraction = float(parts[1])
            except ValueError:
                fraction = None
            if fraction is not None and 0.0 <= fraction <= 1.0:
                self.fraction = min(fraction, 0.999)  # done only when the command has exited well
                self.message = parts[2][:120] if len(parts) == 3 else ""
                return
        if line:
            self.last_line = line[:300]

    def ended(self, code: int) -> None:
        """The ``deck add`` process exited with ``code``."""
        if code == 0:
            self.fraction, self.message, self.done = 1.0, "done", True
        elif self.cancelled:
            self.error = "cancelled: no deck was saved"
        else:
            self.error = self.last_line or f"the enrolment stopped (exit code {code})"

    def seconds_left(self, now: float) -> float | None:
        """The time the enrolment still needs: what its own message says ("about 3 min left", from
        the pace of the stage it is in), so the number and the words never disagree; else from the
        pace of the work done so far (``None`` until a twentieth of it is done, or once it has ended).

        >>> EnrolJob("f", started=0.0, fraction=0.6, message="adapting 40/240 steps, about 79 min left").seconds_left(714.0)
        4740.0
        >>> EnrolJob("f", started=100.0, fraction=0.01).seconds_left(160.0) is None
        True
        """
        if not self.running:
            return None
        said = re.search(r"about (\d+) (min|s) left", self.message or "")
        if said:
            return float(int(said.group(1)) * (60 if said.group(2) == "min" else 1))
        if self.fraction < 0.05:
            return None
        return round((now - self.started) * (1 - self.fraction) / self.fraction, 1)

    def public(self, now: float | None = None, with_id: bool = True) -> JobAnswer:
        """The job as the API answers it (with its id, or without where the path names it)."""
        return JobAnswer(job=self.id if with_id else None, name=self.name, fraction=round(self.fraction, 3),
                         message=self.message, done=self.done, error=self.error, cancelled=self.cancelled,
                         code="enrol_failed" if self.error is not None and not self.cancelled else None,
                         seconds_left=self.seconds_left(time.monotonic() if now is None else now))


class EnrolJobs(dict[str, EnrolJob]):
    """A server's enrolments by id, the last :data:`MAX_JOBS` of them, oldest first."""

    def add(self, job: EnrolJob) -> None:
        self[job.id] = job
        while len(self) > MAX_JOBS:
            self.pop(next(iter(self)))

    def running(self) -> EnrolJob | None:
        return next((j for j in self.values() if j.running), None)

    def find(self, job_id: str) -> EnrolJob | None:
        """The job of ``job_id`` (compared in constant time), or None."""
        return next((j for j in self.values() if secrets.compare_digest(j.id, job_id[:64])), None)

    async def stop_all(self) -> None:
        """End every enrolment process (the server is stopping: no child outlives it)."""
        for job in list(self.values()):
            if job.process is not None and job.process.returncode is None:
                job.process.terminate()  # deck add removes its half-built folder on SIGTERM
                try:
                    await asyncio.wait_for(job.process.wait(), 10)
                except asyncio.TimeoutError:
                    job.process.kill()
            if job.task is not None and not job.task.done():
                try:
                    await asyncio.wait_for(job.task, 10)  # it removes the faces folder
                except (asyncio.TimeoutError, asyncio.CancelledError):
                    pass
