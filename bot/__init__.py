"""The bot process: configuration, the client, the command tree, the harness and the console."""
