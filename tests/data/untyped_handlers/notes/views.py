import os
import subprocess

from flask import Flask, request

from notes.db import Repository, Store, count_rows, get_cursor, get_db, query_db, table_name
from notes.params import (
    arg,
    cookie,
    form_value,
    header,
    json_field,
    order_column,
    sort_direction,
)
from notes.shell import Process, backup_command, disk_usage, ping_command, run, run_script

app = Flask(__name__)


@app.route("/notes")
def list_notes():
    db = get_db()
    return {"notes": db.execute("SELECT * FROM notes").fetchall()}  # proven


@app.route("/search")
def search():
    db = get_db()
    term = arg("q")
    return {"notes": db.execute(f"SELECT * FROM notes WHERE title LIKE '%{term}%'").fetchall()}  # LS101


@app.route("/search/safe")
def search_safe():
    db = get_db()
    term = arg("q")
    return {"notes": db.execute("SELECT * FROM notes WHERE title LIKE ?", (f"%{term}%",)).fetchall()}  # proven


@app.route("/sorted")
def sorted_notes():
    cur = get_cursor()
    cur.execute("SELECT * FROM notes ORDER BY " + order_column())  # LS101
    return {"notes": cur.fetchall()}


@app.route("/sorted/direction")
def sorted_direction():
    cur = get_cursor()
    cur.execute("SELECT * FROM notes ORDER BY id " + sort_direction())  # proven
    return {"notes": cur.fetchall()}


@app.route("/table")
def whole_table():
    db = get_db()
    return {"notes": db.execute("SELECT * FROM " + table_name()).fetchall()}  # proven


@app.route("/delete", methods=["POST"])
def delete():
    db = get_db()
    db.execute("DELETE FROM notes WHERE id = ?", (form_value("id"),))  # proven
    db.commit()
    return {}


@app.route("/delete/bad", methods=["POST"])
def delete_bad():
    db = get_db()
    db.execute("DELETE FROM notes WHERE id = " + form_value("id"))  # LS101
    db.commit()
    return {}


@app.route("/raw")
def raw():
    return {"notes": query_db(arg("sql"))}  # LS101


@app.route("/raw/literal")
def raw_literal():
    return {"notes": query_db("SELECT id FROM notes")}  # proven


@app.route("/count")
def count():
    return {"n": count_rows(arg("table"))}  # LS101


@app.route("/store")
def store():
    notes = Store("notes.db")
    return {"found": notes.find(arg("title")), "all": notes.all()}  # LS101


@app.route("/store/cursor")
def store_cursor():
    cur = Store("notes.db").cursor()
    cur.execute("SELECT * FROM notes WHERE owner = '" + cookie("user") + "'")  # LS101
    return {"notes": cur.fetchall()}


@app.route("/by-header")
def by_header():
    db = get_db()
    lang = header("Accept-Language")
    db.execute("SELECT * FROM notes WHERE lang = '%s'" % lang)  # LS101
    return {}


@app.route("/by-json", methods=["POST"])
def by_json():
    db = get_db()
    db.execute("SELECT * FROM notes WHERE id = " + json_field("id"))  # LS902
    return {}


@app.route("/repo/latest")
def latest():
    return {"note": Repository().latest()}


@app.route("/repo/tag")
def tagged():
    repo = Repository()
    tag = request.args["tag"]
    repo.db.execute("SELECT * FROM notes WHERE tag = '" + tag + "'")  # LS101
    return {"notes": repo.by_tag(tag)}


@app.route("/repo/script", methods=["POST"])
def repo_script():
    Repository().db.executescript(form_value("script"))  # LS101
    return {}


@app.route("/ping")
def ping():
    host = request.args.get("host", "localhost")
    out = subprocess.check_output(["sh", "-c", "ping -c 1 " + host])  # LS202
    return {"out": out.decode()}


@app.route("/ping/helper")
def ping_helper():
    return {"out": run(ping_command(arg("host"))).stdout}  # LS201


@app.route("/ping/inline")
def ping_inline():
    return {"out": run("ping -c 1 " + arg("host")).stdout}  # LS201


@app.route("/ping/literal")
def ping_literal():
    return {"out": run("ping -c 1 localhost").stdout}  # proven


@app.route("/backup", methods=["POST"])
def backup():
    # An argument list's script through a helper: no checker's finding (not followed).
    run_script(backup_command(form_value("folder")))
    return {}


@app.route("/backup/inline", methods=["POST"])
def backup_inline():
    run_script("tar czf /tmp/backup.tgz " + form_value("folder"))
    return {}


@app.route("/ls")
def listing():
    path = arg("path")
    os.system("ls " + path)  # LS201
    subprocess.run(["ls", "-l", path])
    subprocess.run("ls -l", shell=True)  # proven
    return {}


@app.route("/grep")
def grep():
    pattern = arg("pattern")
    proc = Process.start("grep -r " + pattern + " /srv/notes", shell=True)  # LS201
    return {"code": proc.wait()}


@app.route("/tail")
def tail():
    lines = arg("lines", "10")
    return {"out": subprocess.check_output("tail -n " + lines + " /var/log/notes.log", shell=True).decode()}  # LS201


@app.route("/tail/argv")
def tail_argv():
    lines = arg("lines", "10")
    return {"out": subprocess.check_output(["tail", "-n", lines, "/var/log/notes.log"]).decode()}


@app.route("/df")
def df():
    return {"out": disk_usage()}


@app.route("/popen")
def popen():
    cmd = "du -sh " + form_value("dir")
    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE)  # LS201
    return {"out": proc.communicate()[0]}
