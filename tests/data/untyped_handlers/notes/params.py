from flask import request


def arg(name, default=""):
    return request.args.get(name, default)


def form_value(name):
    return request.form[name]


def header(name):
    return request.headers.get(name, "")


def cookie(name):
    return request.cookies.get(name)


def json_field(name):
    return request.get_json()[name]


def order_column():
    column = request.args.get("order", "id")
    return column


def sort_direction():
    if request.args.get("desc"):
        return "DESC"
    return "ASC"
