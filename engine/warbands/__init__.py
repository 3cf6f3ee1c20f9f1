"""Campaign warbands: rosters, treasury, experience, injuries, battles and their ledger.

The cog calls ``Campaigns`` (service.py); everything it returns is a plain dataclass
from models.py. Campaign tables are data in rules_data/campaign/.
"""

from engine.warbands.campaign_rules import CampaignRules, default_rules
from engine.warbands.errors import InvalidData
from engine.warbands.models import (
    Advance,
    Battle,
    LedgerEntry,
    Profile,
    Rating,
    RatingLine,
    TreasuryAudit,
    Warband,
    WarbandSheet,
    WarbandSummary,
    Warrior,
    XpResult,
)
from engine.warbands.service import Campaigns

__all__ = [
    "Advance", "Battle", "CampaignRules", "Campaigns", "InvalidData", "LedgerEntry", "Profile", "Rating",
    "RatingLine", "TreasuryAudit", "Warband", "WarbandSheet", "WarbandSummary", "Warrior",
    "XpResult", "default_rules",
]
