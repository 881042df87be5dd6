"""The LIN token table (lin.md sections 1, 5, 6): command names, cards, board openers.

The grammar (``grammars/lin.lark``) has coarse terminals: a whole run of plain cards
(``CARDS``, the play as BBO writes it, taken in one go), a whole run of ``pc`` pairs, a
whole run of ``mb``/``an`` pairs, and one terminal a pair for the other commands. The
tokens lin.md defines inside them (the two-letter command names, the cards, the calls)
are this table, read by the builder; calls and hands are read by
:mod:`bridgefiles.formats.lin.values`.

Why coarse terminals (issue 10): the parser's time grows with its tokens, and a terminal
per command pair gives it about ten times the tokens a board of the coarse runs, so that
parsing alone was slower than a peer's whole read; with coarse runs the time goes to
building the model. The README (Performance) gives the figures.
"""

from __future__ import annotations

from bridgefiles.model.cards import ALL_CARDS, Card

FORMAT = "lin"
HEADER_POSITION = -1
"""Position of the extras that come from a vugraph header (carried onto each board)."""

HEADER_TAGS = frozenset({"vg", "rs", "pw", "mp", "bn"})
# Commands that may begin a board; after a deal they wait to see where they belong.
OPEN_AFTER_DEAL = frozenset({"pn", "mn", "st", "qx", *HEADER_TAGS})
OPEN_AFTER_BODY = OPEN_AFTER_DEAL | {"rh", "ah"}
# lin.md 4, rule 3: in a file of one board a line, these at the start of a line open one
LINE_OPENERS = frozenset({"st", "md", "ah", "rh"})
DEALER_DIGITS = frozenset("1234")
BLANKS = " \t\r\n\f\v"

_NAMES = (
    "pn st md rh ah sv mb an pg pc mc qx nt vg rs pw mp bn mn at sk hc lc hs ls sc sa va "
    "up ub tc pf pa lb bt tu sb ha ia ih cr cg cb cp cq cs fh ff fb fi fu fm fp ht bg bd "
    "bm wb hb lf se sr rt zm su vx vi vj vp vh wt ts ob mx xl kc rc tt os do jp kp hf bs "
    "hz lg rq eb bv fg xx ip pd pi sj tb by sd dn cm fa ss vv uu zs zv"
)
KNOWN_TAGS = frozenset(_NAMES.split())  # lin.md section 5

RUN_TAGS: dict[str, str] = {
    name: tag
    for tag in ("pc", "mb", "an", "pg")
    for name in (tag, tag.upper(), tag[0] + tag[1].upper(), tag[0].upper() + tag[1])
}
"""The names of a run's pairs that the builder takes in its own loop, in any case."""

CARD_TEXT: dict[str, Card] = {}
"""A card as ``pc`` writes it, in any case (``SA``, ``sa``, ``Sa``, ``sA``)."""
for _card in ALL_CARDS:
    for _text in (
        _card.code,
        _card.code.lower(),
        _card.code[0] + _card.code[1].lower(),
        _card.code[0].lower() + _card.code[1],
    ):
        CARD_TEXT[_text] = _card
