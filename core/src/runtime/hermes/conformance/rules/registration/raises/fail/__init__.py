"""Registers the skills of this plugin with Hermes."""

from pathlib import Path


def register(ctx):
    skills = Path(__file__).resolve().parent / "skills"
    ctx.register_skill("greet", skills / "greet" / "SKILL.md")
    ctx.register_skill("farewell", skills / "farewell" / "SKILL.md")
