"""The rules of a TriPeaks game as a small immutable config; the standard game is the default.

A rule set has a name (SPEC.md, "Rule variants"): `standard`, or the flags that differ from it
joined by "+" in the order of FLAGS (`open+nowrap`, `headstart+wild`).
"""

import itertools
from dataclasses import dataclass

NUM_RANKS = 13

STANDARD_NAME = "standard"
FLAGS = ("open", "nowrap", "headstart", "wild")
"""Each flag's name, in the order a rule set's name lists them."""


class RulesError(ValueError):
    """A rule set's name that is not valid; the message names the problem."""


@dataclass(frozen=True)
class Rules:
    open_peaks: bool = False
    """`open`: every peak card is dealt face up (it still has to be uncovered to be taken)."""
    wrap: bool = True
    """K and A connect (K-A-2 loop); `nowrap` turns it off."""
    first_waste: bool = True
    """The deal turns a first waste card; `headstart` turns it off: the waste starts empty, any
    uncovered face-up card may open it, and the stock holds 24 cards."""
    wild: bool = False
    """`wild`: the player holds one wild card for the deal, which any card fits onto."""

    def fits(self, rank_a: int, rank_b: int) -> bool:
        """Whether two ranks are one apart (with K-A when wrap is on)."""
        gap = abs(rank_a - rank_b)
        return gap == 1 or (self.wrap and gap == NUM_RANKS - 1)

    @property
    def flags(self) -> tuple[str, ...]:
        """The flags of this rule set, in name order."""
        differs = (self.open_peaks, not self.wrap, not self.first_waste, self.wild)
        return tuple(flag for flag, on in zip(FLAGS, differs, strict=True) if on)

    @property
    def name(self) -> str:
        return "+".join(self.flags) or STANDARD_NAME

    @classmethod
    def with_flags(cls, flags) -> "Rules":
        chosen = set(flags)
        return cls(
            open_peaks="open" in chosen,
            wrap="nowrap" not in chosen,
            first_waste="headstart" not in chosen,
            wild="wild" in chosen,
        )

    @classmethod
    def from_name(cls, name: str) -> "Rules":
        """The rule set called `name`; RulesError names what is wrong with any other name."""
        if name == STANDARD_NAME:
            return cls()
        if not name:
            raise RulesError(f"no rule set named: give {STANDARD_NAME!r} or flags joined by '+'")
        if len(name) > len("+".join(FLAGS)):  # not repeated back in full, however long
            raise RulesError(f"no rule set has a name that long: the flags are {', '.join(FLAGS)}")
        flags = name.split("+")
        for flag in flags:
            if flag == STANDARD_NAME:
                raise RulesError(f"{name!r}: {STANDARD_NAME!r} is a rule set alone, not a flag")
            if flag not in FLAGS:
                raise RulesError(
                    f"unknown rule flag {flag!r} in {name!r}: the flags are "
                    f"{', '.join(FLAGS)} (or {STANDARD_NAME!r} alone)"
                )
        for flag in FLAGS:
            if flags.count(flag) > 1:
                raise RulesError(f"{name!r}: the flag {flag!r} is given more than once")
        for earlier, later in itertools.pairwise(flags):
            if FLAGS.index(earlier) > FLAGS.index(later):
                raise RulesError(
                    f"{name!r}: {later!r} goes before {earlier!r} "
                    f"(flags are joined in the order {'+'.join(FLAGS)})"
                )
        return cls.with_flags(flags)


STANDARD = Rules()

ALL_RULES = tuple(
    Rules.with_flags(flag for flag, on in zip(FLAGS, chosen, strict=True) if on)
    for chosen in itertools.product((False, True), repeat=len(FLAGS))
)
"""Every rule set: the standard game and each combination of flags."""
