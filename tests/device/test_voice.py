"""The referee's voice: every kind in every language (catalogues, plural forms, real WAVs from
espeak-ng), the speech worker's queue (a newer message of a kind replaces an unspoken one, a move's
sentence cut short, a failing synthesiser goes silent), ``[voice]`` in the config, the CLI, the doctor."""

from __future__ import annotations

import io
import re
import shutil
import threading
import time
import wave
from pathlib import Path
from typing import Any

import pytest

from device.cli import main
from device.commands.doctor import Doctor, Owner
from device.config import ConfigError, VoiceConfig, load_config_text
from device.i18n import LANGUAGES, LOCALE_DIR, PLURAL_RULES, Translator, load_catalogue
from device.voice import KINDS, Message, Voice, VoiceSettings, sentence, start_voice
from device.voice.kinds import GROUPS, VoiceParamError, roll_text
from device.voice.output import Aplay, PlaybackError, sound_device
from device.voice.synth import Synthesiser, SynthesisError, fix_header, wav_seconds

ESPEAK = shutil.which("espeak-ng")
needs_espeak = pytest.mark.skipif(
    ESPEAK is None, reason="espeak-ng is not installed (apt install espeak-ng; .ci/run installs it)"
)


# --- the sentences ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_has_its_sentence_in_every_language(language: str) -> None:
    tr, english = Translator(language), Translator("en")
    for kind in KINDS.values():
        text = sentence(tr, kind.name, **kind.sample)
        assert text and "{" not in text and "}" not in text, (language, kind.name, text)
        if language != "en":
            assert text != sentence(english, kind.name, **kind.sample), (language, kind.name)


@pytest.mark.parametrize("language", LANGUAGES)
def test_voice_entries_are_in_each_catalogue_with_all_plural_forms(language: str) -> None:
    catalogue = load_catalogue(language)
    header, rule = PLURAL_RULES[language]
    text = (LOCALE_DIR / language / "LC_MESSAGES" / "referee.po").read_text(encoding="utf-8")
    assert f'"Plural-Forms: {header}\\n"' in text
    nplurals = int(re.search(r"nplurals=(\d)", header).group(1))  # type: ignore[union-attr]
    voice = {key: forms for key, forms in catalogue.plurals.items() if key[0] in ("voice", "spoken")}
    assert len(voice) >= 15
    for (_, msgid), (plural, forms) in voice.items():
        assert len(forms) == nplurals, (language, msgid)
        wanted = set(re.findall(r"{\w+}", plural))
        for form in forms:
            assert set(re.findall(r"{\w+}", form)) <= wanted | {"{n}", "{count}"}, (language, msgid, form)
    singles = [k for k in catalogue.messages if k[0] in ("voice", "voice count", "spoken")]
    assert len(singles) >= 25, language
    assert {rule(n) for n in range(200)} == set(range(nplurals))


def test_polish_counts_take_three_forms() -> None:
    pl = Translator("pl")
    said = [sentence(pl, "time_warning", seconds=n) for n in (1, 3, 5, 12, 22, 25)]
    assert said == [
        "Została 1 sekunda.",
        "Zostały 3 sekundy.",
        "Zostało 5 sekund.",
        "Zostało 12 sekund.",
        "Zostały 22 sekundy.",
        "Zostało 25 sekund.",
    ]
    assert roll_text(pl, (5, 5, 6, 6, 6)) == "Trzy szóstki, dwie piątki."
    assert roll_text(pl, (2, 2, 2, 2, 2)) == "Pięć dwójek."
    assert roll_text(pl, (1, 2, 3, 4, 4)) == "Dwie czwórki, jedna trójka, jedna dwójka, jedna jedynka."
    assert sentence(pl, "tiles_laid", name="Ola", tiles=1) == "Ola: jedna płytka wyłożona."


