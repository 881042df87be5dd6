"""bridgefiles.batch.dask on a local cluster of worker processes: the same rows as one process."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared import FIXTURES, REAL, REAL_PBN, needs_corpus

import bridgefiles as bf
from bridgefiles import batch
from bridgefiles.views.table import COLUMNS, board_rows

pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
pd = pytest.importorskip("pandas")

import bridgefiles.batch.dask as bfd  # noqa: E402

SAMPLE = FIXTURES / "sample-event.pbn"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=":0")
    with cluster, distributed.Client(cluster) as c:
        yield c


def _records(frame: Any) -> list[dict[str, Any]]:
    out = []
    for row in frame.reset_index(drop=True).to_dict(orient="records"):
        out.append({k: (None if v is None or v is pd.NA else
                        (v if isinstance(v, (str, float)) else int(v)))
                    for k, v in row.items()})
    return out


@needs_corpus
def test_the_whole_real_corpus_as_a_dataframe_matches_one_process(client: Any) -> None:
    frame = bfd.read_table(str(REAL))
    assert list(frame.columns) == list(COLUMNS)
    assert frame.npartitions == len(batch.expand([str(REAL)]))
    assert set(client.scheduler_info()["workers"]) and len(client.scheduler_info()["workers"]) == 2
    rows = _records(frame.compute())
    expected = [r for item in batch.expand([str(REAL)])
                for r in board_rows(bf.read(item.path), item.path)]
    assert len(rows) == len(expected) > 20_000
    assert rows == expected


def test_bag_of_boards_and_validation_on_workers(client: Any, tmp_path: Path) -> None:
    for name in ("a.pbn", "sub/b.pbn"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE, tmp_path / name)
    bag = bfd.read_bag(str(tmp_path))
    boards = bag.compute()
    assert len(boards) == 24 and all(isinstance(b, bf.Board) for b in boards)
    reports = bfd.validate_bag(bag).compute()
    assert [r["contract"] for r in reports[:2]] == ["2S", "2H"]
    results = bfd.validate_files(str(tmp_path)).compute()
    assert [r.boards for r in results] == [12, 12] and all(r.status == "ok" for r in results)


def test_convert_files_writes_from_the_workers(client: Any, tmp_path: Path) -> None:
    src = tmp_path / "in"
    for name in ("a.pbn", "deep/er/b.pbn"):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE, src / name)
    out = tmp_path / "out"
    results = bfd.convert_files(str(src), out, "json", verify=True)
    assert [r.status for r in results] == ["ok", "ok"]
    assert len(list(bf.read(out / "deep" / "er" / "b.json"))) == 12
    assert len(list(bf.read(out / "a.json"))) == 12


def test_empty_input_gives_an_empty_frame(tmp_path: Path) -> None:
    frame = bfd.read_table(str(tmp_path))
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame.compute(scheduler="sync")) == 0


@needs_corpus
def test_every_report_of_the_real_corpus_names_its_file(client: Any) -> None:
    reports = bfd.validate_bag(bfd.read_bag(str(REAL_PBN))).compute()
    assert len(reports) > 1000
    assert all(r["path"] and r["path"].startswith(str(REAL)) for r in reports)
    first_file = batch.expand([str(REAL_PBN)])[0].path
    count = len(list(bf.read(first_file)))
    assert {r["path"] for r in reports[:count]} == {first_file}


def test_globs_match_extensions_in_any_case(client: Any, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    shutil.copy(SAMPLE, tmp_path / "sub" / "UPPER.PBN")
    shutil.copy(SAMPLE, tmp_path / "lower.pbn")
    reports = bfd.validate_bag(bfd.read_bag(str(tmp_path / "**" / "*.pbn"))).compute()
    assert {Path(r["path"]).name for r in reports} == {"UPPER.PBN", "lower.pbn"}
    assert len(reports) == 24
