"""The PBN lexer's terminals shipped as grammars/pbn.terminals.json are exactly what Lark
derives from grammars/pbn.lark, and are used only for the grammar they came from."""

from __future__ import annotations

import pytest

from bridgefiles.formats.pbn import lexer
from bridgefiles.formats.pbn.grammar import TERMINALS_FILE, grammar_file_text, grammar_text


def test_the_shipped_terminals_are_what_lark_derives_from_the_grammar() -> None:
    shipped = grammar_file_text(TERMINALS_FILE)
    assert shipped == lexer.terminals_record(grammar_text()), (
        "grammars/pbn.terminals.json is stale: run scripts/grammar-terminals"
    )


def test_the_lexer_takes_the_shipped_terminals_without_lark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_lark(source: str) -> tuple[str, list[str]]:
        raise AssertionError("derived through Lark although the shipped file is current")

    derived, ignored = lexer.derive_terminals(grammar_text())
    monkeypatch.setattr(lexer, "derive_terminals", no_lark)
    lexer._master.cache_clear()
    try:
        pattern, ignored_names = lexer._master()
        assert (pattern.pattern, ignored_names) == (derived, frozenset(ignored))
        _, sections, _ = lexer.lex_game('[Board "1"]\n[Auction "N"]\n1C Pass\n')
        assert [t.type for t, _ in sections] == ["TAGS"]
        assert [t.text for t in sections[0][1]] == ["1C Pass"]
    finally:
        lexer._master.cache_clear()


@pytest.mark.parametrize(
    "record",
    [None, "", "not json", "[]", '{"grammar_sha256": 1}', '{"pattern": "x"}'],
)
def test_a_missing_or_broken_file_is_derived_again(
    record: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexer, "grammar_file_text", lambda name: record)
    assert lexer.stored_terminals(grammar_text()) is None


def test_another_grammar_is_derived_again() -> None:
    changed = grammar_text() + "\n// a changed grammar\n"
    assert lexer.stored_terminals(changed) is None
    assert lexer.stored_terminals(grammar_text()) == lexer.derive_terminals(grammar_text())
