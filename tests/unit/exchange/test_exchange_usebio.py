"""USEBIO 1.2: a scored event written as USEBIO and read back ranks to the same standings."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shared import FIXTURES, REAL_PBN, files
from strategies import boards

import bridgefiles as bf
from bridgefiles.formats import registry
from bridgefiles.model import Board, BridgeFile
from bridgefiles.model.seats import Seat


def _scored(path: Path) -> BridgeFile:
    return bf.score(bf.load(path))


def _standings(event: BridgeFile) -> list[tuple[str, ...]]:
    tables = [t for b in event.boards for t in b.tables if t.name == "TotalScoreTable"]
    assert tables, "no standings"
    return [tuple(c.strip('"') for c in row) for row in tables[-1].rows]


def _results(event: BridgeFile) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Each traveller line's contract, result and matchpoints or IMPs, by board and pairs."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for b in event.boards:
        t = b.table("ScoreTable")
        if t is None:
            continue
        for r in t.records():
            key = (b.board_number or "", r.get("Section", ""), r.get("PairId_NS", ""),
                   r.get("PairId_EW", ""), r.get("Room", ""))
            contract = r.get("Contract", "-")
            if contract.upper() == "PASS":  # one meaning, spelt as PBN does
                contract = "Pass"
            out[key] = (contract, *(r.get(c, "-") for c in ("Declarer", "Result", "MP_NS",
                                                             "MP_EW", "IMP_NS", "IMP_EW")))
    return out


def _again(event: BridgeFile) -> tuple[str, BridgeFile]:
    text = bf.dumps(event, "usebio")
    return text, bf.score(bf.loads(text.encode("iso-8859-1"), format="usebio"))


@pytest.mark.parametrize("name", ["scoring-pairs.pbn", "usebio-adjusted.pbn"])
def test_pairs_round_trip_same_matchpoints_and_ranking(name: str) -> None:
    event = _scored(FIXTURES / name)
    _, back = _again(event)
    assert _standings(back) == _standings(event)
    assert _results(back) == _results(event)
    assert not [d for b in back.boards for d in b.diagnostics if d.code == "score-mismatch"]


def test_an_unscored_event_ranks_as_its_pbn_would() -> None:
    """Travellers from the games' own tags (the auction's contract where the Contract tag
    says "?"): scoring the USEBIO gives what scoring the PBN gives."""
    event = bf.load(FIXTURES / "scoring-pairs.pbn")
    text = bf.dumps(event, "usebio")
    assert "<PLACE>" not in text and "<NS_MATCH_POINTS>" not in text
    back = bf.score(bf.loads(text.encode("iso-8859-1"), format="usebio"))
    assert _standings(back) == _standings(bf.score(event))


def test_usebio_elements_adjusted_scores_and_ties() -> None:
    text, _ = _again(_scored(FIXTURES / "usebio-adjusted.pbn"))
    assert text.startswith('<?xml version="1.0" encoding="ISO-8859-1"?>\n'
                           '<!DOCTYPE USEBIO SYSTEM "usebio_v1_2.dtd">\n<USEBIO Version="1.2">')
    for piece in ('<EVENT EVENT_TYPE="PAIRS">', "<DATE>01/12/2026</DATE>",
                  "<BOARD_SCORING_METHOD>MATCH_POINTS</BOARD_SCORING_METHOD>",
                  "<BOARDS_PLAYED>2</BOARDS_PLAYED>", "<SCORE>A6040</SCORE>",
                  "<PLACE>2=</PLACE>", "<VULNERABILITY>North-South</VULNERABILITY>",
                  "<SPADES>K753</SPADES>", "<PLAYER_NAME>Ida</PLAYER_NAME>"):
        assert piece in text
    assert text.count("<PLACE>2=</PLACE>") == 2


def test_teams_round_trip_same_imps_and_vps() -> None:
    event = _scored(FIXTURES / "scoring-teams.pbn")
    text, back = _again(event)
    assert '<EVENT EVENT_TYPE="TEAMS">' in text and "<MATCH>" in text
    assert "<BOARD_SCORING_METHOD>IMPS</BOARD_SCORING_METHOD>" in text
    assert '<TEAM TEAM_ID="1" TEAM_NAME="Lions">' in text and "<TEAM>1</TEAM>" in text
    assert text.count("<PLAYER_NAME>Lion") == 4 and text.count("<PLAYER_NAME>Tiger") == 4
    assert _standings(back) == _standings(event)
    assert _results(back) == _results(event)


_WITH_TRAVELLERS = [p for p in files(REAL_PBN, ".pbn")
                    if b"[ScoreTable" in p.read_bytes() and b"Score_NS" in p.read_bytes()]


@pytest.mark.parametrize("path", _WITH_TRAVELLERS, ids=lambda p: p.name)
def test_real_travellers_round_trip(path: Path) -> None:
    event = _scored(path)
    _, back = _again(event)
    assert _standings(back) == _standings(event)
    assert _results(back) == _results(event)


def test_real_files_with_travellers_are_found() -> None:
    if REAL_PBN.is_dir():
        assert len(_WITH_TRAVELLERS) >= 2


def test_convert_and_score_commands_by_extension(tmp_path: Path) -> None:
    out = tmp_path / "event.xml"
    done = bf.convert(FIXTURES / "scoring-pairs.pbn", out, score=True)
    assert done.to == "usebio" and out.read_bytes().startswith(b"<?xml")
    back = tmp_path / "back.pbn"
    bf.convert(out, back)  # read by its extension, written as PBN
    again = bf.score(bf.load(back))
    assert _standings(again) == _standings(_scored(FIXTURES / "scoring-pairs.pbn"))
    lost = [d for d in done.diagnostics if d.code == "lost-in-conversion"]
    assert lost and "the auction" in lost[0].message
    numberless = bf.loads('[Deal "N:AKQJ.AKQ.AKQ.AKQ - - -"]\n[Contract "7NT"]\n').boards
    found: list[bf.Diagnostic] = []
    bf.dumps(numberless, "usebio", on_diagnostic=found.append)
    assert any("board number" in d.message for d in found)


def test_sniffed_by_content_not_name() -> None:
    text = bf.dumps(_scored(FIXTURES / "scoring-pairs.pbn"), "usebio")
    assert registry.sniff(text[:4096]) is registry.get("usebio")
    event = bf.load(io.BytesIO(text.encode("iso-8859-1")))
    assert len(event.boards) == 4 and event.boards[0].tag("Event") == "Fixture Pairs"
    assert registry.sniff('<?xml version="1.0"?><html></html>') is None


def test_names_outside_latin1_survive() -> None:
    event = _scored(FIXTURES / "usebio-adjusted.pbn")
    boards = [b.replace(tables=tuple(t.model_copy(update={"rows": tuple(
        tuple(c.replace("Ida", "Zoë Łukasz") for c in r) for r in t.rows)}) for t in b.tables))
        for b in event.boards]
    text = bf.dumps(boards, "usebio")
    assert "&#321;ukasz" in text
    text.encode("iso-8859-1")  # the whole document fits its declared charset
    back = bf.score(bf.loads(text.encode("iso-8859-1"), format="usebio"))
    assert any(r[2] == "Zoë Łukasz;Jo" for r in _standings(back))


_LAUGHS = (b'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY a "aaaaaaaaaa">'
           b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<USEBIO>&b;</USEBIO>\n')
_EXTERNAL = (b'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
             b"\n<USEBIO><EVENT><EVENT_DESCRIPTION>&x;</EVENT_DESCRIPTION></EVENT></USEBIO>\n")


@pytest.mark.parametrize("data, words", [
    (_LAUGHS, "declares an entity"),
    (_EXTERNAL, "declares an entity"),
    (b'<?xml version="1.0"?>\n<USEBIO><EVENT>\n<BOARD>', "not well-formed"),
    (b'<?xml version="1.0"?>\n<RESULTS><BOARD/></RESULTS>\n', "not a USEBIO document"),
    (b'<?xml version="1.0"?>\n<USEBIO Version="1.2"><EVENT/></USEBIO>\n', "no BOARD"),
])
def test_bad_input_is_one_diagnostic_and_nothing_written(
    data: bytes, words: str, tmp_path: Path
) -> None:
    event = bf.loads(data, format="usebio")
    assert not event.boards
    assert [d.code for d in event.diagnostics] == ["syntax"]
    assert words in event.diagnostics[0].message
    with pytest.raises(bf.StrictModeError):
        bf.loads(data, format="usebio", strict=True)
    out = tmp_path / "out.pbn"
    with pytest.raises(bf.BridgeFileError):
        bf.convert(io.BytesIO(data), out, format="usebio", to="pbn")
    assert not out.exists()


def test_lines_and_what_the_boards_do_not_keep() -> None:
    event = bf.load(FIXTURES / "usebio-pairs.xml")
    text = (FIXTURES / "usebio-pairs.xml").read_text(encoding="iso-8859-1").splitlines()
    assert [b.line for b in event.boards] == [
        n for n, line in enumerate(text, start=1) if line.strip() == "<BOARD>"]
    (again,) = event.diagnostics
    assert again.severity.value == "info" and again.line == 8  # PROGRAM_NAME
    assert "PLACE" in again.message and "PERCENTAGE" in again.message
    extra = "\n".join(text).replace("<CLUB_NAME>", "<CLUB_ID_NUMBER>77</CLUB_ID_NUMBER><CLUB_NAME>")
    found = bf.loads(extra.encode("iso-8859-1"), format="usebio").diagnostics
    assert any(d.severity.value == "warning" and "CLUB_ID_NUMBER (line 5)" in d.message
               for d in found)


def test_unreadable_values_are_warnings_not_guesses() -> None:
    text = bf.dumps(_scored(FIXTURES / "usebio-adjusted.pbn"), "usebio")
    text = text.replace("<CONTRACT>4S</CONTRACT>", "<CONTRACT>9Z</CONTRACT>", 1)
    text = text.replace("<TRICKS>10</TRICKS>", "<TRICKS>14</TRICKS>", 1)
    board = bf.loads(text.encode("iso-8859-1"), format="usebio").boards[0]
    messages = [d.message for d in board.diagnostics]
    assert any("'9Z' is not a contract" in m for m in messages)
    assert any("'14' is not 0 to 13" in m for m in messages)
    row = board.table("ScoreTable").records()[2]  # type: ignore[union-attr]
    assert row["Contract"] == "-" and row["Result"] == "-"


_CONTRACTS = ["1NT", "2S", "3NT", "4H", "4SX", "5DXX", "6NT", "3C"]


@st.composite
def _events(draw: st.DrawFn) -> BridgeFile:
    """Pairs events as ScoreTables: 1-3 boards, 2-5 tables, any contract and result."""
    deal = "N:K753.KT7.975.432 Q2.4.KJT642.AQ97 AT8.AQJ932.AQ8.6 J964.865.3.KJT85"
    header = ("PairId_NS;PairId_EW;Names_NS;Names_EW;Contract;Declarer;Result;"
              "Score_NS;Score_EW")
    tables = draw(st.integers(2, 5))
    games = []
    for number in range(1, draw(st.integers(1, 3)) + 1):
        rows = []
        for t in range(1, tables + 1):
            contract = draw(st.sampled_from(_CONTRACTS))
            seat = draw(st.sampled_from("NESW"))
            tricks = draw(st.integers(0, 13))
            ew = (t + number - 1) % tables + 1 + tables
            rows.append(f'{t} {ew} "N{t};S{t}" "E{ew};W{ew}" {contract} {seat} {tricks} - -')
        games.append(f'[Event "Random"]\n[Date "2026.12.03"]\n[Board "{number}"]\n'
                     f'[Vulnerable "All"]\n[Deal "{deal}"]\n[Scoring "MP"]\n'
                     f'[ScoreTable "{header}"]\n' + "\n".join(rows) + "\n")
    return bf.loads("\n".join(games), format="pbn")


@given(_events())
def test_round_trip_property(event: BridgeFile) -> None:
    scored = bf.score(event)
    _, back = _again(scored)
    assert _standings(back) == _standings(scored)
    assert _results(back) == _results(scored)


_SAMPLE = (FIXTURES / "usebio-pairs.xml").read_text(encoding="iso-8859-1")


@given(st.lists(st.tuples(st.integers(0, len(_SAMPLE)), st.integers(0, 40),
                          st.sampled_from(["", "<", ">", "&", "&amp;", "</BOARD>", "<BOARD>",
                                           "<!ENTITY x 'y'>", "\x00", "é", "A6040", "9Z"])),
                max_size=4))
def test_mangled_documents_are_findings_never_crashes(edits: list[tuple[int, int, str]]) -> None:
    """Cut and spliced documents: diagnostics or boards, only BridgeFileError ever raised."""
    text = _SAMPLE
    for at, cut, insert in edits:
        text = text[:at] + insert + text[at + cut :]
    event = bf.loads(text.encode("utf-8"), format="usebio")
    for board in event.boards:
        assert board.tag("Board") is not None
        bf.validate(board)
    if event.boards:
        bf.dumps(event, "pbn")
        bf.dumps(event, "usebio")
    else:
        assert [d.severity.value for d in event.diagnostics].count("error") >= 1


@pytest.mark.parametrize("body, setting", [
    ("<EVENT_DESCRIPTION>" + "x\n" * 5_000 + "</EVENT_DESCRIPTION>", "max_value_length"),
    ("<EVENT>" + "<X/>\n" * 2_000 + "</EVENT>", "max_tags_per_game"),
])
def test_a_document_made_to_fill_memory_stops_at_a_limit(body: str, setting: str) -> None:
    from bridgefiles.limits import Limits

    data = f'<?xml version="1.0"?>\n<USEBIO Version="1.2">{body}</USEBIO>\n'.encode()
    limits = Limits(max_value_length=1_000, max_tags_per_game=1_000)
    event = bf.loads(data, format="usebio", limits=limits)
    assert not event.boards
    assert [d.code for d in event.diagnostics] == ["limit"]
    assert setting in event.diagnostics[0].message
    text = bf.dumps(_scored(FIXTURES / "scoring-pairs.pbn"), "usebio")  # layout is not text
    assert bf.loads(text.encode("iso-8859-1"), format="usebio", limits=limits).boards


@given(st.lists(boards(), min_size=1, max_size=3))
def test_any_boards_write_and_read_back(generated: list[Board]) -> None:
    """Generated boards (any tags, tables, auctions, plays): written as USEBIO, the
    document reads back with their board numbers and deals, or (a number dealt twice)
    the writer refuses with our error; nothing else is raised."""
    try:
        text = bf.dumps(generated, "usebio")
    except bf.BridgeFileError as exc:
        assert "dealt twice" in str(exc)
        return
    back = bf.loads(text.encode("iso-8859-1"), format="usebio")
    assert back.boards and not [d for d in back.diagnostics if d.severity.value == "error"]
    numbers = {b.board_number for b in back.boards}
    deals = {b.tag("Deal") for b in back.boards}
    for board in generated:
        if board.board_number is not None:
            assert board.board_number.strip() in numbers
        if board.deal is not None and board.deal.is_complete and board.board_number:
            assert board.deal.pbn(Seat.N) in deals


def test_a_number_dealt_twice_is_refused(tmp_path: Path) -> None:
    hands = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    one = f'[Board "1"]\n[Deal "{hands}"]\n'
    two = one.replace("N:AKQJ.AKQ.AKQ.AKQ T987", "N:T987.AKQ.AKQ.AKQ AKQJ")
    out = tmp_path / "event.xml"
    with pytest.raises(bf.BridgeFileError, match="board 1 is dealt twice"):
        bf.convert(io.BytesIO((one + "\n" + two).encode()), out, format="pbn", to="usebio")
    assert not out.exists()


def test_each_sections_traveller_is_kept() -> None:
    """Two games of a board, each with its section's traveller: both go to USEBIO."""
    deal = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    head = "Section;PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"
    games = [f'[Board "1"]\n[Deal "{deal}"]\n[Scoring "MP"]\n[ScoreTable "{head}"]\n'
             f"{s} 1 1 7NT N 13 - -\n{s} 2 2 6NT N 12 - -\n" for s in "AB"]
    text = bf.dumps(bf.score(bf.loads("\n".join(games), format="pbn")), "usebio")
    assert text.count("<TRAVELLER_LINE>") == 4
    assert '<SECTION SECTION_ID="A">' in text and '<SECTION SECTION_ID="B">' in text
    back = bf.loads(text.encode("iso-8859-1"), format="usebio").boards
    assert len(back) == 1
    rows = back[0].table("ScoreTable").records()  # type: ignore[union-attr]
    assert [r["Section"] for r in rows] == ["A", "A", "B", "B"]


def test_a_second_match_is_refused() -> None:
    text = (FIXTURES / "scoring-teams.pbn").read_text(encoding="iso-8859-1")
    cut = text.index('[Event "Fixture Teams"]', text.index('[Board "3"]') - 200)
    other = text[:cut] + text[cut:].replace('"Tigers"', '"Bears"')
    with pytest.raises(bf.BridgeFileError, match=r"another match \(Lions v Bears"):
        bf.dumps(bf.loads(other, format="pbn"), "usebio")


def test_verify_is_refused_not_misreported(tmp_path: Path) -> None:
    """verify compares board by board; USEBIO gathers a board's games: a clear refusal."""
    out = tmp_path / "event.xml"
    with pytest.raises(bf.UsageError, match="gathers the games of a board"):
        bf.convert(FIXTURES / "scoring-pairs.pbn", out, score=True, verify=True)
    assert not out.exists()
