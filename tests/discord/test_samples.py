"""docs/discord.md shows every command: §9 has a sample of each command of
``command_definitions()`` (written by ``scripts/discord-samples`` from ``tests/discord/samples.py``),
and the samples are made again here: every command answers something a Discord client shows."""

from __future__ import annotations

from pathlib import Path

from rollbook.discord.commands import command_definitions
from tests.discord.samples import BEGIN, END, markdown, play

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "discord.md"


def test_the_document_shows_a_sample_of_every_command():
    text = DOCUMENT.read_text(encoding="utf-8")
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0]
    missing = [item["name"] for item in command_definitions() if f"### `/{item['name']}`" not in shown]
    assert missing == []
    assert "### The channel poster" in shown


def test_every_command_answers_something_shown():
    samples = play()
    assert {sample.name for sample in samples} == {item["name"] for item in command_definitions()} | {
        "poster",
        "button",
    }
    for sample in samples:
        assert sample.answer.get("content") or sample.answer.get("embeds"), sample
    assert markdown(samples).count("### ") == len(samples)
