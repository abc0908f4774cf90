"""Research adapters: Kashgar as a Gymnasium, PettingZoo and OpenSpiel environment.

Install the optional dependencies with ``pip install kashgar[rl]`` (numpy, gymnasium,
pettingzoo, open-spiel). Importing this package itself needs none of them; each adapter module
imports its own library:

* :mod:`kashgar.envs.pettingzoo` - ``env(players=2, ...)``: an AEC environment, agents ``player_0`` ...
* :mod:`kashgar.envs.gymnasium` - ``KashgarEnv``: one learning seat against bots (``Kashgar-v0``)
* :mod:`kashgar.envs.openspiel` - registers the Python game ``python_kashgar``
* :mod:`kashgar.envs.encoding` - the observation vector all three share (numpy only)
* :mod:`kashgar.envs.bench` - steps per second of each adapter next to the bare engine

All three use the engine's fixed action space (:mod:`kashgar.actions`, ``SIZE`` ids) and the same
:class:`~kashgar.envs.encoding.ObservationEncoder`; the vector layout is documented in
``docs/research.md``.
"""

from __future__ import annotations

from .common import REWARD_SCHEMES, final_rewards, make_options

__all__ = ["REWARD_SCHEMES", "final_rewards", "make_options"]
