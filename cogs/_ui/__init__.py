"""What the cogs share: embeds, pages, buttons, choices and the drawing of each feature's answers."""
