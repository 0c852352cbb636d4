"""Random play under every rule set with takes, draws, the wild card, undos and illegal taps;
invariants checked after every step."""

import copy

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from game.engine.deck import deck_for_number
from game.engine.rules import ALL_RULES
from game.engine.state import DRAW, WILD, Table

from .support import table_of


class TriPeaksPlay(RuleBasedStateMachine):
    @initialize(number=st.integers(1, 10_000), rules=st.sampled_from(ALL_RULES))
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

    @rule(move=st.sampled_from([*range(28), DRAW, WILD]))
    def tap_anything(self, move):
        """Played exactly when it is among the legal moves; else refused, changing nothing."""
        legal = move in self.game.legal_moves()
        before = copy.deepcopy(self.game)
        if self.game.apply(move) is None:
            assert legal
            self.played.append(move)
        else:
            assert not legal and self.game == before

    @rule()
    def draw(self):
        before = copy.deepcopy(self.game)
        if self.game.draw() is None:
            self.played.append(DRAW)
        else:
            assert before.stock_count == 0 and self.game == before

    @rule()
    def lay_the_wild_card(self):
        before = copy.deepcopy(self.game)
        if self.game.apply(WILD) is None:
            self.played.append(WILD)
            assert before.wild_held and self.game.run == before.run
        else:
            assert not before.wild_held and self.game == before

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
        waste = [card for card in g.waste if card is not None]
        assert sorted(on_table + waste + stock) == list(range(52))
        assert g.wild_held + g.waste.count(None) == g.rules.wild

    @invariant()
    def counters_follow_the_moves(self):
        g = self.game
        assert g.moves == self.played
        takes = [m for m in self.played if m not in (DRAW, WILD)]
        assert g.cleared == len(takes) == len(set(takes))
        runs = [0]
        for move in self.played:
            runs.append({DRAW: 0, WILD: runs[-1]}.get(move, runs[-1] + 1))
        assert g.run == runs[-1] and g.longest_run == max(runs)
        assert g.won == (g.cleared == 28)
        assert g.dead_end == (not g.won and not g.legal_moves())
        assert not (g.dead_end and (g.stock_count or g.wild_held))

    @invariant()
    def knowledge_never_goes_back(self):
        g = self.game
        assert g.seen >= self.seen_so_far
        assert all(p in g.seen for p in range(28) if g.is_face_up(p))
        assert set(range(28, g.stock_next)) <= g.seen
        assert g.rules.open_peaks <= (set(range(28)) <= g.seen)
        self.seen_so_far = set(g.seen)

    @invariant()
    def the_log_rebuilds_the_table(self):
        if self.played and len(self.played) % 5 == 0:
            rebuilt = Table.replay(self.game.deck, self.played, self.game.rules)
            assert table_of(rebuilt) == table_of(self.game)


TriPeaksPlay.TestCase.settings = settings(max_examples=60, stateful_step_count=80, deadline=None)
test_tripeaks_play = TriPeaksPlay.TestCase
