"""PBN texts the grammar reads and texts it rejects (with where Lark stops and why),
shared by the grammar's tests and the parser's (tests/unit/formats/test_pbn_grammar.py
and test_pbn_parser.py, tests/corpus/test_pbn_grammar_corpus.py), and a builder that
notes what the parser hands on."""

from __future__ import annotations

from typing import Any

from lark import Token

TABLE_TAG = '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]'
GAME = """% PBN 2.1
{a file's first comment}

[Event "##Club night"]
[Site "#"]
[Board "1"]
[Dealer "N"]
[Auction "N"] {after the tag}
1C Pass 1H =1=
Pass ! $3 {why} ^I 1D ^S
2S Pass Pass X AP
[Note "1:forcing"]
[Play "E"]
D4 DK ^R H5 H7 ;a revoke
- - - H2 + - *
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N NT 6
S "C" 9

[Event "#"]
[UserSection "x"] token "a string"
"""

ACCEPTED = [
    '[Event"x"]\n',  # no space at all (the verifier reads it)
    '[ Event\n  "x" ]\n',  # blanks and one line break between the four tokens
    '[Event "a \\"quoted\\" \\\\ word"]\n',  # the two escapes
    '[A "1"] [B "2"]  [C "3"]\n',  # several on a line
    '[Auction "N"]\n- - 1C\n',  # seats before the dealer's
    '[Auction "N"]\n1c pass xx 7nt ap\n',  # lower case (import format)
    '[Auction "N"]\n1C !? =1= $13 {c} ;d\n*\n',
    '[Auction "N"]\n1C Pass + =2=\n',  # '+' takes annotations
    '[Play "N"]\n+ - - CQ\n',  # '+' need not be the last token
    '[Play "N"]\nsa ^l H2 S3 S4 $200\n',
    '[ScoreTable "Score"]\n{comment}\n%escape\n1 2\n%escape\n3\n',
]

REJECTED = [
    # text, where Lark stops (line, column), why
    ("hello\n", (1, 1), "text before any tag"),
    ('[Event "x"]\n[Site]\n', (2, 1), "a tag pair with no value"),
    ('[Event x]\n', (1, 1), "a value that is not a string"),
    ('[Event "x\n"]\n', (1, 1), "a string holds no line end"),
    ('[Event {c} "x"]\n', (1, 1), "no comment inside a tag pair"),
    ('[Event\n\n"x"]\n', (1, 1), "no blank line inside a tag pair"),
    ('[Event "x"]\n}\n', (2, 1), "a stray brace"),
    ('[Event "x"]\n{open\n', (2, 1), "a comment that is never closed"),
    ('[Auction "N"]\n1C "x"\n', (2, 4), "a string in the auction"),
    ('[Auction "N"]\n1C 4NT/5D\n', (2, 7), "a character that is no token"),
    ('[Auction "N"]\n1C - 1D\n', (2, 4), "'-' after the dealer's first call"),
    ('[Auction "N"]\n^I ^I 1C\n', (2, 4), "^I twice"),
    ('[Auction "N"]\n^I ^S\n', (2, 4), "^I before a skipped call"),
    ('[Auction "N"]\n1C ^R 1D\n', (2, 4), "a mark of the play in the auction"),
    ('[Auction "N"]\n1C AP Pass\n', (2, 7), "a call after AP"),
    ('[Auction "N"]\n1C * 1D\n', (2, 6), "a call after '*'"),
    ('[Auction "N"]\n1C + *\n', (2, 6), "'+' and '*' together"),
    ('[Auction "N"]\n1C =x=\n', (2, 4), "a note reference that is no number"),
    ('[Play "N"]\nSA ^I SK\n', (2, 4), "a mark of the auction in the play"),
    ('[Play "N"]\nSA -- SK\n', (2, 4), "a word of dashes"),
    ('[Play "N"]\n+ SA +\n', (2, 6), "a second '+'"),
    ('[Play "N"]\n^R ^L SA\n', (2, 4), "two marks on one card"),
    ('[Play "N"]\n^R -\n', (2, 4), "a mark before no card"),
    ('[Play "N"]\nSA * SK\n', (2, 6), "a card after '*'"),
    ('[ScoreTable "Score"]\n1 {c}\n', (2, 3), "a comment after a table element"),
    ('[ScoreTable "Score"]\n1 ;c\n', (2, 3), "a line comment after a table element"),
    ('[Event "x"]\n[Auction "N"]\n1C\n\n1D\n[Site "y"]\n', (5, 1), "calls after the game"),
]


class Recorder:
    """A builder that notes what it is handed, in order."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, ...]] = []

    def lead(self, token: Token) -> None:
        self.seen.append(("lead", token.type, str(token), token.line, token.column))

    def section(self, kind: str, tokens: list[Token]) -> None:
        self.seen.append(
            ("section", kind, tuple((t.type, str(t), t.line, t.column) for t in tokens))
        )

    def game_end(self) -> None:
        self.seen.append(("end",))

    def rejected(self, text: str, line: int, column: int, message: str) -> None:
        self.seen.append(("rejected", text, line, column, message))

    def cut(self, line: int, column: int) -> None:
        self.seen.append(("cut", line, column))

    def refused(self) -> list[tuple[str, int, int]]:
        """What the grammar did not read, in file order: text rejected (reading went on
        after it) and tokens passed over in a section (``!`` before their terminal)."""
        out = [(i[1], i[2], i[3]) for i in self.seen if i[0] == "rejected"]
        for item in self.seen:
            if item[0] == "section":
                out.extend((text, ln, col) for kind, text, ln, col in item[2] if kind[0] == "!")
        return sorted(out, key=lambda r: (r[1], r[2]))

    def texts(self) -> list[str]:
        """Every text handed on, in file order (a piece rejected before a game's first
        tag may be handed on before the commentary ahead of it, whose rule completes
        later)."""
        out: list[tuple[int, int, str]] = []
        for item in self.seen:
            if item[0] == "lead":
                out.append((item[3], item[4], item[2]))
            elif item[0] == "section":
                out.extend((ln, col, text) for _, text, ln, col in item[2])
            elif item[0] == "rejected":
                out.append((item[2], item[3], item[1]))
        return [text for _, _, text in sorted(out, key=lambda t: (t[0], t[1]))]
