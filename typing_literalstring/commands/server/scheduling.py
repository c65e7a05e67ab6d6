"""When the server checks: one check at a time per project, in a worker process, started a
moment after the last save (debounce) and cancelled when a newer save makes it stale.

A check is ``check`` of the whole project (``project_check``): a file's findings depend on the
others (the project's own wrappers, its untyped functions, the types it imports), so the server
checks what ``check`` checks and its diagnostics are ``check``'s.  Each project keeps a worker
(``worker``) between checks, its modules imported and its in-memory caches warm; the checker's
own caches (built overlays, mypy's incremental cache) are kept on disk as for ``check``.  A
stale check is cancelled by stopping its worker (SIGTERM: it kills the checker's process group
and cleans up, see ``worker``), and a fresh worker is started at once to take the next one.
Everything here runs in the server's event loop thread, but the waits for a worker, which run
in threads of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from typing_literalstring.commands.server.messages import (
    Outcome,
    Request,
    read_frame,
    stat,
    write_frame,
)
from typing_literalstring.commands.server.options import Options
from typing_literalstring.core.processes import child_environment
from typing_literalstring.core.project import find_root

WORKER_MODULE = "typing_literalstring.commands.server.worker"
# How long a cancelled worker has to kill its checker and clean up before it is killed.
STOP_GRACE_SECONDS = 10.0


class WorkerProcess:
    """One worker process, and the way to talk to it."""

    def __init__(self, folder: Path) -> None:
        # Started from an empty folder of ours (never the project: `python -m` puts the working
        # folder first on sys.path before Python 3.11), with the environment every checker gets.
        self.process = subprocess.Popen(
            [sys.executable, "-m", WORKER_MODULE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=folder,
            env=child_environment({}),
            start_new_session=os.name == "posix",
        )

    def check(self, request: Request) -> Outcome:
        """Run one check and wait for it (in a thread: this blocks).  EOFError when the worker
        stopped before answering (cancelled, or crashed)."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        try:
            write_frame(self.process.stdin, request)
        except OSError as error:  # the worker is gone: a closed pipe
            raise EOFError(f"the worker is gone ({error})") from error
        answer = read_frame(self.process.stdout)
        if not isinstance(answer, Outcome):
            raise EOFError(f"the worker answered a {type(answer).__name__}")
        return answer

    def stop(self, grace: float = STOP_GRACE_SECONDS) -> None:
        """SIGTERM (the worker kills its checker and cleans up), SIGKILL after ``grace``."""
        if self.process.poll() is None:
            try:
                self.process.send_signal(signal.SIGTERM)
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            except ProcessLookupError:
                pass
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def exit_status(self) -> int | None:
        return self.process.poll()


@dataclass
class Project:
    """One project root the editor has files of open, and the state of its checks."""

    root: str
    generation: int = 0  # raised by each request for a check: an older check's answer is stale
    timer: asyncio.TimerHandle | None = None  # the debounced start of the next check
    running: bool = False
    worker: WorkerProcess | None = None
    last: Outcome | None = None
    last_generation: int = -1  # the generation ``last`` answered
    trigger: str = ""  # the file whose open or save asked for the check: where an error shows
    stopped: list[WorkerProcess] = field(default_factory=lambda: [])

    @property
    def busy(self) -> bool:
        return self.running or self.timer is not None


Publish = Callable[[Project, Outcome], None]


class Scheduler:
    def __init__(self, loop: asyncio.AbstractEventLoop, publish: Publish, folder: Path) -> None:
        self.loop = loop
        self.publish = publish
        self.folder = folder  # where workers start: an empty folder of ours
        self.options = Options()
        self.encoding = "utf-16"
        self.projects: dict[str, Project] = {}
        self._threads = ThreadPoolExecutor(max_workers=4, thread_name_prefix="tls-worker")

    def project_of(self, path: str) -> Project:
        """The project of a file (its root as ``check`` finds it), its worker started."""
        root = str(find_root(Path(path)))
        if root not in self.projects:
            self.projects[root] = Project(root, worker=self._spawn())
        return self.projects[root]

    def fresh(self, project: Project, path: str) -> bool:
        """Whether the last check of ``project`` still holds for ``path``: nothing asked for a
        check since, and the file is as that check read it."""
        last = project.last
        return (
            last is not None
            and not last.error
            and project.last_generation == project.generation
            and not project.busy
            and path in last.checked
            and stat(path) == last.checked[path]
        )

    def check_soon(self, project: Project, trigger: str) -> None:
        """Check ``project`` after the debounce delay, cancelling a check that is running or
        waiting: its answer would be stale."""
        project.generation += 1
        project.trigger = trigger
        if project.running:
            self._cancel(project)
        if project.timer is not None:
            project.timer.cancel()
        delay = self.options.debounce_ms / 1000
        project.timer = self.loop.call_later(delay, self._start, project)

    def _spawn(self) -> WorkerProcess:
        return WorkerProcess(self.folder)

    def _cancel(self, project: Project) -> None:
        stale = project.worker
        project.running = False
        project.worker = self._spawn()  # warm by the time the next check starts
        if stale is not None:
            project.stopped.append(stale)
            self._threads.submit(stale.stop)

    def _start(self, project: Project) -> None:
        project.timer = None
        if project.worker is None or project.worker.exit_status() is not None:
            project.worker = self._spawn()
        worker = project.worker
        generation = project.generation
        project.running = True
        request = Request(project.root, self.options, self.encoding)
        answer: Future[Outcome] = self._threads.submit(worker.check, request)

        def finished(done: Future[Outcome]) -> None:
            self.loop.call_soon_threadsafe(self._finished, project, generation, worker, done)

        answer.add_done_callback(finished)

    def _finished(
        self, project: Project, generation: int, worker: WorkerProcess, done: Future[Outcome]
    ) -> None:
        if generation != project.generation or worker is not project.worker:
            return  # a newer check replaced this one, and stopped its worker
        project.running = False
        try:
            outcome = done.result()
        except Exception as error:  # the worker died under this check: not a cancel of ours
            worker.stop(grace=1.0)
            status = worker.exit_status()
            project.worker = self._spawn()
            outcome = Outcome(
                error=f"the worker process running the check stopped (exit status {status}: "
                f"{type(error).__name__}: {error}); a new one takes the next check: save "
                "again, and report this if it recurs",
                crashed=True,
            )
        project.last, project.last_generation = outcome, generation
        self.publish(project, outcome)

    def close(self) -> None:
        """Stop every worker and wait for them: nothing of ours is left running."""
        for project in self.projects.values():
            if project.timer is not None:
                project.timer.cancel()
            workers = [*project.stopped, *([project.worker] if project.worker else [])]
            for worker in workers:
                worker.stop()
        self._threads.shutdown(wait=True)
