"""Kashgar as a single-agent Gymnasium environment: one learning seat against bots.

>>> import gymnasium as gym
>>> import kashgar.envs.gymnasium  # registers Kashgar-v0
>>> env = gym.make("Kashgar-v0", players=2, opponents="heuristic")
>>> obs, info = env.reset(seed=1)
>>> mask = info["action_mask"]            # int8 over the engine's action space
>>> obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))

``gym.make("kashgar.envs.gymnasium:Kashgar-v0")`` works without the explicit import. Every other
seat is played by a bot made by name (:func:`kashgar.bots.make_bot`: ``random``, ``heuristic``,
``ismcts:easy`` ...). The observation is the shared vector of :mod:`kashgar.envs.encoding` from
the learner's seat; the action mask is in ``info["action_mask"]`` and from :meth:`KashgarEnv.action_masks`
(the name MaskablePPO looks for). The reward comes once, when the game ends.
"""

from __future__ import annotations

from typing import Any, ClassVar

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("kashgar.envs.gymnasium needs gymnasium and numpy: pip install kashgar[rl]") from exc

from .. import actions as A
from ..cards import CardSet, load_cards
from ..game import Game, IllegalAction
from .common import ExpansionArg, check_reward, final_rewards, make_bots, make_options
from .encoding import encoder_for
from .render import render_text

ENV_ID = "Kashgar-v0"
ILLEGAL_MODES = ("lose", "raise")


class KashgarEnv(gymnasium.Env):
    """One learning seat in a game of Kashgar; the other seats are bots.

    Arguments: ``players`` (2-4); ``opponents``: one bot spec for every other seat or a list of
    ``players - 1`` specs (the seats after the learner's, in turn order); ``seat``: the learner's
    seat (0-based), or ``None`` for a random seat each episode; ``expansion`` and ``house`` (see
    :func:`kashgar.envs.common.make_options`); ``reward`` (``win`` or ``rank``);
    ``illegal_action`` (``lose``: the episode ends with reward -1 and ``info["illegal_action"]``;
    ``raise``: a ValueError); ``turn_limit``; ``render_mode`` (``human`` or ``ansi``).
    Unknown bots, seats or options are ValueErrors that name the value.
    """

    metadata: ClassVar[dict] = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(
        self,
        players: int = 2,
        opponents: str | list[str] = "random",
        seat: int | None = 0,
        expansion: ExpansionArg = None,
        reward: str = "win",
        house: Any = (),
        illegal_action: str = "lose",
        turn_limit: int = 1000,
        render_mode: str | None = None,
        cards: CardSet | None = None,
    ) -> None:
        super().__init__()
        self.cards = cards or load_cards()
        self.game_options = make_options(players, expansion, house, turn_limit=turn_limit, cards=self.cards)
        self.reward_scheme = check_reward(reward)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players):
            raise ValueError(f"seat must be 0..{players - 1} or None (random each episode), got {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.opponents = make_bots(opponents, players - 1, 0)
        self.encoder = encoder_for(self.cards, players, turn_limit)
        self.observation_space = spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32)
        self.action_space = spaces.Discrete(A.SIZE)
        self.game: Game | None = None
        self._done = False

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """Deal a new game (seeded from ``seed``) and let the bots play up to the learner's first decision.

        ``options={"seat": k}`` puts the learner in seat ``k`` for this episode.
        """
        super().reset(seed=seed)
        rng = self.np_random
        n = self.game_options.players
        seat = (options or {}).get("seat", self.fixed_seat)
        if seat is None:
            seat = int(rng.integers(n))
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        self.seat = seat
        self.game = Game.new(self.game_options, int(rng.integers(2**62)), self.cards)
        for bot in self.opponents:
            bot.rng.seed(int(rng.integers(2**62)))
        self._done = False
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Apply the learner's action, then the bots' until the learner decides again or the game ends."""
        if self.game is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        g = self.game
        try:
            action = int(action)
            legal = action in g.legal()
        except (TypeError, ValueError):
            legal = False
        if not legal:
            if self.illegal_action == "raise":
                raise IllegalAction(f"action {action!r} is not legal; legal: {', '.join(g.legal_texts())}")
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        g.apply_unchecked(action)
        self._play_bots()
        reward = 0.0
        if g.over:
            self._done = True
            reward = final_rewards(g, self.reward_scheme)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, g.over, False, self._info()

    def render(self) -> str | None:
        """``ansi``: the position (and the learner's private view) as text; ``human``: print it."""
        if self.game is None:
            return None
        text = render_text(self.game, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (for maskable policies)."""
        return self._mask().astype(bool)

    # ------------------------------------------------------------------ internals

    def _play_bots(self) -> None:
        g = self.game
        n = g.n
        while not g.over and g.to_move != self.seat:
            bot = self.opponents[(g.to_move - self.seat) % n - 1]
            g.apply_unchecked(bot.act(g))

    def _mask(self) -> np.ndarray:
        mask = np.zeros(A.SIZE, np.int8)
        g = self.game
        if not self._done and g.to_move == self.seat:
            mask[list(g.legal())] = 1
        return mask

    def _obs(self) -> np.ndarray:
        return self.encoder.encode(self.game, self.seat)

    def _info(self) -> dict:
        g = self.game
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        if g.over:
            info["points"] = list(g.points)
            info["rank"] = g.ranking().index(self.seat)
            info["winner"] = g.winner()
        return info


def register() -> None:
    """Register ``Kashgar-v0`` with Gymnasium (done on import; safe to call again)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="kashgar.envs.gymnasium:KashgarEnv")


register()
