"""The `/v1` API in Bland's dialect: thin endpoints over calls/, agents/ and developers/."""
