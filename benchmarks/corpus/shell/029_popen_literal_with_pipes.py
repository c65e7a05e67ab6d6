# label: safe
# family: shell
# sink-line: 9
# why: os.popen runs a constant literal pipeline; the only variable data is parsed from its output in Python.
import os


def top_memory_processes(count: int) -> list[tuple[str, str]]:
    with os.popen("ps -eo pid,rss,comm --sort=-rss | sed 1d") as pipe:
        lines = pipe.read().splitlines()
    result: list[tuple[str, str]] = []
    for line in lines[:count]:
        pid, rss, comm = line.split(None, 2)
        result.append((comm, f"{int(rss) // 1024} MiB (pid {pid})"))
    return result


if __name__ == "__main__":
    for name, usage in top_memory_processes(10):
        print(f"{name:25} {usage}")
