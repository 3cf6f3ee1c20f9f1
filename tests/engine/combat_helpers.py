"""Helpers shared by the combat engine's tests: dice showing chosen faces, and one volley of a round."""

from __future__ import annotations


class Faces:
    """Dice showing chosen faces in order, with a log (the Dice protocol of engine.combat.dice)."""

    logging = True

    def __init__(self, *faces: int) -> None:
        self.faces, self.lines, self.rolled = list(faces), [], []

    def d6(self) -> int:
        face = self.faces.pop(0)
        self.rolled.append(face)
        return face

    def say(self, text: str) -> None:
        self.lines.append(text)


def first_volley(attacker, defender, edition="lrb"):
    """(volley, start) of the first model's blows at the second, the first striking first."""
    from engine.combat.api import round_rules
    from engine.combat.melee import _SILENT, Segment
    from engine.combat.state import RoundState

    _, rules = round_rules(attacker, defender, edition=edition)
    s = RoundState.start(rules.fight.start_models())._replace(order=(0, 1))
    call = rules._volley_call(_SILENT, s, Segment("blows", who=0))
    return call.volley, call.start
