"""Sphinx configuration of the euchre docs site (``make docs``; ``make test`` builds it with -W).

Pages are MyST Markdown, so the same files read well on a code host and in the built site; the
API pages come from the docstrings through autodoc."""

from __future__ import annotations

project = "euchre"
author = "the euchre authors"
copyright = "the euchre authors"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]

myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}

html_theme = "furo"
html_title = "euchre"
