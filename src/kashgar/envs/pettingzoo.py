"""Kashgar as a PettingZoo AEC environment.

>>> from kashgar.envs.pettingzoo import env
>>> e = env(players=3, expansion=True, seed=7)
>>> e.reset()
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_0`` ... ``player_{n-1}`` (the engine's seats). The agent to act is whoever
must decide: usually the turn player, but some sub-decisions belong to another player (the
Herder makes every player move cards), which AEC expresses directly. Each observation is a dict:
``observation`` (the shared float32 vector of :mod:`kashgar.envs.encoding`, from that agent's
seat) and ``action_mask`` (int8 over the engine's fixed action space; all zeros for agents that
are not to act). Rewards come once, at the end (scheme ``win`` or ``rank``, see
:data:`kashgar.envs.common.REWARD_SCHEMES`).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("kashgar.envs.pettingzoo needs pettingzoo, gymnasium and numpy: pip install kashgar[rl]") from exc

from .. import actions as A
from ..cards import CardSet, load_cards
from ..game import Game, IllegalAction
from .common import ExpansionArg, check_reward, final_rewards, make_options
from .encoding import encoder_for
from .render import render_text

ILLEGAL_MODES = ("lose", "raise")


class KashgarAECEnv(AECEnv):
    """The raw AEC environment; :func:`env` wraps it in PettingZoo's order-enforcing wrapper.

    Arguments: ``players`` (2-4), ``expansion`` and ``house`` (see
    :func:`kashgar.envs.common.make_options`), ``seed`` (the engine seed of the first game; later
    games without an explicit seed draw theirs from it), ``reward`` (``win`` or ``rank``),
    ``illegal_action`` (``lose``: the game ends, the offender gets -1 and the others 0;
    ``raise``: a ValueError), ``turn_limit`` and ``render_mode`` (``human`` or ``ansi``).
    """

    metadata: ClassVar[dict] = {"name": "kashgar_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        expansion: ExpansionArg = None,
        seed: int | None = None,
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
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, got {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        if seed is not None and not isinstance(seed, int):
            raise ValueError(f"seed must be an integer or None, got {seed!r}")
        self._first_seed = seed
        self._seeds = random.Random(seed)
        self.encoder = encoder_for(self.cards, players, turn_limit)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(self.encoder.low, self.encoder.high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (A.SIZE,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(A.SIZE) for a in self.possible_agents}
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: engine seed ``seed`` if given, else the next one from the env's seed."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        elif self._first_seed is not None:
            game_seed = self._first_seed
            self._first_seed = None
        else:
            game_seed = self._seeds.getrandbits(63)
        self._first_seed = None
        self.game = Game.new(self.game_options, game_seed, self.cards)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation dict of ``agent``: its vector and its action mask."""
        g = self.game
        p = self.agent_name_mapping[agent]
        mask = np.zeros(A.SIZE, np.int8)
        if p == g.to_move:
            mask[list(g.legal())] = 1
        return {"observation": self.encoder.encode(g, p), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the current agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        try:
            action = int(action)
            legal = action in g.legal()
        except (TypeError, ValueError):
            legal = False
        if legal:
            g.apply_unchecked(action)
        elif self.illegal_action == "raise":
            raise IllegalAction(f"{agent}: action {action!r} is not legal; legal: {', '.join(g.legal_texts())}")
        else:
            for a in self.agents:
                self.rewards[a] = -1.0 if a == agent else 0.0
                self.terminations[a] = True
                self.infos[a] = {"illegal_action": a == agent}
            self._accumulate_rewards()
            return
        if g.over:
            final = final_rewards(g, self.reward_scheme)
            ranking = g.ranking()
            for a in self.agents:
                q = self.agent_name_mapping[a]
                self.rewards[a] = final[q]
                self.terminations[a] = True
                self.infos[a] = {"points": g.points[q], "rank": ranking.index(q)}
        else:
            self.agent_selection = self.possible_agents[g.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``ansi``: the position as text; ``human``: print it."""
        if self.game is None:
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(**kwargs: Any) -> KashgarAECEnv:
    """The unwrapped AEC environment (same arguments as :func:`env`)."""
    return KashgarAECEnv(**kwargs)


def env(
    players: int = 2,
    expansion: ExpansionArg = None,
    seed: int | None = None,
    reward: str = "win",
    **kwargs: Any,
) -> AECEnv:
    """A Kashgar AEC environment for ``players`` (2-4) wrapped in PettingZoo's order enforcer.

    Further keyword arguments: ``house``, ``illegal_action``, ``turn_limit``, ``render_mode``,
    ``cards`` (see :class:`KashgarAECEnv`).
    """
    return OrderEnforcingWrapper(KashgarAECEnv(players=players, expansion=expansion, seed=seed, reward=reward, **kwargs))
