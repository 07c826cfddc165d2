"""The README's and the docs' examples run as written (documentation that stays true).

Every ```python block of README.md and docs/*.md runs on its own, and the ```pycon blocks of a
page are one doctest session whose printed results must match. A sketch that is not meant to
run is shown as ``{code-block} python`` (MyST) or as plain text instead."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(page: Path, lang: str) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def examples(lang: str) -> list[tuple[str, int, str]]:
    return [(p.relative_to(ROOT).as_posix(), i, code)
            for p in PAGES for i, code in enumerate(blocks(p, lang))]


def params(lang: str) -> list[object]:
    return [pytest.param(page, i, code, id=f"{page}:{i + 1}") for page, i, code in examples(lang)]


def test_readme_library_example_runs() -> None:
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README should show how to use the library"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    match = namespace["match"]
    assert getattr(match, "winner", None) is not None


@pytest.mark.parametrize(("page", "index", "code"), params("python"))
def test_python_example_runs(page: str, index: int, code: str) -> None:
    exec(compile(code, f"{page} (python block {index + 1})", "exec"), {"__name__": "example"})


@pytest.mark.parametrize("page", sorted({page for page, _, _ in examples("pycon")}))
def test_interactive_examples_print_what_they_show(page: str) -> None:
    """A page's ```pycon blocks are one session, as a reader types them in order."""
    code = "\n".join(c for p, _, c in examples("pycon") if p == page)
    test = doctest.DocTestParser().get_doctest(code, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0, f"{page}: an example printed otherwise"


def test_the_readme_shows_interactive_examples_and_a_bot() -> None:
    pages = {p for p, _, _ in examples("pycon")}
    assert "README.md" in pages
    assert any("def choose(self, view" in code for p, _, code in examples("python")
               if p == "README.md")


def test_help_euchre_example_runs_and_points_to_the_next_steps() -> None:
    import euchre

    result = doctest.testmod(euchre, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
    doc = euchre.__doc__ or ""
    for name in ("``Bot`` protocol", "make_bot", "euchre.tournament.run", "sample_hand_states",
                 "euchre.solver.solve"):
        assert name in doc, f"help(euchre) should point to {name}"
