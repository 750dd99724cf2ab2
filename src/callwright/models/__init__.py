"""Every ORM table, one file each. Importing this package registers them all on Base.metadata."""

from callwright.models.agent import Agent
from callwright.models.agent_tool import AgentTool
from callwright.models.agent_version import AgentVersion
from callwright.models.api_token import ApiToken
from callwright.models.call import Call, CallEvent, TranscriptEntry, TurnLatency
from callwright.models.campaign import BatchAnalysis, Campaign, CampaignContact
from callwright.models.compliance import DoNotCall
from callwright.models.content import FormSubmission, Post, SiteSetting
from callwright.models.developer import ApiKey, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from callwright.models.email_message import EmailMessage
from callwright.models.flow import Flow
from callwright.models.flow_version import FlowVersion
from callwright.models.lab import LabResult, LabRun, LabScenario
from callwright.models.ledger import CallReport, LedgerEntry
from callwright.models.password_reset import PasswordResetToken
from callwright.models.payment import BillingProfile, TopUp
from callwright.models.stats import CallStatsHourly
from callwright.models.user import User

__all__ = [
    "Agent",
    "AgentTool",
    "AgentVersion",
    "ApiKey",
    "ApiToken",
    "BatchAnalysis",
    "BillingProfile",
    "Call",
    "CallEvent",
    "CallReport",
    "CallStatsHourly",
    "Campaign",
    "CampaignContact",
    "DoNotCall",
    "EmailMessage",
    "Flow",
    "FlowVersion",
    "FormSubmission",
    "LabResult",
    "LabRun",
    "LabScenario",
    "LedgerEntry",
    "PasswordResetToken",
    "Post",
    "SiteSetting",
    "TopUp",
    "TranscriptEntry",
    "TurnLatency",
    "User",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
]
