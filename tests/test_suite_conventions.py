"""Conventions the browser tests must keep for their checks to mean anything on every machine.

The site serves ``script-src 'self'``, so Chromium refuses ``eval`` in its pages. Playwright's
``wait_for_function`` runs a bare expression through the page's ``eval`` whenever it has to
poll, that is whenever the condition is not already true at the first look: such a test passes
on a fast machine and fails on a loaded one (a fresh clone's CI run did). An arrow function is
compiled once by the browser's debugger and called on each poll, which the policy allows.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent


def _leading_text(node: ast.expr) -> str | None:
    """The literal text a string argument starts with (an f-string's first literal part)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        return _leading_text(node.values[0])
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _leading_text(node.left)
    return None


def _is_bare_expression(arg: ast.expr) -> bool:
    """Whether a predicate is not an arrow function (``() => ...`` or ``t => ...``)."""
    text = _leading_text(arg)
    if text is None or "=>" not in text:
        return True
    params = text.lstrip().split("=>", 1)[0].strip()
    return not (params.isidentifier() or params.startswith("("))


def test_browser_waits_poll_with_a_function_the_pages_policy_allows() -> None:
    bare = []
    for path in sorted(TESTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "wait_for_function" and node.args):
                continue
            if _is_bare_expression(node.args[0]):
                bare.append(f"{path.name}:{node.lineno}")
    assert bare == [], f"wait_for_function given a bare expression (eval under the CSP): {bare}"


def test_the_convention_check_tells_an_expression_from_a_function() -> None:
    """The check above is only worth having if it can fail: it flags a bare expression."""
    def flagged(src: str) -> bool:
        call = ast.parse(src).body[0]
        assert isinstance(call, ast.Expr) and isinstance(call.value, ast.Call)
        return _is_bare_expression(call.value.args[0])
    assert flagged("page.wait_for_function('document.body.dataset.x === \"1\"')")
    assert flagged("page.wait_for_function(f'document.title.includes({name!r})')")
    assert not flagged("page.wait_for_function('() => document.title === \"x\"')")
    assert not flagged("page.wait_for_function('t => t.length > 0', arg=[1])")
    assert not flagged("page.wait_for_function(f'() => document.title.includes({name!r})')")
