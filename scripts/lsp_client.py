"""A small Language Server Protocol client over a server's standard input and output.

It is what an editor does, written out: JSON-RPC messages framed by ``Content-Length``
headers, requests answered by id, the server's notifications collected in order.  The tests of
``typing-literalstring server`` (tests/test_server.py) and its benchmark
(scripts/server_benchmark.py) drive the server with it.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any, Callable, Dict, Mapping, Sequence

Message = Dict[str, Any]


class ServerGone(Exception):
    """The server closed its output (it exited or crashed)."""


class Client:
    """One server process and the messages exchanged with it."""

    def __init__(
        self,
        command: Sequence[str],
        cwd: Path,
        env: Mapping[str, str] | None = None,
        configuration: Mapping[str, Any] | None = None,
        stderr: IO[bytes] | None = None,
    ) -> None:
        self.process = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(env) if env is not None else None,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr if stderr is not None else subprocess.DEVNULL,
        )
        self.configuration: dict[str, Any] = dict(configuration or {})
        self._next_id = 0
        self._answers: dict[int, queue.Queue[Message]] = {}
        self._lock = threading.Lock()
        self._condition = threading.Condition()
        self.notifications: list[Message] = []  # every one the server sent, in order
        self._gone = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # Sending.
    def _send(self, message: Message) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        assert self.process.stdin is not None
        with self._lock:
            self.process.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:  # noqa: ANN401 - JSON
        self._send({"method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float = 60) -> Any:  # noqa: ANN401
        """Send a request and wait for its result; RuntimeError for an error answer."""
        with self._lock:
            self._next_id += 1
            number = self._next_id
            self._answers[number] = queue.Queue()
        self._send({"id": number, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            try:
                answer = self._answers[number].get(timeout=0.2)
                break
            except queue.Empty:
                if self._gone:
                    status = self.process.wait()
                    raise ServerGone(
                        f"the server exited (status {status}) before answering {method}"
                    ) from None
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no answer to {method} in {timeout} s") from None
        if "error" in answer:
            raise RuntimeError(f"{method} failed: {answer['error']}")
        return answer.get("result")

    # Receiving.
    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                length = 0
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    if line in (b"\r\n", b"\n"):
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                message: Message = json.loads(stream.read(length).decode("utf-8"))
                self._received(message)
        finally:
            with self._condition:
                self._gone = True
                self._condition.notify_all()

    def _received(self, message: Message) -> None:
        if "id" in message and "method" in message:  # a request of the server's
            self._send({"id": message["id"], "result": self._answer(message)})
        elif "id" in message:
            waiting = self._answers.get(int(message["id"]))
            if waiting is not None:
                waiting.put(message)
        else:
            with self._condition:
                self.notifications.append({**message, "received": time.perf_counter()})
                self._condition.notify_all()

    def _answer(self, message: Message) -> Any:  # noqa: ANN401 - JSON
        if message["method"] == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            return [self.configuration.get(i.get("section", ""), None) for i in items]
        return None  # registrations, progress tokens: accepted

    def wait_for(
        self, wanted: Callable[[Message], bool], timeout: float, start: int = 0
    ) -> Message:
        """The first notification from index ``start`` on that is ``wanted``."""
        deadline = time.monotonic() + timeout
        with self._condition:
            while True:
                for message in self.notifications[start:]:
                    if wanted(message):
                        return message
                if self._gone:
                    raise ServerGone(f"the server exited (status {self.process.poll()})")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no such notification in {timeout} s")
                self._condition.wait(left)

    def diagnostics(self, uri: str, timeout: float, start: int = 0) -> Message:
        """The next publishDiagnostics for ``uri`` from notification ``start`` on."""
        return self.wait_for(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            ),
            timeout,
            start,
        )

    # The session.
    def initialize(
        self, root: Path, options: Mapping[str, Any] | None = None, timeout: float = 60
    ) -> Any:  # noqa: ANN401 - JSON
        result = self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {
                    "workspace": {"configuration": bool(self.configuration)},
                    "textDocument": {
                        "synchronization": {"didSave": True},
                        "publishDiagnostics": {"relatedInformation": True},
                        "codeAction": {},
                        "hover": {},
                    },
                },
                "initializationOptions": dict(options or {}),
            },
            timeout,
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path) -> str:
        uri = path.as_uri()
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "python",
                    "version": 1,
                    "text": path.read_text(encoding="utf-8"),
                }
            },
        )
        return uri

    def save(self, path: Path, text: str, version: int) -> None:
        """Write ``text`` to ``path`` as the editor does: a change, then the save."""
        uri = path.as_uri()
        self.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": text}],
            },
        )
        path.write_text(text, encoding="utf-8")
        self.notify("textDocument/didSave", {"textDocument": {"uri": uri}})

    def close(self, timeout: float = 60) -> int:
        """shutdown, exit, and the server's exit status."""
        self.request("shutdown", None, timeout)
        self.notify("exit", None)
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
