# label: vulnerable
# family: shell
# sink-line: 12
# why: In this CGI script HTTP_X_LOOKUP_HOST is copied from a client request header and formatted into a shell command run by getoutput.
import os
import subprocess


def resolve_target() -> str:
    # CGI exposes request headers as HTTP_* environment variables
    host = os.environ.get("HTTP_X_LOOKUP_HOST", "example.com")
    return subprocess.getoutput(f"nslookup {host} | tail -n 2")


def main() -> None:
    print("Content-Type: text/plain\n")
    print(resolve_target())


if __name__ == "__main__":
    main()
