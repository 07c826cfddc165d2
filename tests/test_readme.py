"""The README's library example runs as written (documentation that stays true)."""

from __future__ import annotations

import re
from pathlib import Path


def test_readme_library_example_runs() -> None:
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README should show how to use the library"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    match = namespace["match"]
    assert getattr(match, "winner", None) is not None
