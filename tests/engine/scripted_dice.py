"""A random.Random whose dice show chosen faces, for dice-engine tests."""

import random


class Scripted(random.Random):
    """A generator whose dice show the given faces, in order.

    The engine reads one byte per die of up to 256 sides and maps byte b to face b % size + 1,
    so face f is scripted as byte f - 1. A D66 takes two faces: tens, then units.
    """

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randbytes(self, n: int) -> bytes:
        assert len(self.faces) >= n, "the test scripted too few dice"
        taken, self.faces = self.faces[:n], self.faces[n:]
        return bytes(f - 1 for f in taken)
