from game.engine.geometry import ACROSS, BASE_ROW, COVERED_BY, COVERS, ROW_OF, ROWS

# SPEC.md's covering, written out cell by cell rather than by the formula under test.
SPEC_COVERED_BY = {
    0: (3, 4), 1: (5, 6), 2: (7, 8),
    3: (9, 10), 4: (10, 11), 5: (12, 13), 6: (13, 14), 7: (15, 16), 8: (16, 17),
    9: (18, 19), 10: (19, 20), 11: (20, 21), 12: (21, 22), 13: (22, 23),
    14: (23, 24), 15: (24, 25), 16: (25, 26), 17: (26, 27),
}  # fmt: skip


def test_covering_matches_spec_cell_by_cell():
    for pos in range(28):
        assert COVERED_BY[pos] == SPEC_COVERED_BY.get(pos, ()), pos


def test_covers_is_the_inverse_of_covered_by():
    for pos in range(28):
        for below in COVERED_BY[pos]:
            assert pos in COVERS[below]
    assert sum(len(c) for c in COVERS) == 2 * 18


def test_rows_hold_3_6_9_10_cards():
    assert [len(row) for row in ROWS] == [3, 6, 9, 10]
    assert list(BASE_ROW) == list(range(18, 28))
    assert ROW_OF[0] == 0 and ROW_OF[8] == 1 and ROW_OF[17] == 2 and ROW_OF[27] == 3


def test_each_summit_sits_centred_over_its_peak():
    assert [ACROSS[pos] for pos in BASE_ROW] == list(range(10))
    assert ACROSS[:3] == (1.5, 4.5, 7.5)
    assert ACROSS[3:9] == (1.0, 2.0, 4.0, 5.0, 7.0, 8.0)
