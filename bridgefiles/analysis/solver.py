"""The double-dummy solver: Bo Haglund's DDS, through the binary wheel of endplay.

endplay (extra ``dds``) is imported when a table is first asked for, so the rest of
the package works without it. We call its ctypes layer (``endplay._dds``, documented
as the low-level binding) for the two batch entry points we need: ``CalcAllTablesPBN``,
which solves up to 40 deals a call spread over DDS's own threads (one per core), and
``DealerParBin``, the par of a table given dealer and vulnerability.

>>> from bridgefiles.model.deal import Deal
>>> deal = Deal.parse("N:K843.T542.J6.863 AQJ7.K.Q75.AT942 962.AJ7.KT82.J75 T5.Q9863.A943.KQ")
>>> table = dd_table(deal)
>>> table.hex
'2333223332aaaabaaaab'
>>> par(table, Vulnerability.NONE, Seat.N).par_contract
'EW 3N+1'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from bridgefiles.analysis.models import TABLE_SEATS, TABLE_STRAINS, DDTable, Par, ParContract
from bridgefiles.errors import BridgeFileError, InternalError
from bridgefiles.model.cards import Strain
from bridgefiles.model.deal import Deal
from bridgefiles.model.seats import ROTATION, Seat, Vulnerability

MISSING = ("double-dummy analysis needs the extra 'dds': pip install '.[dds]' from the "
           "bridgefiles clone")
BATCH = 40  # DDS's MAXNOOFTABLES: deals per CalcAllTables call with all five strains

# DDS's encodings (dll.h): strains S, H, D, C, NT in tables; NT, S, H, D, C in par
# contracts; hands N, E, S, W; vulnerability None, Both, NS, EW.
_DDS_STRAIN = {Strain.S: 0, Strain.H: 1, Strain.D: 2, Strain.C: 3, Strain.NT: 4}
_PAR_STRAIN = (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
_PAR_SEATS = ("N", "E", "S", "W", "NS", "EW")
_DDS_VUL = {Vulnerability.NONE: 0, Vulnerability.ALL: 1, Vulnerability.NS: 2,
            Vulnerability.EW: 3}


class AnalysisUnavailable(BridgeFileError):
    """The solver is not installed (the extra ``dds``)."""


def available() -> bool:
    """Whether the solver can be loaded."""
    try:
        _dds()
    except AnalysisUnavailable:
        return False
    return True


def _dds() -> ModuleType:
    try:
        import endplay._dds as dds
    except ImportError as exc:
        raise AnalysisUnavailable(MISSING) from exc
    return dds


def set_threads(threads: int) -> None:
    """How many threads DDS may use in this process (0: one per core, its default).
    Worker processes each take one, so that processes and threads do not fight for cores."""
    _dds().SetMaxThreads(threads)


def _solvable(deal: Deal) -> str:
    if not deal.is_complete or deal.problems():
        raise BridgeFileError(f"double-dummy analysis needs a full, sound deal: {deal.pbn()}")
    return deal.pbn()


def dd_tables(
    deals: Sequence[Deal], progress: Callable[[int], None] | None = None
) -> list[DDTable]:
    """The tables of many deals, 40 to a solver call (the call spreads them over cores).

    ``progress`` is called with the number of deals done after each call. Raises
    BridgeFileError for a deal that is not four sound 13-card hands.
    """
    dds = _dds()
    texts = [_solvable(d) for d in deals]
    out: list[DDTable] = []
    for start in range(0, len(texts), BATCH):
        chunk = texts[start : start + BATCH]
        request = dds.ddTableDealsPBN()
        request.noOfTables = len(chunk)
        for i, text in enumerate(chunk):
            request.ddTableDealPBN[i].cards = text.encode("ascii")
        results = dds.ddTablesRes()
        try:
            dds.CalcAllTablesPBN(request, -1, [0] * 5, results, dds.allParResults())
        except dds.DDSError as exc:
            raise InternalError(f"the solver refused deals it should take: {exc}") from exc
        out.extend(_table(results.results[i]) for i in range(len(chunk)))
        if progress is not None:
            progress(len(out))
    return out


def dd_table(deal: Deal) -> DDTable:
    """The 20 double-dummy trick counts of one full deal (see the module's example)."""
    return dd_tables([deal])[0]


def _table(result: Any) -> DDTable:
    counts = [
        int(result.resTable[_DDS_STRAIN[strain]][seat.order])
        for seat in TABLE_SEATS
        for strain in TABLE_STRAINS
    ]
    return DDTable(tricks=tuple(counts))


def par(table: DDTable, vulnerable: Vulnerability, dealer: Seat) -> Par:
    """The par score (North-South's view) and contracts of a table, as DDS's ``DealerPar``
    finds them: sacrifices included, and when both sides could bid a contract first the
    dealer's side gets it."""
    dds = _dds()
    request = dds.ddTableResults()
    for seat in ROTATION:
        for strain in TABLE_STRAINS:
            request.resTable[_DDS_STRAIN[strain]][seat.order] = table.tricks_for(seat, strain)
    answer = dds.parResultsMaster()
    try:
        dds.DealerParBin(request, answer, dealer.order, _DDS_VUL[vulnerable])
    except dds.DDSError as exc:
        raise InternalError(f"the solver refused a par request: {exc}") from exc
    contracts = []
    for i in range(answer.number):
        c = answer.contracts[i]
        under = int(c.underTricks)
        contracts.append(ParContract(
            declarer=_PAR_SEATS[c.seats], level=int(c.level), strain=_PAR_STRAIN[c.denom],
            doubled=under > 0, result=-under if under else int(c.overTricks)))
    return Par(score=int(answer.score), contracts=tuple(contracts))
