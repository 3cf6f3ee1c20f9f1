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
