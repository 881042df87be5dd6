"""The Laws of Duplicate Bridge (2017) applied to records: auction, play, revokes, claims.

Knows nothing of files or formats: it works on the models only.
"""

from bridgefiles.laws.auction import (
    AuctionResult,
    is_sufficient,
    lowest_sufficient_same_strain,
    replay_auction,
)
from bridgefiles.laws.claims import Settlement, claim_is_possible, settle, tricks_after_claim
from bridgefiles.laws.play import PlayResult, replay_play
from bridgefiles.laws.referee import (
    Duty,
    Irregularity,
    LeadRestriction,
    Obligation,
    Option,
    Position,
    Referee,
    Ruling,
)
from bridgefiles.laws.revokes import Law64, Revoke, RevokeRuling, apply_law64

__all__ = [
    "AuctionResult",
    "Duty",
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
    "apply_law64",
    "claim_is_possible",
    "is_sufficient",
    "lowest_sufficient_same_strain",
    "replay_auction",
    "replay_play",
    "settle",
    "tricks_after_claim",
]
