"""What every step of the tool shares, and nothing of any step.

``errors`` (the exceptions every command turns into a message and an exit status), ``project``
(the root, the files and the Python environment of the checked project, and how we start an
interpreter without running the project's code), ``safe_write`` (writes that never follow a link
out of the project), ``sources``, ``grammar`` and ``source_edits`` (reading and editing Python
source exactly as Python does), ``signals`` (how a run stops on SIGINT, SIGTERM and SIGHUP).
"""
