"""Information-set Monte Carlo tree search (single-observer ISMCTS).

Each iteration draws a determinization, a full game consistent with what the bot's seat knows
(:meth:`kashgar.bots.base.Seat.determinize`, i.e. :meth:`kashgar.game.Game.redeal`), and walks one
tree shared by all determinizations: actions not legal in this determinization are skipped, and
UCB uses availability counts (how often a child was selectable) instead of the parent's visits.
The bot's own decisions, sub-decisions included, are the nodes of the tree; opponents are modelled
by the heuristic's greedy policy (``opponent_model="greedy"``, the default: the tree then plans
several of our own turns deep instead of spreading visits over opponent replies), or are nodes of
the tree too (``opponent_model="tree"``). Draws happen inside the determinization.

Selection starts from a prior (``prior_visits``, 5 by default): the first time a node of ours is
reached, each of its actions is scored at one ply (applied, the turn finished greedily, scored by
the learned model: the ``value`` bot's ranking), and each child starts as that many virtual visits
at this score; UCB (exploration 0.3) then spends the real visits. The search so tries the moves the
1-ply ranking likes first, instead of untried moves at random, and a line needs real evidence to
overtake them. Without the prior (``prior_visits=0``, or with the heuristic evaluation or tree
opponents, which it does not support) untried actions are tried at random first, then UCB with
exploration 0.7.

A leaf is first brought to the end of the turn (the remaining sub-decisions played greedily), then
scored for every player as a chance to win: by the learned value model
(:mod:`kashgar.bots.value`, ``evaluation="learned"``, the default: a softmax over all players of
public features, fitted on self-play and tuned for move ranking), or by the hand-tuned evaluation
(:func:`kashgar.bots.heuristic.evaluate`, ``evaluation="heuristic"``: a logistic function of the
margin over the best opponent). An optional short random playout (``rollout_turns``) can come
first. Finished games score 1 for the winner and 0 for the others.

Budgets are iterations (reproducible from the seed) or seconds (not reproducible). Levels:
``easy`` 150 iterations, ``normal`` 700, ``hard`` 3,000.
"""

from __future__ import annotations

import math
import time

from ..game import Game
from .base import Bot, BotError, Seat
from .heuristic import DEFAULT, Weights, evaluate, finish_turn, greedy_choice
from .value import ValueModel, default_model, value_after

LEVELS = {"easy": 150, "normal": 700, "hard": 3000}
#: Default virtual visits of the 1-ply prior (with the learned evaluation and greedy opponents).
PRIOR_VISITS = 5.0
#: Default UCB exploration constant with the prior, and without it.
EXPLORATION_WITH_PRIOR = 0.3
EXPLORATION = 0.7


def _number(key: str, value: str, kind: type, low: float, high: float) -> float:
    """One ``key=value`` option as a number from ``low`` to ``high``; BotError says what is wrong."""
    what = "a whole number" if kind is int else "a number"
    try:
        x = kind(value)
    except ValueError:
        raise BotError(f"ismcts {key} must be {what}, got {value!r}") from None
    if math.isnan(x) or not low <= x <= high:
        raise BotError(f"ismcts {key} must be from {low:,} to {high:,}, got {value}")
    return x


#: Option names accepted after ``ismcts:`` (and their aliases), for :func:`options_from_arg`.
OPTION_KEYS = {
    "iterations": "iterations", "iters": "iterations",
    "seconds": "seconds", "secs": "seconds", "s": "seconds",
    "prior": "prior_visits", "prior_visits": "prior_visits",
    "c": "exploration", "exploration": "exploration",
}


