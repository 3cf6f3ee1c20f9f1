from bot.command_scope import CONSOLE_ONLY
from bot.sync import SyncRecord, command_definitions, definitions_hash, sync_commands


def fake_discord(harness, monkeypatch):
    """Stands in for Discord's two bulk-overwrite endpoints; records what each received."""
    calls = []
    http = harness.bot.http

    async def global_commands(application_id, payload):
        calls.append((None, payload))
        return payload

    async def guild_commands(application_id, guild_id, payload):
        calls.append((guild_id, payload))
        return payload

    monkeypatch.setattr(http, "bulk_upsert_global_commands", global_commands)
    monkeypatch.setattr(http, "bulk_upsert_guild_commands", guild_commands)
    return calls


async def test_sync_only_when_definitions_change(harness, tmp_path, monkeypatch):
    calls = fake_discord(harness, monkeypatch)
    tree = harness.tree
    record = SyncRecord(tmp_path / "sync.json")
    assert await sync_commands(tree, record, guild_id=None, force=False) is True
    assert await sync_commands(tree, record, guild_id=None, force=False) is False
    assert len(calls) == 1
    # a guild scope is tracked separately and syncs to that guild
    assert await sync_commands(tree, record, guild_id=42, force=False) is True
    assert calls[-1][0] == 42
    # forcing always syncs
    assert await sync_commands(tree, record, guild_id=None, force=True) is True
    assert len(calls) == 3
    # what was sent is what was hashed
    assert calls[0][1] == command_definitions(tree)


async def test_echo_stays_in_the_tree_but_is_never_sent_to_discord(harness, tmp_path, monkeypatch):
    assert harness.tree.get_command("echo") is not None
    assert (await harness.command("echo", text="still here")).content == "still here"
    calls = fake_discord(harness, monkeypatch)
    await sync_commands(harness.tree, SyncRecord(tmp_path / "s.json"), guild_id=None, force=True)
    sent = {d["name"] for d in calls[0][1]}
    assert "echo" in CONSOLE_ONLY and "echo" not in sent
    assert sent == {c.name for c in harness.tree.get_commands()} - CONSOLE_ONLY
    # and /echo changing does not change the hash: it is not part of what Discord sees
    before = definitions_hash(harness.tree)
    harness.tree.get_command("echo").description = "something else"
    assert definitions_hash(harness.tree) == before


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
