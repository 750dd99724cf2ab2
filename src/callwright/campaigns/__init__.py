"""Campaigns: contact lists imported from CSV, schedules, the dialler and per-contact results."""