def options_from_arg(arg: str) -> dict:
    """Parse the part after ``ismcts:`` into :class:`ISMCTSBot` keyword arguments.

    Comma-separated items: one budget (a level ``easy``/``normal``/``hard``, ``iterations=N`` or
    ``seconds=S``; ``normal`` if none), plus optionally ``prior=K`` (virtual visits of the 1-ply
    prior, 0 switches it off) and ``c=X`` (the UCB exploration constant). Example:
    ``seconds=1,prior=5,c=0.3``. A BotError names any unknown, repeated or out-of-range item.
    """
    out: dict = {}
    for item in (x.strip() for x in arg.lower().split(",")):
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            if key not in LEVELS:
                raise BotError(
                    f"unknown ismcts level {key!r} (levels: {', '.join(LEVELS)}; "
                    "or iterations=N, seconds=S; options prior=K, c=X)"
                )
            name, x = "iterations", LEVELS[key]
        elif key in OPTION_KEYS:
            name = OPTION_KEYS[key]
            value = value.strip()
            if name == "iterations":
                x = _number(key, value, int, 1, 10_000_000)
            elif name == "seconds":
                x = _number(key, value, float, 0.001, 3600)
            elif name == "prior_visits":
                x = _number(key, value, float, 0, 1000)
            else:
                x = _number(key, value, float, 0, 10)
        else:
            raise BotError(
                f"unknown ismcts option {key!r} (use a level, iterations=N or seconds=S, prior=K, c=X)"
            )
        if name in out or (name in ("iterations", "seconds") and ({"iterations", "seconds"} & out.keys())):
            raise BotError(f"ismcts: {item!r} repeats an option already given (one budget, each option once)")
        out[name] = x
    if "iterations" not in out and "seconds" not in out:
        out["iterations"] = LEVELS["normal"]
    return out


class Node:
    """A tree node: the action that led here was taken by ``player``."""

    __slots__ = ("avail", "children", "n", "prior", "w")

    def __init__(self, avail: int = 1) -> None:
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = avail
        self.prior: dict[int, float] | None = None  # 1-ply value of each action (with prior_visits)


