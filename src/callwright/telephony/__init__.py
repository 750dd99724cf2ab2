"""The carrier seam: the Carrier interface, the registry, status webhooks and the call state machine."""
