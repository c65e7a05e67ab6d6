# label: safe
# family: shell
# sink-line: 10
# why: asyncio.create_subprocess_exec receives the user URL as a single argument with no shell involved.
import asyncio
import sys


async def fetch_headers(url: str) -> str:
    proc = await asyncio.create_subprocess_exec(
        "curl", "-sS", "-I", "--max-time", "10", "--", url,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return out.decode(errors="replace")


async def main(urls: list[str]) -> None:
    results = await asyncio.gather(*(fetch_headers(u) for u in urls))
    for url, headers in zip(urls, results):
        print(url, headers.splitlines()[:1])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
