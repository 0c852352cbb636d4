"""The table as data: 28 tableau positions in four rows, three peaks sharing the base row.

Positions follow SPEC.md: row 1 is 0-2 (the summits), row 2 is 3-8, row 3 is 9-17 and the base
row is 18-27; deck position 28 is the first waste card and 29-51 the stock.
"""

TABLEAU_SIZE = 28
FIRST_WASTE = 28
ROWS = (range(0, 3), range(3, 9), range(9, 18), range(18, 28))
BASE_ROW = ROWS[3]


def _covering_table() -> tuple[tuple[int, ...], ...]:
    covered_by: list[tuple[int, ...]] = [()] * TABLEAU_SIZE
    for p in range(3):
        covered_by[p] = (3 + 2 * p, 4 + 2 * p)
        for j in range(2):
            covered_by[3 + 2 * p + j] = (9 + 3 * p + j, 10 + 3 * p + j)
    for k in range(9):
        covered_by[9 + k] = (18 + k, 19 + k)
    return tuple(covered_by)


COVERED_BY = _covering_table()
"""COVERED_BY[pos]: the two cards that hold pos down (empty for the base row)."""

COVER_MASK = tuple(sum(1 << below for below in COVERED_BY[pos]) for pos in range(TABLEAU_SIZE))
"""COVER_MASK[pos]: the bits of the cards that hold pos down; it is uncovered once all are taken."""

COVERS = tuple(
    tuple(upper for upper in range(TABLEAU_SIZE) if pos in COVERED_BY[upper])
    for pos in range(TABLEAU_SIZE)
)
"""COVERS[pos]: the cards that pos holds down (one or two, none for a summit)."""

ROW_OF = tuple(next(i for i, row in enumerate(ROWS) if pos in row) for pos in range(TABLEAU_SIZE))


def _across() -> tuple[float, ...]:
    across = [0.0] * TABLEAU_SIZE
    for index, pos in enumerate(BASE_ROW):
        across[pos] = index
    for pos in reversed(range(BASE_ROW.start)):
        left, right = COVERED_BY[pos]
        across[pos] = (across[left] + across[right]) / 2
    return tuple(across)


ACROSS = _across()
"""ACROSS[pos]: how far across the table a card sits, in card widths from the first base-row card:
base-row cards side by side, every other card midway over the two that cover it."""
