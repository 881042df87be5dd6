"""The formats directors already run beside PBN and LIN (issue 27): dealing machines
(``bri``, ``dge``, ``dup``, ``dlm``), Pavlicek's archives (``rbn``) and USEBIO results.

``usebio`` (``usebio``, ``usebio_read``, ``usebio_write``): the EBU's USEBIO 1.2 XML
results, written from a scored event and read back as boards with their
travellers. ``xmlstream`` is the safe streaming XML reader they share. Importing
the package registers the formats (``bridgefiles.formats.registry``) and their
``lost-in-conversion`` reports (``bridgefiles.formats.convert.ADAPTERS``).
"""

from bridgefiles.exchange import usebio
from bridgefiles.exchange.usebio_read import read as _read_usebio
from bridgefiles.exchange.usebio_write import write as _write_usebio
from bridgefiles.formats.convert import ADAPTERS
from bridgefiles.formats.registry import Format, register

register(
    Format(
        name=usebio.NAME,
        extensions=(".xml", ".usebio"),
        sniff=usebio.sniff,
        read=_read_usebio,
        write=_write_usebio,
        line_limit="max_board_size",  # a document may be one long line
        board_for_board=False,  # a board's games are one BOARD with its traveller
    )
)
ADAPTERS[usebio.NAME] = usebio.adapt
