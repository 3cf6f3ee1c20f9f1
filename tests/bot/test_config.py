import pytest

from bot.config import SETTINGS, ConfigError, load_config


def test_token_never_shown_in_repr_or_str():
    cfg = load_config({"DISCORD_TOKEN": "abc.def.SECRET"}, dotenv_path=None)
    assert cfg.has_token
    assert "SECRET" not in repr(cfg)
    assert "SECRET" not in str(cfg)
    assert "SECRET" not in repr(cfg.token)
    assert cfg.token == "abc.def.SECRET"


def test_defaults_need_no_token():
    cfg = load_config({}, dotenv_path=None)
    assert not cfg.has_token
    assert str(cfg.db_path) == "data/mordheim.db"
    assert cfg.guild_id is None and cfg.sync_on_start == "auto"


@pytest.mark.parametrize("key,value", [("DISCORD_GUILD_ID", "abc"), ("MORDHEIM_SYNC_ON_START", "sometimes"), ("LOG_LEVEL", "LOUD")])
def test_bad_values_name_the_key(key, value):
    with pytest.raises(ConfigError, match=key):
        load_config({key: value}, dotenv_path=None)


def test_dotenv_file_is_read(tmp_path, monkeypatch):
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_GUILD_ID=42\n")
    monkeypatch.delenv("DISCORD_GUILD_ID", raising=False)
    cfg = load_config(dotenv_path=env_file)
    assert cfg.guild_id == 42
    monkeypatch.delenv("DISCORD_GUILD_ID", raising=False)


def test_readme_and_env_example_list_every_setting():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    example = (root / ".env.example").read_text()
    for key in SETTINGS:
        assert f"`{key}`" in readme, key
        assert f"{key}=" in example, key


@pytest.mark.parametrize("count,ids,expected", [
    ("", "", (None, None)),
    ("4", "", (4, None)),
    ("4", "0-1", (4, (0, 1))),
    ("4", "3, 1", (4, (1, 3))),
    ("16", "0-3,8", (16, (0, 1, 2, 3, 8))),
])
def test_shards_from_configuration(count, ids, expected):
    cfg = load_config({"MORDHEIM_SHARD_COUNT": count, "MORDHEIM_SHARD_IDS": ids}, dotenv_path=None)
    assert (cfg.shard_count, cfg.shard_ids) == expected
    assert cfg.syncs_commands == (expected[1] is None or 0 in expected[1])


@pytest.mark.parametrize("env,key", [
    ({"MORDHEIM_SHARD_IDS": "0"}, "MORDHEIM_SHARD_COUNT"),  # ids without a count
    ({"MORDHEIM_SHARD_COUNT": "0"}, "MORDHEIM_SHARD_COUNT"),
    ({"MORDHEIM_SHARD_COUNT": "two"}, "MORDHEIM_SHARD_COUNT"),
    ({"MORDHEIM_SHARD_COUNT": "2", "MORDHEIM_SHARD_IDS": "2"}, "MORDHEIM_SHARD_IDS"),
    ({"MORDHEIM_SHARD_COUNT": "2", "MORDHEIM_SHARD_IDS": "a-b"}, "MORDHEIM_SHARD_IDS"),
    ({"MORDHEIM_STOP_TIMEOUT": "-1"}, "MORDHEIM_STOP_TIMEOUT"),
    ({"MORDHEIM_STOP_TIMEOUT": "soon"}, "MORDHEIM_STOP_TIMEOUT"),
    ({"MORDHEIM_ANSWERING_AT_ONCE": "0"}, "MORDHEIM_ANSWERING_AT_ONCE"),
    ({"MORDHEIM_ANSWERING_AT_ONCE": "many"}, "MORDHEIM_ANSWERING_AT_ONCE"),
    ({"DISCORD_API_URL": "discord.com"}, "DISCORD_API_URL"),
    ({"DISCORD_GATEWAY_URL": "https://gateway.discord.gg"}, "DISCORD_GATEWAY_URL"),
])
def test_bad_process_settings_name_the_key(env, key):
    with pytest.raises(ConfigError, match=key):
        load_config(env, dotenv_path=None)


def test_the_bot_is_sharded_as_configured(tmp_path):
    from bot.client import MordheimBot

    cfg = load_config({"MORDHEIM_DB": str(tmp_path / "m.db"), "MORDHEIM_SHARD_COUNT": "4", "MORDHEIM_SHARD_IDS": "2-3"}, dotenv_path=None)
    bot = MordheimBot(cfg)
    assert bot.shard_count == 4 and bot.shard_ids == [2, 3]
    auto = MordheimBot(load_config({"MORDHEIM_DB": str(tmp_path / "m.db")}, dotenv_path=None))
    assert auto.shard_count is None and auto.shard_ids is None  # Discord's recommendation at connect time
