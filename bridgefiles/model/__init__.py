"""The models: values that know nothing of files or Laws."""

from bridgefiles.model.annotations import (
    NO_ANNOTATIONS,
    SUFFIX_NAGS,
    Annotations,
    Comment,
    CommentKind,
    Note,
)
from bridgefiles.model.auction import Auction, AuctionEnd, AuctionEntry, EntryKind
from bridgefiles.model.board import (
    Board,
    Column,
    EscapeLine,
    Extra,
    Result,
    Table,
    TagPair,
)
from bridgefiles.model.calls import (
    ALL_BIDS,
    DOUBLE,
    PASS,
    PASSED_OUT,
    REDOUBLE,
    Call,
    CallKind,
    Contract,
    Risk,
)
from bridgefiles.model.cards import ALL_CARDS, SUITS_DESCENDING, Card, Rank, Strain, Suit
from bridgefiles.model.deal import Deal, Hand
from bridgefiles.model.file import BridgeFile
from bridgefiles.model.outcome import AuctionOutcome, auction_outcome, trick_winner
from bridgefiles.model.play import Claim, Play, PlayedCard, PlayEnd, Slot
from bridgefiles.model.seats import ROTATION, Seat, Side, Vulnerability, rotation_from

__all__ = [
    "ALL_BIDS",
    "ALL_CARDS",
    "DOUBLE",
    "NO_ANNOTATIONS",
    "PASS",
    "PASSED_OUT",
    "REDOUBLE",
    "ROTATION",
    "SUFFIX_NAGS",
    "SUITS_DESCENDING",
    "Annotations",
    "Auction",
    "AuctionEnd",
    "AuctionEntry",
    "AuctionOutcome",
    "Board",
    "BridgeFile",
    "Call",
    "CallKind",
    "Card",
    "Claim",
    "Column",
    "Comment",
    "CommentKind",
    "Contract",
    "Deal",
    "EntryKind",
    "EscapeLine",
    "Extra",
    "Hand",
    "Note",
    "Play",
    "PlayEnd",
    "PlayedCard",
    "Rank",
    "Result",
    "Risk",
    "Seat",
    "Side",
    "Slot",
    "Strain",
    "Suit",
    "Table",
    "TagPair",
    "Vulnerability",
    "auction_outcome",
    "rotation_from",
    "trick_winner",
]
