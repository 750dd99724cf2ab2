"""Administrator API. Every route here requires the admin role."""
