"""The PBN reader and writer on small hand-written inputs: one concern a test."""

from __future__ import annotations

import pytest
from shared import FIXTURES

import bridgefiles as bf
from bridgefiles.formats.pbn import sniff
from bridgefiles.formats.pbn.grammar import grammar_text
from bridgefiles.formats.pbn.writer import export
from bridgefiles.model.annotations import Annotations, CommentKind
from bridgefiles.model.auction import AuctionEnd, EntryKind
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.play import PlayEnd, Slot


def codes(text: str) -> list[tuple[str, int | None]]:
    return [(d.code, d.line) for d in bf.loads(text, format="pbn").all_diagnostics()]


def test_grammar_is_found() -> None:
    assert "auction:" in grammar_text() and "play:" in grammar_text()


def test_sniff() -> None:
    assert sniff('[Event "x"]\n[Site "y"]\n') >= 90
    assert sniff("% PBN 2.1\n% EXPORT\n") >= 90
    assert sniff("pn|a,b,c,d|st||md|3SKQ") < 50


def test_inheritance_policy() -> None:
    boards = bf.load(FIXTURES / "pbn-inheritance.pbn").boards
    first, second, third, fourth = boards
    first_event = first.tag_pair("Event")
    assert first_event is not None and first_event.raw == "##Club night"
    assert first.tag("Event") == "Club night"
    # a game without the tag inherits the "##" value, as an implied pair
    event = second.tag_pair("Event")
    assert event is not None and event.implied and event.value == "Club night"
    site = second.tag_pair("Site")
    assert site is not None and site.value == "Home" and site.raw == "#"
    # a plain value ends the default; "#" takes the default once and ends it too
    assert third.tag("Event") == "Other event" and third.tag("Hidden") == "NS"
    assert fourth.tag("Event") == "Other event" and fourth.tag_pair("Hidden") is None
    # '#' on Dealer is an error, reported once, at the value
    assert [(d.code, d.line, d.column) for d in third.diagnostics] == [("tag-value", 15, 9)]


def test_inheritance_is_written_back() -> None:
    bridge_file = bf.load(FIXTURES / "pbn-inheritance.pbn")
    text = bf.dumps(bridge_file, "pbn")
    assert '[Event "##Club night"]' in text and '[Site "#"]' in text
    back = bf.loads(text, format="pbn")
    assert [b.tag("Event") for b in back.boards] == [b.tag("Event") for b in bridge_file.boards]


def test_comments_escapes_and_lower_case_forms() -> None:
    board = bf.load(FIXTURES / "pbn-comments.pbn").boards[0]
    event = board.tag_pair("Event")
    assert event is not None
    assert event.value == 'Comments "quoted" and C:\\dir\\2R'  # only \" and \\ are escapes
    assert [c.text for c in event.comments] == [" after Event ", " rest", " second "]
    assert [c.kind for c in event.comments][1] is CommentKind.LINE
    auction = board.auction
    assert auction is not None and auction.end is AuctionEnd.ALL_PASS
    kinds = [e.kind for e in auction.entries]
    assert kinds == [EntryKind.NONE, EntryKind.CALL, EntryKind.CALL]
    one_nt, passed = auction.entries[1], auction.entries[2]
    assert str(one_nt.call) == "1NT" and one_nt.annotations.note == 1
    assert one_nt.annotations.comments[0].follows == "note"
    assert passed.annotations.suffix == "!" and passed.annotations.nags == (15,)
    # '%' in column 1 inside a brace comment is comment text, and the blank line in it
    # does not end the game
    assert "% not an escape" in passed.annotations.comments[0].text
    assert auction.notes[0].text == "15-17"
    play = board.play
    assert play is not None and play.end is PlayEnd.STOPPED
    assert play.slots[1].revoke and play.slots[1].annotations.note == 1
    assert play.slots[2].slot is Slot.UNKNOWN
    assert play.notes[0].text == "lead"  # play notes are their own namespace
    assert board.tables[0].records()[1] == {"PairId_NS": "12", "Score_NS": "-50"}


