"""The kashgar command, end to end through its real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kashgar.cli import main
from kashgar.records import load_record, replay

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_console_script_is_installed() -> None:
    out = subprocess.run([sys.executable, "-m", "kashgar.cli", "cards", "--json"], capture_output=True, text=True, check=True)
    data = json.loads(out.stdout)
    assert len(data["persons"]) == 48 and len(data["contracts"]) == 39


def test_cards_table_and_json_in_both_languages(capsys) -> None:
    code, out, _ = run(capsys, "cards")
    assert code == 0 and "Patriarch" in out and "Spice Merchant" in out
    code, out, _ = run(capsys, "cards", "--lang", "de", "--json")
    data = json.loads(out)
    names = {p["id"]: p["name"] for p in data["persons"]}
    assert names["spice-merchant"] == "Gewürzhändler"
    code, out, _ = run(capsys, "cards", "--contracts")
    assert code == 0 and "large-1" in out


def test_scenario_applies_actions_and_prints_state(capsys) -> None:
    code, out, _ = run(capsys, "scenario", str(EXAMPLES / "grocer.json"), "--do", "1P; fulfil large-1")
    assert code == 0
    state = json.loads(out)
    assert state["format"] == "kashgar-state"
    assert state["points"][0] == 4 + 1  # the Large contract, plus the Prophet (1 VP) still in caravan 3
    assert state["res"][4] == 0 and state["res"][6] == 2  # cinnamon 6 -> 0, mules 3 -> 2


def test_scenario_view_shows_only_what_the_player_sees(capsys) -> None:
    code, out, _ = run(capsys, "scenario", str(EXAMPLES / "patriarch.json"), "--do", "1A", "--view", "2")
    assert code == 0
    view = json.loads(out)
    assert view["player"] == 1
    assert "drawn" not in view["pending"] and view["pending"]["drawn_count"] == 2
    _code, out, _ = run(capsys, "scenario", str(EXAMPLES / "patriarch.json"), "--do", "1A", "--view", "1")
    assert json.loads(out)["pending"]["drawn"] == ["planter", "baker"]


def test_scenario_record_replays(tmp_path: Path, capsys) -> None:
    rec = tmp_path / "rec.json"
    code, _, _ = run(capsys, "scenario", str(EXAMPLES / "patriarch.json"), "--do", "1A; keep planter", "--record", str(rec))
    assert code == 0
    game = replay(load_record(rec))
    assert game.step == 2
    code, out, _ = run(capsys, "replay", str(rec))
    assert code == 0 and "matches the record" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["scenario", "examples/patriarch.json", "--do", "1A; 2Q"], "action 2 ('2Q')"),
        (["scenario", "examples/patriarch.json", "--do", "1P"], "not legal"),
        (["scenario", "no/such/file.json"], "cannot read scenario"),
        (["replay", "examples/patriarch.json"], "not a game record"),
        (["simulate", "--players", "5", "--games", "1"], "players must be 2, 3 or 4"),
        (["simulate", "--expansion", "dragon", "--games", "1"], "'dragon' is not a Cut and Thrust card"),
        (["simulate", "--house", "nope", "--games", "1"], "unknown house rule 'nope'"),
        (["cards", "--cards", "no/such/cards.toml"], "cannot read card file"),
    ],
)
def test_bad_input_gives_a_clear_error(argv: list[str], message: str, capsys, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert message in err
    assert out == ""


def test_bad_scenario_file(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"players": [{"caravans": [["aristocrat"], ["aristocrat"]]}, {"caravans": [[]]}]}')
    code, _, err = run(capsys, "scenario", str(bad))
    assert code == 2 and "players[0].caravans[1][0]: no copy of 'aristocrat' left" in err
    bad.write_text("{not json")
    code, _, err = run(capsys, "scenario", str(bad))
    assert code == 2 and "not valid JSON" in err


def test_tampered_record_is_refused(tmp_path: Path, capsys) -> None:
    rec = tmp_path / "rec.json"
    run(capsys, "scenario", str(EXAMPLES / "patriarch.json"), "--do", "1A; keep planter", "--record", str(rec))
    data = json.loads(rec.read_text())
    data["actions"][1] = "keep baker-of-doom"
    rec.write_text(json.dumps(data))
    code, _, err = run(capsys, "replay", str(rec))
    assert code == 2 and "action 2 ('keep baker-of-doom')" in err


def test_simulate_json_and_records(tmp_path: Path, capsys) -> None:
    code, out, _ = run(capsys, "simulate", "--players", "3", "--games", "5", "--seed", "4", "--expansion", "--json",
                       "--records", str(tmp_path))
    assert code == 0
    result = json.loads(out)
    assert result["games"] == 5 and sum(result["wins_by_seat"]) == 5
    assert result["turns"]["mean"] > 0 and result["points_winner"]["min"] >= 0
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 5
    for f in files:
        assert replay(load_record(f)).over


def test_simulate_table(capsys) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "3", "--seed", "1")
    assert code == 0 and "winners by seat" in out and "games/s" in out


def test_bench_json(capsys) -> None:
    code, out, _ = run(capsys, "bench", "--seconds", "0.2", "--json")
    result = json.loads(out)
    assert code == 0
    assert result["2p"]["steps_per_second"] > 0 and result["4p"]["games"] > 0 and result["copy_us"] > 0
