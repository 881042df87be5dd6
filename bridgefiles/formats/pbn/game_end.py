"""The end of a PBN game: the checks made once all of it is read (note references,
missing tags, tag order) and the Board built from what was read."""

from __future__ import annotations

from typing import Any

from bridgefiles.formats.pbn.dialect import passed_out_result
from bridgefiles.formats.pbn.game_base import GameBase, diagnostics_of
from bridgefiles.model.auction import Auction
from bridgefiles.model.board import Board, TagPair, Tags, tag_index
from bridgefiles.model.calls import Contract
from bridgefiles.model.diagnostic import Severity
from bridgefiles.model.fast import make
from bridgefiles.model.play import Play
from bridgefiles.model.positions import NO_POSITIONS, pack
from bridgefiles.model.tags import item_value

# The tags that must come before the Auction or the Play section (check_order).
ORDERED = frozenset({"Dealer", "Deal", "Declarer", "Contract"})


class EndPart(GameBase):
    """The checks of a whole game, and the Board."""

    # -- the end of the game ------------------------------------------------------------
    def finish(self) -> None:
        for name, reader, notes, places in (
            ("auction", self.auction, self.auction_notes, self.auction_note_places),
            ("play", self.play, self.play_notes, self.play_note_places),
        ):
            if reader is None:
                continue
            indices = {n.index for n in notes}
            used = set()
            for n, line, col in reader.note_refs:
                used.add(n)
                if n not in indices:
                    self.problem("note", f"no Note {n} in the {name} section for ={n}=", line, col)
            for i, note in enumerate(notes):
                if note.index and note.index not in used:
                    self.problem(
                        "note",
                        f"note {note.index} of the {name} section is never referred to",
                        places[2 * i],
                        places[2 * i + 1],
                        Severity.WARNING,
                    )
        if self.play is not None and self.play_tag is not None and self.play.plus_index is not None:
            contract = self.tag_value("Contract") or ""
            try:
                strain = Contract.parse(contract).strain if contract else None
            except ValueError:
                strain = None
            if strain is not None:
                self.play.check_plus_order(self.play_tag[0], strain)
        present = self.seen
        self.check_order()
        if self.auction_tag is not None and "Dealer" not in present:
            _, line, col, _ = self.auction_tag
            self.problem("missing-tag", "Auction without a Dealer tag", line, col)
        if self.play_tag is not None:
            _, line, col, _ = self.play_tag
            for needed in ("Deal", "Contract"):
                if needed not in present:
                    self.problem("missing-tag", f"Play without a {needed} tag", line, col)
            contract = self.tag_value("Contract") or ""
            if "Declarer" not in present and contract[:1].isdigit():
                self.problem("missing-tag", "Play without a Declarer tag", line, col)

    def tag_index(self) -> dict[str, int]:
        """Each tag name of the game to the place of its first tag (PBN 2.6): one look-up
        for each tag the checks and the build ask for, not a pass over the tags each."""
        names = self.tag_names
        kept = self._tag_index
        if kept is None or kept[0] != len(names):  # (names are only ever added)
            kept = self._tag_index = (len(names), tag_index(tuple(names)))
        return kept[1]

    def tag_value(self, name: str) -> str | None:
        """The value in use of the game's first tag ``name``, or None."""
        at = self.tag_index().get(name)
        return None if at is None else item_value(self.tags[at])

    def add_implied(self) -> None:
        """The tags this game inherits from an earlier game's ``##`` and does not write."""
        present = self.seen
        for name, value in self.state.defaults.items():
            if name not in present:
                self.tags.append(
                    make(
                        TagPair,
                        name=name,
                        value=value,
                        raw=None,
                        comments=(),
                        section=(),
                        line=None,
                        column=None,
                        implied=True,
                    )
                )
                self.tag_names.append(name)
                self.tag_places += (0, 0)

    def check_order(self) -> None:
        """PBN 2.8 and 12.3: Dealer comes before the Auction section; Deal, Contract and
        Declarer before the Play section. Read in any order, said as warnings."""
        if self.auction_tag is None and self.play_tag is None:
            return
        where: dict[str, tuple[int, int]] = {}
        places = self.tag_places
        index = self.tag_index()
        for name in ORDERED:
            i = index.get(name)
            if i is not None and places[2 * i]:  # (a tag it implies stands nowhere)
                where[name] = (places[2 * i], places[2 * i + 1])
        for section, tag, needed in (
            ("Auction", self.auction_tag, ("Dealer",)),
            ("Play", self.play_tag, ("Deal", "Declarer", "Contract")),
        ):
            if tag is None:
                continue
            opened = (tag[1], tag[2])
            for name in needed:
                at = where.get(name)
                if at is not None and at > opened:
                    self.problem(
                        "tag-order",
                        f"{name} comes after the {section} section; it belongs before it",
                        at[0],
                        at[1],
                        Severity.WARNING,
                    )

    def build(self) -> Board:
        text = self.game.text
        auction = None
        if self.auction is not None and self.auction_tag is not None:
            seat, line, col, comments = self.auction_tag
            end, end_ann = self.auction.auction_end()
            auction = make(
                Auction,
                first=seat,
                entries=self.auction.auction_entries(),
                end=end,
                end_annotations=end_ann,
                notes=tuple(self.auction_notes),
                comments=tuple(comments),
                line=line,
                column=col,
                positions=self.auction.positions(),
                note_positions=pack(self.auction_note_places)
                if self.auction_notes
                else NO_POSITIONS,
            )
        play = None
        if self.play is not None and self.play_tag is not None:
            seat, line, col, comments = self.play_tag
            pend, pend_ann = self.play.play_end()
            play = make(
                Play,
                first=seat,
                slots=self.play.play_slots(),
                end=pend,
                end_annotations=pend_ann,
                claim=None,
                notes=tuple(self.play_notes),
                comments=tuple(comments),
                line=line,
                column=col,
                positions=self.play.positions(),
                note_positions=pack(self.play_note_places) if self.play_notes else NO_POSITIONS,
            )
        label = self.tag_value("Board")
        # Result "0" on a passed-out board
        tags = Tags(tuple(self.tag_names), self.tags)
        self.problems.extend(passed_out_result(tags, self.tag_places, auction))
        self.problems.sort(key=lambda p: (p[3], p[4]))
        escapes = self.escapes
        if len(escapes) > 1:  # the sections' escape lines were read after the tags'
            escapes.sort(key=lambda e: e.line or 0)
        fields: dict[str, Any] = dict(
            tags=tags,
            tag_positions=pack(self.tag_places),
            auction=auction,
            play=play,
            tables=tuple(self.tables),
            comments=tuple(self.comments),
            escapes=tuple(escapes),
            extras=(),
            format="pbn",
            index=self.index,
            line=self.first_tag_line or self.game.first_line,
            source=text,
            diagnostics=tuple(diagnostics_of(self.problems, self.path, label)),
        )
        return make(Board, **fields)
