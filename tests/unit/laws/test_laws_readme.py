"""The README's referee session runs as written, so it cannot rot."""

from __future__ import annotations

import doctest
import re

from shared import ROOT

README = ROOT / "README.md"


def _session() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("## The referee: a director's session")
    end = text.index("\n## ", start + 1)
    blocks = re.findall(r"```python\n(.*?)```", text[start:end], re.DOTALL)
    assert blocks, "the referee section has no python block"
    return "\n".join(blocks)


def test_the_readme_referee_session_runs() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(_session(), {}, "README referee session", str(README), 0)
    assert test.examples, "the session has no examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted == len(test.examples)
