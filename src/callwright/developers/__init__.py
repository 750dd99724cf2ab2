"""The developer platform's plumbing: API keys (they authenticate the `/v1` API only) and
outbound webhooks (endpoints, the signing secret, durable signed deliveries)."""