def test_comment_positions_in_export() -> None:
    bridge_file = bf.load(FIXTURES / "pbn-comments.pbn")
    lines = bf.dumps(bridge_file, "pbn").split("\r\n")
    i = lines.index('[Event "Comments \\"quoted\\" and C:\\\\dir\\2R"]')
    assert lines[i + 1 : i + 3] == ["{ after Event } ; rest", "{ second }"]
    assert lines[lines.index('[Auction "N"]') + 1].startswith("1NT =1= {why} Pass $1 $15 {")
    assert " 1   100" in lines and "12   -50" in lines


def test_diagnostics_point_at_line_and_column() -> None:
    text = '[Event "x"]\n[Date "1995.o6.10"]\n[Dealer "N"]\n[Auction "N"]\n1C =2= Pass $300\n'
    found = [(d.code, d.line, d.column) for d in bf.loads(text, format="pbn").boards[0].diagnostics]
    assert ("tag-value", 2, 7) in found
    assert ("nag", 5, 13) in found
    assert ("note", 5, 4) in found  # =2= refers to no Note


def test_note_outside_a_section_is_kept_and_reported() -> None:
    board = bf.loads('[Note "1:early"]\n[Dealer "N"]\n', format="pbn").boards[0]
    assert board.tag("Note") == "1:early"
    assert [d.code for d in board.diagnostics] == ["note"]


def test_unused_note_is_a_warning() -> None:
    board = bf.loads('[Dealer "N"]\n[Auction "N"]\n1C AP\n[Note "1:x"]\n', format="pbn").boards[0]
    assert [(d.code, d.severity) for d in board.diagnostics] == [("note", Severity.WARNING)]


def test_structural_auction_rules() -> None:
    text = '[Dealer "N"]\n[Auction "N"]\n1C Pass + 1D\n'
    assert ("syntax", 3) in codes(text)  # nothing after '+'
    assert ("syntax", 3) in codes('[Dealer "N"]\n[Auction "N"]\n1C ^X 1D\n')
    assert ("nag", 3) in codes('[Dealer "N"]\n[Auction "N"]\n1C ! ? Pass\n')


def test_duplicate_tag_first_wins_and_is_kept() -> None:
    board = bf.loads('[Event "a"]\n[Event "b"]\n', format="pbn").boards[0]
    assert board.tag("Event") == "a"
    assert [t.value for t in board.tags] == ["a", "b"]
    assert [d.code for d in board.diagnostics] == ["duplicate-tag"]
    assert bf.dumps([board], "pbn").count("[Event") == 1


def test_unknown_tag_keeps_its_section_data() -> None:
    text = '[Event "x"]\n[MyTable "a;b"]\n1 2\n3 4\n'
    board = bf.loads(text, format="pbn").boards[0]
    pair = board.tag_pair("MyTable")
    assert pair is not None and pair.section == ("1 2\n3 4",)
    assert [(d.code, d.severity) for d in board.diagnostics] == [("unknown-tag", Severity.INFO)]
    assert "1 2\r\n3 4" in bf.dumps([board], "pbn")


def test_table_problems() -> None:
    text = '[ScoreTable "Rank\\2R;+Score\\4R"]\n1 100\n2 200\n3\n'
    found = codes(text)
    assert ("table", 3) in found  # 200 after 100 in a descending column
    assert ("table", 4) in found  # 5 elements for 2 columns


def test_games_split_at_blank_lines_outside_comments() -> None:
    text = '{ lead }\n\n[Event "a"]\n{\n\n}\n\n% between\n\n[Event "b"]\n'
    bridge_file = bf.loads(text, format="pbn")
    assert [b.tag("Event") for b in bridge_file.boards] == ["a", "b"]
    assert bridge_file.boards[0].comments[0].text == " lead "
    assert bf.dumps(bridge_file, "pbn", layout="preserve") == text


def test_preamble_directives_and_trailer() -> None:
    text = '% PBN 2.1\n% EXPORT\n\n[Event "a"]\n\n{ the end }\n'
    bridge_file = bf.loads(text, format="pbn")
    assert bridge_file.pbn_version == "2.1" and bridge_file.is_export
    assert bridge_file.trailer == "{ the end }\n"
    assert bf.dumps(bridge_file, "pbn", layout="preserve") == text