class ISMCTSBot(Bot):
    """Information-set MCTS with a budget in iterations or seconds per decision."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float | None = None,
        rollout_turns: int = 0,
        temperature: float = 12.0,
        finish: bool = True,
        opponent_model: str = "greedy",
        weights: Weights = DEFAULT,
        evaluation: str | ValueModel = "learned",
        prior_visits: float | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = LEVELS["normal"]
        self.iterations = iterations
        self.seconds = seconds
        self.rollout_turns = rollout_turns
        self.temperature = temperature
        self.weights = weights
        self.finish = finish
        if opponent_model not in ("tree", "greedy"):
            raise BotError(f"opponent_model must be 'tree' or 'greedy', got {opponent_model!r}")
        self.greedy_opponents = opponent_model == "greedy"
        if isinstance(evaluation, ValueModel):
            self.model: ValueModel | None = evaluation
        elif evaluation == "learned":
            self.model = default_model()
        elif evaluation == "heuristic":
            self.model = None
        else:
            raise BotError(f"evaluation must be 'learned', 'heuristic' or a ValueModel, got {evaluation!r}")
        if prior_visits is None:
            prior_visits = PRIOR_VISITS if self.model is not None and self.greedy_opponents else 0.0
        if prior_visits < 0 or (prior_visits and (self.model is None or not self.greedy_opponents)):
            raise BotError("prior_visits must be >= 0 and needs the learned evaluation and greedy opponents")
        self.prior_visits = prior_visits
        if exploration is None:
            exploration = EXPLORATION_WITH_PRIOR if prior_visits else EXPLORATION
        if not 0 <= exploration <= 10:
            raise BotError(f"exploration must be from 0 to 10, got {exploration}")
        self.c = exploration
        self.me = 0
        self.early_stop = True
        self.last_iterations = 0

    # ------------------------------------------------------------------ search

    def choose(self, seat: Seat) -> int:
        legal = seat.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = Node()
        self.me = seat.player
        rng = self.rng
        limit = self.iterations
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        iterate = self._iterate_prior if self.prior_visits else self._iterate_plain
        i = 0
        while True:
            if limit is not None and i >= limit:
                break
            if deadline is not None and (i & 15) == 0 and time.perf_counter() >= deadline:
                break
            iterate(root, seat.determinize(rng))
            i += 1
            # Stop early once the most visited root action cannot be overtaken in the budget left.
            if self.early_stop and (i & 63) == 0:
                if limit is not None:
                    left = limit - i
                else:
                    now = time.perf_counter()
                    left = int((deadline - now) * i / max(now - start, 1e-9))  # type: ignore[operator]
                visits = sorted((ch.n for ch in root.children.values()), reverse=True)
                if len(visits) > 1 and visits[0] - visits[1] > left:
                    break
        self.last_iterations = i
        children = root.children
        return max(legal, key=lambda a: (children[a].n, children[a].w) if a in children else (-1, 0.0))

    def _iterate_plain(self, root: Node, g: Game) -> None:
        """One iteration without a prior: an untried action at random first, then UCB."""
        node = root
        path: list[tuple[Node, int]] = []
        rand = self.rng.random
        c = self.c
        log = math.log
        sqrt = math.sqrt
        greedy = self.greedy_opponents
        me = self.me
        w = self.weights
        while not g.over:
            p = g.pend_player
            if greedy and p != me:
                # Opponents are modelled by the heuristic policy: the tree holds only our decisions.
                g.apply_unchecked(greedy_choice(g, w))
                continue
            legal = g.legal()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                a = untried[int(rand() * len(untried))]
                for b in legal:
                    ch = children.get(b)
                    if ch is not None:
                        ch.avail += 1
                child = children[a] = Node()
                g.apply_unchecked(a)
                path.append((child, p))
                break
            best = None
            best_u = -1.0
            for a in legal:
                ch = children[a]
                ch.avail += 1
                u = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                if u > best_u:
                    best_u, best = u, a
            node = children[best]
            g.apply_unchecked(best)
            path.append((node, p))
        self._backup(path, g)

    def _iterate_prior(self, root: Node, g: Game) -> None:
        """One iteration where every child starts as ``prior_visits`` virtual visits at its 1-ply
        value (the action applied, the turn finished greedily, scored by the model): the search
        tries the moves the ``value`` bot likes first instead of untried moves at random."""
        node = root
        path: list[tuple[Node, int]] = []
        c = self.c
        k0 = self.prior_visits
        log = math.log
        sqrt = math.sqrt
        me = self.me
        w = self.weights
        model = self.model
        assert model is not None
        while not g.over:
            p = g.pend_player
            if p != me:
                g.apply_unchecked(greedy_choice(g, w))
                continue
            prior = node.prior
            if prior is None:
                prior = node.prior = {}
            children = node.children
            best = -1
            best_u = -1.0e9
            for a in g.legal():
                v = prior.get(a)
                if v is None:
                    v = prior[a] = value_after(model, g, a, me, w)
                ch = children.get(a)
                if ch is None:
                    ch = children[a] = Node(0)
                ch.avail += 1
                u = (ch.w + k0 * v) / (ch.n + k0) + c * sqrt(log(ch.avail + 1) / (ch.n + 1))
                if u > best_u:
                    best_u, best = u, a
            node = children[best]
            g.apply_unchecked(best)
            path.append((node, p))
            if node.n == 0:
                break
        self._backup(path, g)

    def _backup(self, path: list[tuple[Node, int]], g: Game) -> None:
        """Score the leaf ``g`` and add one visit and the mover's value to every node on ``path``."""
        values = self._values(g)
        for node, p in path:
            node.n += 1
            node.w += values[p]

    def _values(self, g: Game) -> list[float]:
        """Value in [0, 1] of the position for every player."""
        if not g.over and self.rollout_turns:
            end = g.turn_no + self.rollout_turns
            rand = self.rng.random
            while not g.over and g.turn_no < end:
                legal = g.legal()
                g.apply_unchecked(legal[int(rand() * len(legal))])
        if self.finish and not g.over and g.pend_kind != "turn":
            finish_turn(g, self.weights)  # score leaves between turns, not halfway through one
        if self.model is not None:
            return self.model.win_probabilities(g)
        n = g.n
        if g.over:
            w = g.winner()
            return [1.0 if q == w else 0.0 for q in range(n)]
        s = [evaluate(g, q, self.weights) for q in range(n)]
        t = self.temperature
        out = []
        for q in range(n):
            other = max(s[r] for r in range(n) if r != q)
            x = (s[q] - other) / t
            out.append(1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0)
        return out
