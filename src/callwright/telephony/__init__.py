"""The carrier seam: the Carrier interface, the carriers, status webhooks and the call state machine."""