def test_a_refusal_is_said_in_its_spoken_form() -> None:
    en, de = Translator("en"), Translator("de")
    details = {"meld": "B5 B5 R5", "colour": "blue"}
    assert sentence(en, "refusal", rule="rummikub_invalid_meld_group_colour", details=details) == (
        "Not a group: two blue tiles."
    )  # the screen's sentence names the meld as "B5 B5 R5", which does not read aloud
    assert (
        sentence(en, "refusal", rule="wrong_card_count", details={"wanted": 1}) == "This turn lays one card."
    )
    assert sentence(de, "refusal", rule="wrong_card_count", details={"wanted": 2}) == (
        "In diesem Zug werden 2 Karten gelegt."
    )
    assert sentence(en, "refusal", rule="roll_first", details={}) == "Roll the dice before choosing a box."
    assert sentence(en, "refusal", rule="no_such_rule", details={}) == "That move is not allowed."


def test_winners_and_names() -> None:
    en, hu = Translator("en"), Translator("hu")
    assert sentence(en, "game_over", names=["Ala"], points=1) == "Ala wins with 1 point."
    assert sentence(en, "game_over", names=["Ala", "Ola"], points=231) == "Ala and Ola win with 231 points."
    assert sentence(hu, "hand_over", names=["Ala", "Ola", "Ela"], points=40) == (
        "A leosztásnak vége: Ala, Ola és Ela nyerték 40 ponttal."
    )


def test_bad_parameters_are_named() -> None:
    en = Translator("en")
    with pytest.raises(VoiceParamError, match="your_move needs the parameter name"):
        sentence(en, "your_move")
    with pytest.raises(VoiceParamError, match="'shout' is not a message kind"):
        sentence(en, "shout")
    with pytest.raises(VoiceParamError, match="dice must be values 1–6"):
        sentence(en, "roll", dice=(0, 7))


@needs_espeak
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_synthesises_to_sound_in_every_language(language: str, tmp_path: Path) -> None:
    """Through the real synthesiser: a WAV file per kind, each long enough to be its sentence."""
    synth = Synthesiser()
    tr = Translator(language)
    for kind in KINDS.values():
        text = sentence(tr, kind.name, **kind.sample)
        out = tmp_path / f"{kind.name}.wav"
        out.write_bytes(synth.wav(text, language))
        with wave.open(str(out)) as w:
            seconds = w.getnframes() / w.getframerate()
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
        words = len(text.split())
        assert 0.25 * words <= seconds <= 1.5 * words + 1.0, (language, kind.name, text, seconds)
        assert any(out.read_bytes()[44:]), (language, kind.name)  # not silence


@needs_espeak
def test_speed_and_volume_reach_the_synthesiser() -> None:
    synth = Synthesiser()
    slow = wav_seconds(synth.wav("Ola, twój ruch.", "pl", speed=100))
    fast = wav_seconds(synth.wav("Ola, twój ruch.", "pl", speed=300))
    assert slow > 1.8 * fast

    def peak(data: bytes) -> int:
        with wave.open(io.BytesIO(data)) as w:
            frames = w.readframes(w.getnframes())
        return max(
            abs(int.from_bytes(frames[i : i + 2], "little", signed=True)) for i in range(0, len(frames), 2)
        )

    assert peak(synth.wav("Ola", "en", volume=40)) < peak(synth.wav("Ola", "en", volume=160))


def test_a_missing_or_failing_synthesiser_is_named(tmp_path: Path) -> None:
    with pytest.raises(SynthesisError, match="espeak-ng is not installed"):
        _no_program().wav("x", "en")
    broken = tmp_path / "espeak-ng"
    broken.write_text("#!/bin/sh\necho 'no voice data here' >&2\nexit 3\n")
    broken.chmod(0o755)
    with pytest.raises(SynthesisError, match="no voice data here"):
        Synthesiser(str(broken)).wav("x", "pl")
    garbage = tmp_path / "garbage"
    garbage.write_text("#!/bin/sh\necho hello\n")
    garbage.chmod(0o755)
    with pytest.raises(SynthesisError, match="not a WAV"):
        Synthesiser(str(garbage)).wav("x", "pl")
    with pytest.raises(SynthesisError, match="no voice for the language 'fr'"):
        Synthesiser(str(garbage)).wav("x", "fr")


