"""The rules of a TriPeaks game as a small immutable config; the standard game is the default."""

from dataclasses import dataclass

NUM_RANKS = 13


@dataclass(frozen=True)
class Rules:
    wrap: bool = True
    """K and A connect (K-A-2 loop)."""
    open_peaks: bool = False
    """Every peak card is dealt face up (it still has to be uncovered to be taken)."""
    first_waste: bool = True
    """The deal turns a first waste card; without it the waste starts empty and any uncovered
    face-up card may open it, and the stock holds 24 cards."""

    def fits(self, rank_a: int, rank_b: int) -> bool:
        """Whether two ranks are one apart (with K-A when wrap is on)."""
        gap = abs(rank_a - rank_b)
        return gap == 1 or (self.wrap and gap == NUM_RANKS - 1)


STANDARD = Rules()
