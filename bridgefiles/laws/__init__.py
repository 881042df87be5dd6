"""The Laws of Duplicate Bridge (2017, and 2007 on request) applied to records and at the
table: auction, play, revokes, claims, a board's result, and a live referee.

Knows nothing of files or formats: it works on the models only.
"""

from bridgefiles.laws.auction import (
    AuctionResult,
    is_sufficient,
    lowest_sufficient_same_strain,
    replay_auction,
)
from bridgefiles.laws.claims import Settlement, claim_is_possible, settle, tricks_after_claim
from bridgefiles.laws.editions import EDITIONS, Edition
from bridgefiles.laws.play import PlayResult, replay_play
from bridgefiles.laws.referee import Referee
from bridgefiles.laws.result import BoardResult, Tricks, board_result
from bridgefiles.laws.revokes import Law64, Revoke, RevokeRuling, apply_law64
from bridgefiles.laws.rulings import (
    Duty,
    Irregularity,
    LeadRestriction,
    Obligation,
    Option,
    Position,
    Ruling,
)

__all__ = [
    "EDITIONS",
    "AuctionResult",
    "BoardResult",
    "Duty",
    "Edition",
    "Irregularity",
    "Law64",
    "LeadRestriction",
    "Obligation",
    "Option",
    "PlayResult",
    "Position",
    "Referee",
    "Revoke",
    "RevokeRuling",
    "Ruling",
    "Settlement",
    "Tricks",
    "apply_law64",
    "board_result",
    "claim_is_possible",
    "is_sufficient",
    "lowest_sufficient_same_strain",
    "replay_auction",
    "replay_play",
    "settle",
    "tricks_after_claim",
]
