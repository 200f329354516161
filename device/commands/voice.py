"""``referee voice``: hear the referee's sentences, for the owner and for the tests.

::

    referee voice list                                   # every message kind, its group and an example
    referee voice say your_move --lang pl --name Ola     # speaks it (espeak-ng → aplay)
    referee voice say game_over --lang hu --out end.wav  # writes the WAV instead
    referee voice say score --param box=chance --param points=23

A kind's other parameters are its example's (``referee voice list`` shows them) unless ``--param``
sets them; ``--name`` sets the player's name (or the winners' names).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from device.config import Config, ConfigError, load_config
from device.i18n import LANGUAGES, Translator
from device.voice.kinds import KINDS, VoiceParamError, sentence
from device.voice.output import PlaybackError, open_output
from device.voice.synth import Synthesiser, SynthesisError, wav_seconds

if TYPE_CHECKING:
    from device.commands import Subcommands


def register(sub: Subcommands) -> None:
    p = sub.add_parser("voice", help="the referee's voice: list the message kinds, say one")
    p.add_argument(
        "--config", default=argparse.SUPPRESS, help="config file (default: /etc/tabletop-referee/config.toml)"
    )
    kinds = p.add_subparsers(dest="voice_command", metavar="list|say", required=True)
    listing = kinds.add_parser("list", help="every message kind, its group and an example sentence")
    listing.add_argument("--lang", choices=LANGUAGES, default=None, help="the examples' language")
    listing.set_defaults(func=run_list)
    say = kinds.add_parser("say", help="speak one message kind (or write it as a WAV)")
    say.add_argument("kind", help="a message kind (referee voice list)")
    say.add_argument("--lang", choices=LANGUAGES, default=None, help="language (default: the config's)")
    say.add_argument("--name", default=None, help="the player's name (or the winner's)")
    say.add_argument(
        "--param", action="append", default=[], metavar="KEY=VALUE", help="a parameter of the kind"
    )
    say.add_argument("--out", default=None, metavar="FILE.wav", help="write the sentence as a WAV file")
    say.set_defaults(func=run_say)


def _config(args: argparse.Namespace) -> Config:
    return load_config(getattr(args, "config", None))


def run_list(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
    except ConfigError as exc:
        print(f"referee voice: config error: {exc}", file=sys.stderr)
        return 2
    tr = Translator(args.lang or config.device.language)
    width = max(len(k) for k in KINDS)
    for kind in KINDS.values():
        example = sentence(tr, kind.name, **kind.sample)
        params = " ".join(f"{k}={_shown(v)}" for k, v in kind.sample.items())
        print(f"{kind.name:<{width}}  {kind.group:<8}  {example}" + (f"   [{params}]" if params else ""))
    return 0


def _shown(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value))
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def parameters(kind: str, name: str | None, pairs: list[str]) -> dict[str, object]:
    """The kind's example parameters with ``--name`` and ``--param KEY=VALUE`` over them.

    >>> parameters("game_over", "Ela", ["points=12"])
    {'names': ('Ela',), 'points': 12}
    >>> parameters("roll", None, ["dice=1,1,2,3,3"])
    {'dice': (1, 1, 2, 3, 3)}
    """
    if kind not in KINDS:
        raise VoiceParamError(f"{kind!r} is not a message kind; kinds: {', '.join(KINDS)}")
    params = dict(KINDS[kind].sample)
    if name is not None:
        if "names" in params:
            params["names"] = (name,)
        else:
            params["name"] = name
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise VoiceParamError(f"--param {pair!r} is not KEY=VALUE")
        params[key] = _value(key, value, params.get(key))
    return params


def _value(key: str, text: str, example: object) -> object:
    if isinstance(example, dict):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise VoiceParamError(f"--param {key}: {text!r} is not JSON") from None
    if isinstance(example, list | tuple):
        items = [t.strip() for t in text.split(",") if t.strip()]
        return tuple(int(t) if t.isdigit() else t for t in items)
    if isinstance(example, int):
        try:
            return int(text)
        except ValueError:
            raise VoiceParamError(f"--param {key}: {text!r} is not a whole number") from None
    return text


def run_say(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
    except ConfigError as exc:
        print(f"referee voice: config error: {exc}", file=sys.stderr)
        return 2
    language = args.lang or config.device.language
    try:
        params = parameters(args.kind, args.name, args.param)
        text = sentence(Translator(language), args.kind, **params)
    except VoiceParamError as exc:
        print(f"referee voice: {exc}", file=sys.stderr)
        return 2
    print(text)
    try:
        wav = Synthesiser().wav(text, language, speed=config.voice.speed, volume=config.voice.volume)
    except SynthesisError as exc:
        print(f"referee voice: {exc}", file=sys.stderr)
        return 1
    if args.out:
        out = Path(args.out)
        try:
            out.write_bytes(wav)
        except OSError as exc:
            print(f"referee voice: cannot write {out}: {exc}", file=sys.stderr)
            return 1
        print(f"{out}: {wav_seconds(wav):.2f} s", file=sys.stderr)
        return 0
    output, line = open_output(config.voice.device)
    if output is None:
        print(f"referee voice: not heard: {line} (--out FILE.wav writes it)", file=sys.stderr)
        return 1
    try:
        output.play(wav, threading.Event())
    except PlaybackError as exc:
        print(f"referee voice: {exc}", file=sys.stderr)
        return 1
    return 0
