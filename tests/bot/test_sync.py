from bot.sync import SyncRecord, definitions_hash, sync_commands


async def test_sync_only_when_definitions_change(harness, tmp_path, monkeypatch):
    tree = harness.tree
    calls = []

    async def fake_sync(*, guild=None):  # stands in for Discord's bulk-overwrite endpoint
        calls.append(guild)
        return []

    monkeypatch.setattr(tree, "sync", fake_sync)
    record = SyncRecord(tmp_path / "sync.json")
    assert await sync_commands(tree, record, guild_id=None, force=False) is True
    assert await sync_commands(tree, record, guild_id=None, force=False) is False
    assert len(calls) == 1
    # a guild scope is tracked separately and syncs to that guild
    assert await sync_commands(tree, record, guild_id=42, force=False) is True
    assert calls[-1].id == 42
    # forcing always syncs
    assert await sync_commands(tree, record, guild_id=None, force=True) is True
    assert len(calls) == 3


async def test_hash_changes_when_a_command_changes(harness):
    from discord import app_commands

    before = definitions_hash(harness.tree)

    @app_commands.command(name="zzz", description="temporary")
    async def zzz(interaction):  # pragma: no cover - never invoked
        pass

    harness.tree.add_command(zzz)
    assert definitions_hash(harness.tree) != before
    harness.tree.remove_command("zzz")
    assert definitions_hash(harness.tree) == before
