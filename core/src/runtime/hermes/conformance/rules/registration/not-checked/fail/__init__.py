import os


def register(ctx):
    here = os.path.dirname(__file__)
    for name in os.listdir(os.path.join(here, "skills")):
        ctx.register_skill(name, os.path.join(here, "skills", name, "SKILL.md"))
