"""The lexers' terminals shipped as grammars/X.terminals.json are exactly what Lark
derives from grammars/X.lark, and are used only for the grammar they came from
(formats/terminals.py)."""

from __future__ import annotations

import pytest

from bridgefiles.formats import terminals
from bridgefiles.formats.pbn import lexer


@pytest.mark.parametrize("grammar", terminals.LEXED_GRAMMARS)
def test_the_shipped_terminals_are_what_lark_derives_from_the_grammar(grammar: str) -> None:
    shipped = terminals.grammar_file_text(terminals.terminals_file(grammar))
    assert shipped == terminals.terminals_record(terminals.grammar_text(grammar)), (
        f"grammars/{terminals.terminals_file(grammar)} is stale: run scripts/grammar-terminals"
    )


@pytest.mark.parametrize("grammar", terminals.LEXED_GRAMMARS)
def test_the_lexer_takes_the_shipped_terminals_without_lark(
    grammar: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_lark(source: str) -> tuple[str, list[str]]:
        raise AssertionError("derived through Lark although the shipped file is current")

    derived, ignored = terminals.derive_terminals(terminals.grammar_text(grammar))
    monkeypatch.setattr(terminals, "derive_terminals", no_lark)
    terminals.compiled_terminals.cache_clear()
    try:
        pattern, ignored_names = terminals.compiled_terminals(grammar)
        assert (pattern.pattern, ignored_names) == (derived, frozenset(ignored))
    finally:
        terminals.compiled_terminals.cache_clear()


def test_the_pbn_lexer_reads_with_them() -> None:
    _, sections, _ = lexer.lex_game('[Board "1"]\n[Auction "N"]\n1C Pass\n')
    assert [t.type for t, _ in sections] == ["TAGS"]
    assert [t.text for t in sections[0][1]] == ["1C Pass"]


@pytest.mark.parametrize(
    "record",
    [None, "", "not json", "[]", '{"grammar_sha256": 1}', '{"pattern": "x"}'],
)
def test_a_missing_or_broken_file_is_derived_again(
    record: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(terminals, "grammar_file_text", lambda name: record)
    assert terminals.stored_terminals("pbn.lark", "any grammar") is None


@pytest.mark.parametrize("grammar", terminals.LEXED_GRAMMARS)
def test_another_grammar_is_derived_again(grammar: str) -> None:
    source = terminals.grammar_text(grammar)
    assert terminals.stored_terminals(grammar, source + "\n// a changed grammar\n") is None
    assert terminals.stored_terminals(grammar, source) == terminals.derive_terminals(source)