def _no_program() -> Synthesiser:
    synth = Synthesiser()
    synth.program = None
    return synth


def test_fix_header_refuses_what_is_no_wav() -> None:
    with pytest.raises(SynthesisError, match="no data"):
        fix_header(b"RIFF" + bytes(4) + b"WAVE" + b"fmt " + (100).to_bytes(4, "little") + bytes(40))


# --- the worker ------------------------------------------------------------------------------------


class FakeOutput:
    """A player that 'plays' until released or cut; records what it played and how it ended."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.playing = threading.Event()
        self.played: list[tuple[bytes, bool]] = []

    def play(self, wav: bytes, cut: threading.Event, started: threading.Event | None = None) -> bool:
        if started is not None:
            started.set()
        self.playing.set()
        while not self.release.is_set():
            if cut.wait(0.005):
                self.played.append((wav, False))
                self.playing.clear()
                return False
        self.played.append((wav, True))
        self.playing.clear()
        return True


class EchoSynth(Synthesiser):
    """Synthesises the text itself (no espeak-ng needed for the queue's tests)."""

    def __init__(self, fail: bool = False) -> None:
        super().__init__("echo")
        self.fail = fail
        self.calls = 0

    def wav(self, text: str, language: str, *, speed: int = 160, volume: int = 100) -> bytes:
        self.calls += 1
        if self.fail:
            raise SynthesisError("espeak-ng -v pl failed: simulated")
        return text.encode()


def wait_for(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def log_lines(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_newer_message_of_a_kind_replaces_the_unspoken_one(tmp_path: Path) -> None:
    output = FakeOutput()
    voice = Voice(EchoSynth(), output, log_path=tmp_path / "voice.log")
    try:
        voice.say(Message("your_move", "Ala, your move.", "en", move=1))
        wait_for(output.playing.is_set)  # the first is playing: the next ones wait
        voice.say(Message("time_warning", "10 seconds left.", "en", move=1))
        voice.say(Message("refusal", "Roll first.", "en", move=1))
        voice.say(Message("time_warning", "9 seconds left.", "en", move=1))  # replaces the first warning
        output.release.set()
        assert voice.idle()
    finally:
        voice.close()
    assert [p[0].decode() for p in output.played] == ["Ala, your move.", "Roll first.", "9 seconds left."]
    lines = log_lines(tmp_path / "voice.log")
    assert [(lang, kind, text) for _, lang, kind, text in lines] == [
        ("en", "your_move", "Ala, your move."),
        ("en", "refusal", "Roll first."),
        ("en", "time_warning", "9 seconds left."),
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", lines[0][0])


def test_a_move_that_ends_cuts_its_sentence_short(tmp_path: Path) -> None:
    output = FakeOutput()
    voice = Voice(EchoSynth(), output)
    try:
        voice.say(Message("time_warning", "10 seconds left.", "en", move=4))
        wait_for(output.playing.is_set)
        voice.say(Message("refusal", "Not your turn.", "en", move=4))
        voice.say(Message("score", "Ala: Chance, 23 points.", "en"))
        voice.end_move(4)  # the move ended: its warning stops, its refusal is dropped, the score stays
        wait_for(lambda: len(output.played) == 1)
        output.release.set()
        assert voice.idle()
        voice.end_move(5)  # another move's end cuts nothing
    finally:
        voice.close()
    assert [(wav.decode(), done) for wav, done in output.played] == [
        ("10 seconds left.", False),
        ("Ala: Chance, 23 points.", True),
    ]


def test_the_queue_is_short(tmp_path: Path) -> None:
    output = FakeOutput()
    voice = Voice(EchoSynth(), output, limit=2)
    try:
        voice.say(Message("test", "first", "en"))
        wait_for(output.playing.is_set)
        for kind in ("a", "b", "c", "d"):
            voice.say(Message(kind, kind, "en"))
        output.release.set()
        assert voice.idle()
    finally:
        voice.close()
    assert [p[0].decode() for p in output.played] == ["first", "c", "d"] and voice.dropped == 2


def test_say_never_waits_for_the_sentence(tmp_path: Path) -> None:
    output = FakeOutput()
    voice = Voice(EchoSynth(), output)
    try:
        voice.say(Message("test", "long", "en"))
        wait_for(output.playing.is_set)
        for i in range(100):  # the player is held: were say() to wait for it, this would never end
            voice.say(Message("test", str(i), "en"))
        assert voice.speaking is not None and voice.speaking.text == "long"
        output.release.set()
        assert voice.idle()
        voice.silence()
    finally:
        voice.close()


def test_a_failing_synthesiser_goes_silent_and_logs_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    synth = EchoSynth(fail=True)
    output = FakeOutput()
    voice = Voice(synth, output, log_path=tmp_path / "voice.log")
    try:
        for i in range(6):
            voice.say(Message(f"kind{i}", f"sentence {i}", "pl"))
            assert voice.idle()
    finally:
        voice.close()
    assert synth.calls == 3  # given up after three failures in a row
    assert output.played == []
    assert len(log_lines(tmp_path / "voice.log")) == 6  # the sentences are still produced
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors.count("voice: espeak-ng -v pl failed: simulated") == 1
    assert voice.problem == "espeak-ng -v pl failed: simulated"


def test_a_failing_player_is_logged_and_the_worker_goes_on(tmp_path: Path) -> None:
    class Broken:
        def play(self, wav: bytes, cut: threading.Event, started: threading.Event | None = None) -> bool:
            raise PlaybackError("aplay failed: Device or resource busy")

    voice = Voice(EchoSynth(), Broken())
    try:
        for i in range(5):
            voice.say(Message(f"k{i}", "x", "en"))
            assert voice.idle()
    finally:
        voice.close()
    assert voice.spoken == 5 and voice.problem == "aplay failed: Device or resource busy"


def test_an_unwritable_voice_log_is_named_not_raised(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    voice = Voice(None, None, log_path=tmp_path / "dir")
    voice.close()
    assert voice.problem is not None and "cannot be written" in voice.problem


def test_aplay_is_cut_short_by_ending_its_process(tmp_path: Path) -> None:
    slow = tmp_path / "aplay"
    slow.write_text("#!/bin/sh\ncat >/dev/null\nsleep 30\n")
    slow.chmod(0o755)
    cut = threading.Event()
    threading.Timer(0.2, cut.set).start()
    assert Aplay(str(slow)).play(b"RIFF" + bytes(100_000), cut) is False  # ended, not played to its end
    failing = tmp_path / "failing"
    failing.write_text(
        "#!/bin/sh\ncat >/dev/null\necho 'aplay: main: audio open error: No such device' >&2\nexit 1\n"
    )
    failing.chmod(0o755)
    with pytest.raises(PlaybackError, match="No such device"):
        Aplay(str(failing)).play(b"RIFF" + bytes(100), threading.Event())
    assert Aplay(str(failing), "hw:1,0").command()[1:] == ["-q", "-D", "hw:1,0", "-"]


@pytest.mark.skipif(shutil.which("aplay") is None or ESPEAK is None, reason="needs aplay and espeak-ng")
def test_aplay_plays_a_sentence_on_the_null_device() -> None:
    wav = Synthesiser().wav("Ola, your move.", "en")
    started = threading.Event()
    assert Aplay(shutil.which("aplay") or "aplay", "null").play(wav, threading.Event(), started)
    assert started.is_set()


def test_no_sound_device_is_said() -> None:
    assert sound_device({"SDL_AUDIODRIVER": "dummy"}) == "SDL_AUDIODRIVER=dummy: no sound output"
    assert (
        sound_device({}, pattern="/nonexistent/pcm*")
        == "no sound device (no ALSA playback device in /dev/snd)"
    )
    setup = start_voice(VoiceConfig(), mute=True)
    setup.voice.close()
    assert not setup.heard and setup.synthesiser == "muted (--mute)"


# --- config and the owner's settings ---------------------------------------------------------------


def test_voice_config_keys_and_ranges() -> None:
    config = load_config_text('[voice]\nvolume = 150\nspeed = 120\nmessages = ["turn", "rolls"]\n')
    assert (
        config.voice.volume == 150
        and config.voice.speed == 120
        and config.voice.messages == ("turn", "rolls")
    )
    assert VoiceConfig().enabled and "rolls" not in VoiceConfig().messages
    for text, message in (
        ("volume = 300", "voice.volume: 300 is out of range 0–200"),
        ("speed = 20", "voice.speed: 20 is out of range 80–400"),
        ('messages = ["turn", "gossip"]', "voice.messages[1]: 'gossip' is not allowed"),
        ('messages = ["turn", "turn"]', "voice.messages: 'turn' is listed twice"),
        ('enabled = "yes"', "voice.enabled"),
        ("loud = true", "voice.loud: unknown key"),
    ):
        with pytest.raises(ConfigError, match=re.escape(message)):
            load_config_text(f"[voice]\n{text}\n")


def test_the_owner_settings_over_the_config() -> None:
    base = VoiceConfig(volume=80)
    s = VoiceSettings.of(
        base, {"enabled": False, "volume": 500, "speed": 200, "messages": ["rolls", "bogus"]}
    )
    assert (s.enabled, s.volume, s.speed, s.messages) == (False, 80, 200, base.messages)
    on = VoiceSettings.of(base)
    assert on.says("turn") and not on.says("rolls") and on.says("test")
    assert on.toggled("rolls").says("rolls") and not on.toggled("turn").says("turn")
    assert on.stepped("volume", 10).volume == 200 and on.stepped("speed", -100).speed == 80
    assert VoiceSettings.of(base, on.toggled("rolls").stored()) == on.toggled("rolls")
    assert set(GROUPS) >= set(on.messages)


# --- the command line and the doctor --------------------------------------------------------------


def test_voice_list_prints_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voice", "list", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    for kind in KINDS:
        assert re.search(rf"^{kind}\s", out, re.M), kind
    assert "Ola, du bist dran." in out


@needs_espeak
def test_voice_say_writes_a_wav(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "move.wav"
    assert main(["voice", "say", "your_move", "--lang", "pl", "--name", "Ela", "--out", str(out)]) == 0
    assert capsys.readouterr().out == "Ela, twój ruch.\n"
    assert 0.5 < wav_seconds(out.read_bytes()) < 4
    assert main(["voice", "say", "roll", "--lang", "en", "--param", "dice=1,1,6,6,6", "--out", str(out)]) == 0
    assert capsys.readouterr().out == "Three sixes, two ones.\n"


def test_voice_say_names_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["voice", "say", "shout"]) == 2
    assert "'shout' is not a message kind" in capsys.readouterr().err
    assert main(["voice", "say", "score", "--param", "points=many"]) == 2
    assert "--param points: 'many' is not a whole number" in capsys.readouterr().err
    assert main(["voice", "say", "score", "--param", "nonsense"]) == 2
    assert "is not KEY=VALUE" in capsys.readouterr().err


def _doctor(tmp_path: Path, voice: str, **kw: Any) -> tuple[list[Any], list[str], list[str]]:
    path = tmp_path / "config.toml"
    path.write_text(f'[device]\nlanguage = "hu"\nstate_dir = "{tmp_path}"\n[voice]\n{voice}\n')
    said: list[str] = []
    asked: list[str] = []

    def ask(question: str) -> bool:
        asked.append(question)
        return True

    doctor = Doctor(str(path), Owner(said.append, ask), **kw)
    from device.config import load_config

    return doctor.voice(load_config(path)), said, asked


def test_doctor_voice_off_and_no_sound_device(tmp_path: Path) -> None:
    checks, _, _ = _doctor(tmp_path, "enabled = false")
    assert [(c.name, c.ok) for c in checks] == [("voice", True)]
    checks, _, _ = _doctor(
        tmp_path, "", synthesiser="/nonexistent/espeak-ng", output=(None, "no sound device")
    )
    assert [(c.name, c.ok) for c in checks] == [("synthesiser", False), ("sound", False)]
    assert "failed" in checks[0].detail and "the referee stays silent" in checks[1].detail


@needs_espeak
def test_doctor_plays_the_test_sentence_in_the_chosen_language(tmp_path: Path) -> None:
    output = FakeOutput()
    output.release.set()
    checks, said, asked = _doctor(tmp_path, "", output=(output, "aplay on the default ALSA device"))
    assert [(c.name, c.ok) for c in checks] == [("synthesiser", True), ("sound", True)]
    assert "Ez a játékvezető hangja." in checks[0].detail and "(hu)" in checks[0].detail
    assert said == ["Playing the test sentence (hu): Ez a játékvezető hangja."]
    assert asked == ["Did you hear the referee say the test sentence?"]
    assert len(output.played) == 1 and output.played[0][1]


# --- the narrator in the app -----------------------------------------------------------------------


def test_the_end_of_a_move_cuts_its_sentence_in_the_app(make_app, tmp_path: Path) -> None:
    from device.voice import attach
    from tests.device.helpers import pick_box, press, roll, start_dice

    app = make_app()
    output = FakeOutput()
    voice = Voice(EchoSynth(), output, log_path=tmp_path / "voice.log")
    try:
        attach(app, voice)
        session = start_dice(app)
        wait_for(output.playing.is_set)  # "Player 1, your move." is being said
        roll(app, [6, 6, 6, 2, 1])
        pick_box(session, "chance")
        press(app, 0)  # the move ends: its sentence stops at once
        wait_for(lambda: len(output.played) >= 1)
        output.release.set()
        assert voice.idle()
    finally:
        voice.close()
    assert output.played[0] == (b"Player 1, your move.", False)
    assert [text for _, _, _, text in log_lines(tmp_path / "voice.log")] == [
        "Player 1, your move.",
        "Player 1: Chance, 21 points.",
        "Player 2, your move.",
    ]


def test_the_owner_switches_the_voice_and_its_groups(make_app, tmp_path: Path) -> None:
    from device.voice import attach
    from tests.device.helpers import pick_box, press, roll, start_dice

    app = make_app()
    voice = Voice(None, None, log_path=tmp_path / "voice.log")
    try:
        attach(app, voice)
        app.settings.set("voice", {"messages": ["scores", "rolls"]})
        session = start_dice(app)
        roll(app, [5, 5, 6, 6, 6])
        pick_box(session, "full_house")
        press(app, 0)
        assert voice.idle()
        app.settings.set("voice", {"enabled": False})
        roll(app, [1, 2, 3, 4, 5])
        assert voice.idle()
    finally:
        voice.close()
    assert [(k, t) for _, _, k, t in log_lines(tmp_path / "voice.log")] == [
        ("roll", "Three sixes, two fives."),
        ("score", "Player 1: Full house, 25 points."),
    ]


def test_a_failing_narrator_never_stops_the_game(make_app, tmp_path: Path, caplog) -> None:
    from device.voice import attach
    from tests.device.helpers import roll, start_dice

    app = make_app()
    narrator = attach(app, None)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no words")

    narrator._say = broken  # type: ignore[method-assign]
    session = start_dice(app)
    for _ in range(3):
        roll(app, [1, 2, 3, 4, 5])
    assert app.failure is None and session.rolls_used == 3
    assert sum("the narrator failed" in r.getMessage() for r in caplog.records) == 1


def test_a_resumed_game_says_whose_move_it_is(make_app, tmp_path: Path) -> None:
    from device.voice import attach
    from tests.device.helpers import pick_box, press, roll, start_dice

    app = make_app()
    session = start_dice(app)
    roll(app, [1, 2, 3, 4, 5])
    pick_box(session, "chance")
    press(app, 0)
    voice = Voice(None, None, log_path=tmp_path / "voice.log")
    try:
        attach(app, voice)
        app.resume_unfinished()
        app.step()
        assert voice.idle()
    finally:
        voice.close()
    assert [t for _, _, _, t in log_lines(tmp_path / "voice.log")] == ["Player 2, your move."]


# --- the owner's screen ----------------------------------------------------------------------------


def test_the_voice_settings_screen(make_app, tmp_path: Path) -> None:
    from device.voice import attach
    from tests.device.helpers import check_layout, tap

    app = make_app()
    voice = Voice(None, None, log_path=tmp_path / "voice.log")
    try:
        attach(app, voice)
        app.show("settings")
        for digit in "0000":
            tap(app, digit)
        tap(app, "OK")
        tap(app, "Voice…")
        assert app.screen.name == "voice_settings"
        check_layout(app)
        tap(app, "Test sentence")
        assert voice.idle()
        tap(app, "Rolls read")
        tap(app, "+", nth=0)  # the volume's
        tap(app, "Off")
        stored = app.journal.setting("voice")
        assert stored["enabled"] is False and stored["volume"] == 120 and "rolls" in stored["messages"]
        assert "No synthesiser (espeak-ng): the referee is silent." in labels_and_texts(app)
        tap(app, "Back")
        assert app.screen.name == "settings" and "Voice…" in [t.label for t in app.canvas.targets]
    finally:
        voice.close()
    assert [t for _, _, _, t in log_lines(tmp_path / "voice.log")] == ["This is the referee's voice."]


def labels_and_texts(app: Any) -> list[str]:
    app.step()
    return [d.text for d in app.canvas.log]


@pytest.mark.parametrize("language", ["pl", "hu", "de"])
def test_the_voice_screen_words_are_translated(language: str) -> None:
    from device.screens.voice_settings import GROUP_WORDS, SILENT_WORDS

    catalogue = load_catalogue(language)
    for text in [*GROUP_WORDS.values(), *SILENT_WORDS.values(), "The referee's voice is heard here."]:
        assert catalogue.lookup("", text) is not None, (language, text)


@pytest.mark.parametrize("mute", [False, True])
def test_the_simulator_writes_its_voice_log(tmp_path: Path, mute: bool) -> None:
    """``referee --simulate --voice-log FILE`` (and ``--mute``): the sentences of a game played by the
    simulated players, one line each, the headless run silent."""
    import os
    import subprocess
    import sys

    log = tmp_path / "voice.log"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "device.cli", "--simulate", "--headless", "--no-camera"]
    command += ["--state-dir", str(tmp_path / "state"), "--autoplay", "yahtzee", "--frames", "200"]
    command += ["--voice-log", str(log), *(["--mute"] if mute else [])]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = log_lines(log)
    assert lines and all(len(line) == 4 and line[1] == "en" for line in lines)
    kinds = {kind for _, _, kind, _ in lines}
    assert {"your_move", "score"} <= kinds, kinds
    assert ("muted (--mute)" if mute else "SDL_AUDIODRIVER=dummy: no sound output") in result.stderr


@pytest.mark.parametrize(("game", "kinds"), [("zatre", {"your_move", "points"}), ("kalooki", {"your_move"})])
def test_the_card_games_are_narrated_too(make_app, clock, tmp_path: Path, game: str, kinds: set[str]) -> None:
    """Zatre and Kalooki played by the simulated players: whose move, the points of a turn (Zatre), a
    hand's penalty points (Kalooki, when entered as points), never a narrator error."""
    from device.simulator import Simulator
    from device.voice import attach

    app = make_app()
    voice = Voice(None, None, log_path=tmp_path / "voice.log")
    try:
        attach(app, voice)
        sim = Simulator(app, seed=3, autoplay=game)
        for _ in range(1500):
            sim.poll()
            app.step()
            clock.advance(0.1)
            assert voice.idle()
            assert app.failure is None, app.failure
    finally:
        voice.close()
    said = [(kind, text) for _, _, kind, text in log_lines(tmp_path / "voice.log")]
    assert kinds <= {kind for kind, _ in said}, said[:20]
    for kind, text in said:
        if kind == "points":
            assert re.fullmatch(r"(Ala|Ola) scores \d+ points?\.", text), text
        if kind == "penalty":
            assert re.fullmatch(r"(Ala|Ola): \d+ penalty points?\.", text), text
