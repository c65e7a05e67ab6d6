import jinja2


def run(user: str) -> None:
    env = jinja2.Environment(loader=jinja2.DictLoader({"a": "Hi {{ u }}"}), autoescape=True)
    print(env.get_template("a").render(u=user))
    template = env.from_string("Hi {{ u }}")
    print(template.render(u=user), template.module)
    env.get_templatex("a")  # error
    env.from_string("Hi " + user)  # sink
