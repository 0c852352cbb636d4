"""Random play with takes, draws, undos and illegal taps; invariants checked after every step."""

import copy

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from game.engine.deck import deck_for_number
from game.engine.rules import Rules
from game.engine.state import DRAW, Table

from .support import table_of


class TriPeaksPlay(RuleBasedStateMachine):
    @initialize(
        number=st.integers(1, 10_000),
        rules=st.builds(Rules, wrap=st.booleans(), open_peaks=st.booleans(),
                        first_waste=st.booleans()),
    )  # fmt: skip
    def deal(self, number, rules):
        self.deal_game = Table(deck_for_number(number), rules)
        self.game = copy.deepcopy(self.deal_game)
        self.played: list = []  # the model: moves in play, undone ones dropped
        self.seen_so_far = set(self.game.seen)

    @rule(pick=st.integers(0, 27))
    def take_a_legal_card(self, pick):
        legal = self.game.legal_takes()
        if legal:
            pos = legal[pick % len(legal)]
            assert self.game.take(pos) is None
            self.played.append(pos)

    @rule(pos=st.integers(0, 27))
    def tap_any_card(self, pos):
        before = copy.deepcopy(self.game)
        if self.game.take(pos) is None:
            self.played.append(pos)
        else:
            assert self.game == before

    @rule()
    def draw(self):
        before = copy.deepcopy(self.game)
        if self.game.draw() is None:
            self.played.append(DRAW)
        else:
            assert before.stock_count == 0 and self.game == before

    @rule()
    def undo(self):
        if self.game.undo() is None:
            self.played.pop()
        else:
            assert self.played == []

    @rule()
    def undo_all_returns_to_the_deal(self):
        while self.played:
            assert self.game.undo() is None
            self.played.pop()
        assert table_of(self.game) == table_of(self.deal_game)

    @invariant()
    def all_52_cards_are_accounted_for(self):
        g = self.game
        on_table = [g.deck[p] for p in range(28) if not g.is_removed(p)]
        stock = list(g.deck[g.stock_next :])
        assert sorted(on_table + g.waste + stock) == list(range(52))

    @invariant()
    def counters_follow_the_moves(self):
        g = self.game
        assert g.moves == self.played
        takes = [m for m in self.played if m != DRAW]
        assert g.cleared == len(takes) == len(set(takes))
        runs = [0]
        for move in self.played:
            runs.append(0 if move == DRAW else runs[-1] + 1)
        assert g.run == runs[-1] and g.longest_run == max(runs)
        assert g.won == (g.cleared == 28)
        assert not (g.dead_end and g.stock_count)

    @invariant()
    def knowledge_never_goes_back(self):
        g = self.game
        assert g.seen >= self.seen_so_far
        assert all(p in g.seen for p in range(28) if g.is_face_up(p))
        assert set(range(28, g.stock_next)) <= g.seen
        self.seen_so_far = set(g.seen)

    @invariant()
    def the_log_rebuilds_the_table(self):
        if self.played and len(self.played) % 5 == 0:
            rebuilt = Table.replay(self.game.deck, self.played, self.game.rules)
            assert table_of(rebuilt) == table_of(self.game)


TriPeaksPlay.TestCase.settings = settings(max_examples=60, stateful_step_count=80, deadline=None)
test_tripeaks_play = TriPeaksPlay.TestCase
