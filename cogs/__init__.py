"""The slash commands, one feature per module; bot/client.py loads every module here as an extension."""