def test_preserve_renders_a_changed_board_in_export_form() -> None:
    text = '[Event "a"]\n[Board "1"]\n\n[Event "b"]\n[Board "2"]'
    bridge_file = bf.loads(text, format="pbn")
    changed = bridge_file.boards[0].with_tag("Event", "A")
    out = bf.dumps(
        bridge_file.model_copy(update={"boards": (changed, bridge_file.boards[1])}),
        "pbn",
        layout="preserve",
    )
    assert out.startswith('[Event "A"]\n[Site "?"]\n')
    assert out.endswith('\n\n[Event "b"]\n[Board "2"]')
    assert [b.tag("Event") for b in bf.loads(out, format="pbn").boards] == ["A", "b"]


def test_strict_mode_raises_on_the_first_error() -> None:
    text = '[Event "a"]\n\n[Date "1999-01-01"]\n'
    assert len(bf.loads(text, format="pbn").boards) == 2
    with pytest.raises(bf.StrictModeError) as info:
        bf.loads(text, format="pbn", strict=True)
    assert info.value.diagnostic is not None and info.value.diagnostic.line == 3


def test_lin_explanations_become_notes() -> None:
    board = bf.loads('[Dealer "N"]\n[Auction "N"]\n1C 1NT AP\n', format="pbn").boards[0]
    assert board.auction is not None
    entries = list(board.auction.entries)
    entries[1] = entries[1].model_copy(
        update={"annotations": Annotations(alert=True, explanation="15-18 balanced")}
    )
    lin_board = board.replace(
        format="lin", auction=board.auction.model_copy(update={"entries": tuple(entries)})
    )
    text = "".join(export([lin_board]))
    assert "1C 1NT =1= Pass Pass\r\nPass\r\n" in text
    assert '[Note "1:15-18 balanced"]' in text


def test_unreadable_tokens_are_reported_not_fatal() -> None:
    text = '[Event x]\n[Dealer "N"]\n[Auction "N"]\n1C 8Z $a =a= ^Q\n]\n'
    found = codes(text)
    assert ("syntax", 1) in found and ("syntax", 5) in found
    assert ("nag", 4) in found and ("note", 4) in found


def test_grammar_falls_back_to_the_source_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import resources

    from bridgefiles.formats.pbn import grammar

    def missing(name: str) -> None:
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(resources, "files", missing)
    assert "game: (tag | auction | play | table)+" in grammar.grammar_text()


def test_old_mac_line_ends() -> None:
    text = '[Event "a"]\r[Date "x"]\r\r[Event "b"]\r[Dealer "N"]\r[Auction "N"]\r1C 1Z AP\r'
    bridge_file = bf.loads(text.encode(), format="pbn")
    found = [(d.code, d.line, d.column) for d in bridge_file.all_diagnostics()]
    assert found == [("tag-value", 2, 7), ("syntax", 7, 4)]
    assert bridge_file.newline == "\r"
    assert bf.dumps(bridge_file, "pbn", layout="preserve") == text


def test_play_card_after_plus_in_order_of_play() -> None:
    deal = "N:AKJT986.QJ3.4.Q6 32.K7654.T93.AJ5 ..AKQJ87652.K943 Q754.AT982..T872"
    head = f'[Deal "{deal}"]\n[Declarer "N"]\n[Contract "6S"]\n[Play "E"]\n'
    tricks = "D3 DA S5 D4\nHK D2 H2 HQ\nH7 D5 H8 HJ\n"
    # trick 4 is led by North (HJ won trick 3); West's S7 comes after South's '+'
    bad = bf.loads(head + tricks + "S3 + S7 SA\n", format="pbn").boards[0]
    assert [(d.code, d.line) for d in bad.diagnostics] == [("syntax", 8)]
    good = bf.loads(head + tricks + "+ - - SA\n", format="pbn").boards[0]
    assert good.diagnostics == ()
