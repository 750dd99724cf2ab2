/** The developers page's copyable examples (kept apart from the components). */
export function curlSnippet(origin: string): string {
  return `curl -X POST ${origin}/v1/calls \\
  -H "authorization: YOUR_API_KEY" \\
  -H "content-type: application/json" \\
  -d '{
    "phone_number": "+15551234567",
    "task": "You are Sam from Acme Dental, confirming tomorrow\\u0027s appointment.",
    "voice": "joe",
    "max_duration": 2,
    "webhook": "https://example.com/webhooks/callwright"
  }'`
}

export const VERIFY_SNIPPET = `# pip install standardwebhooks
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

webhook = Webhook("whsec_...")  # the endpoint's secret, or your signing secret

def handle(raw_body: bytes, headers: dict[str, str]) -> int:
    try:
        event = webhook.verify(raw_body, headers)  # signature and timestamp
    except WebhookVerificationError:
        return 400
    # event["type"]: call.queued | call.started | call.action | call.ended | call.analyzed | campaign.started | campaign.paused | campaign.completed
    # headers["webhook-id"] is the same on every retry: drop repeats.
    print(event["type"], event["data"])
    return 200`
