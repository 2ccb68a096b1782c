"""Papers are cited by author and year, with their full citations in docs/references.md:
no source or document names a paper by its file number in the project's reading list, or
a behaviour by the number of the request that asked for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXTS = sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "docs").glob("*.md"),
                ROOT / "README.md"])
NUMBERED = re.compile(r"\b[Ss]eeds? 0\d\d\b|\b[Ii]ssues? \d+\b")


@pytest.mark.parametrize("path", TEXTS, ids=[str(p.relative_to(ROOT)) for p in TEXTS])
def test_no_seed_or_issue_numbers(path):
    hits = [f"{path.name}:{number}: {line.strip()}"
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if NUMBERED.search(line)]
    assert not hits, "\n".join(hits)


def test_the_references_are_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/references.md" in readme
    references = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
    for cited in ("Ferrante, Ferro and Fuhr (2021)", "Ferrante, Ferro and Pontarollo (2019)",
                  "Sakai (2014)", "Ferro and Sanderson (2022)", "Ferro and Maistro (2024)"):
        assert f"**{cited}**" in references, cited
