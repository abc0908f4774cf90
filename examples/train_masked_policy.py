"""Train a masked linear policy with REINFORCE (numpy only) against a bot, then report win rates.

    python examples/train_masked_policy.py --seconds 180 --opponent heuristic --eval-games 200

The agent plays seat 0 of ``KashgarEnv`` (``kashgar.envs.gymnasium``). Its policy is a softmax
over the legal actions only (the action mask) of a linear score ``x @ W + b``, where ``x`` is the
shared observation vector scaled by the space's upper bounds. It learns by REINFORCE with a
running-mean baseline. The return it learns from is the environment's final reward (+1 win,
-1 loss) plus ``--margin-weight`` times its final point margin over the best opponent: against a
strong bot almost every game is a loss, and the margin says how bad. Training stops after
``--seconds``; the trained policy (greedy) and a masked-random player are then evaluated on the
same ``--eval-games`` deals, and both win rates are printed.

Needs ``pip install kashgar[rl]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from kashgar.envs.gymnasium import KashgarEnv


class MaskedLinearPolicy:
    """Softmax over legal actions of ``x @ W + b``; ``x`` is sparse, so only its nonzero rows are used."""

    def __init__(self, obs_size: int, n_actions: int, scale: np.ndarray, seed: int = 0) -> None:
        self.W = np.zeros((obs_size, n_actions), np.float32)
        self.b = np.zeros(n_actions, np.float32)
        self.scale = scale
        self.rng = np.random.default_rng(seed)

    def features(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The nonzero entries of the scaled observation: (indices, values)."""
        x = obs * self.scale
        nz = np.flatnonzero(x)
        return nz, x[nz]

    def probs(self, nz: np.ndarray, xs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Action probabilities over ``legal``."""
        logits = xs @ self.W[np.ix_(nz, legal)] + self.b[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[int, tuple]:
        """Choose an action; also return what :meth:`update` needs to learn from it."""
        legal = np.flatnonzero(mask)
        nz, xs = self.features(obs)
        p = self.probs(nz, xs, legal)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), (nz, xs, legal, i, p)

    def update(self, trajectory: list[tuple], advantage: float, lr: float) -> None:
        """REINFORCE: raise the log-probability of each chosen action in proportion to the advantage."""
        for nz, xs, legal, i, p in trajectory:
            grad = -p
            grad[i] += 1.0
            self.W[np.ix_(nz, legal)] += (lr * advantage) * np.outer(xs, grad).astype(np.float32)
            self.b[legal] += lr * advantage * grad.astype(np.float32)


def play(env: KashgarEnv, choose, seed: int) -> tuple[float, float, list]:
    """One episode; ``choose(obs, mask) -> (action, record)``.

    Returns the final reward, the learner's point margin over the best opponent, and the records.
    """
    obs, info = env.reset(seed=seed)
    records = []
    while True:
        action, record = choose(obs, info["action_mask"])
        records.append(record)
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            points = info["points"]
            seat = info["seat"]
            margin = points[seat] - max(p for q, p in enumerate(points) if q != seat)
            return float(reward), float(margin), records


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=180.0, help="training time budget in seconds (default 180)")
    p.add_argument("--opponent", default="heuristic", help="bot spec for the other seat(s) (default heuristic)")
    p.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    p.add_argument("--eval-games", type=int, default=200, help="evaluation games for each player (default 200)")
    p.add_argument("--lr", type=float, default=0.02, help="learning rate (default 0.02)")
    p.add_argument("--margin-weight", type=float, default=0.1,
                   help="weight of the final point margin in the training return (default 0.1)")
    p.add_argument("--seed", type=int, default=0, help="seed of training and evaluation (default 0)")
    args = p.parse_args(argv)

    env = KashgarEnv(players=args.players, opponents=args.opponent, seat=0)
    high = np.maximum(np.abs(env.observation_space.low), env.observation_space.high)
    policy = MaskedLinearPolicy(env.observation_space.shape[0], env.action_space.n, (1.0 / high).astype(np.float32),
                                args.seed)

    # ---- training
    t0 = time.perf_counter()
    baseline = 0.0
    games = steps = wins = 0
    recent: list[float] = []
    while time.perf_counter() - t0 < args.seconds:
        reward, margin, trajectory = play(env, policy.act, seed=args.seed * 1_000_003 + games)
        ret = reward + args.margin_weight * margin
        policy.update(trajectory, ret - baseline, args.lr)
        baseline += 0.05 * (ret - baseline)
        games += 1
        steps += len(trajectory)
        wins += reward > 0
        recent = (recent + [float(reward > 0)])[-100:]
    dt = time.perf_counter() - t0
    print(f"trained {games} games ({steps} agent steps) in {dt:.1f} s against {args.opponent!r}; "
          f"training win rate {wins / max(games, 1):.1%}, last {len(recent)} games {np.mean(recent or [0]):.1%}",
          flush=True)

    # ---- evaluation on the same deals
    eval_seeds = [10**9 + args.seed * 10_007 + i for i in range(args.eval_games)]
    rng = np.random.default_rng(args.seed + 1)

    def trained(obs: np.ndarray, mask: np.ndarray) -> tuple[int, None]:
        return policy.act(obs, mask, greedy=True)[0], None

    def masked_random(obs: np.ndarray, mask: np.ndarray) -> tuple[int, None]:
        return int(rng.choice(np.flatnonzero(mask))), None

    for name, choose in (("trained policy (greedy)", trained), ("masked random", masked_random)):
        results = [play(env, choose, s)[:2] for s in eval_seeds]
        won = sum(r > 0 for r, _ in results)
        rate = won / max(len(results), 1)
        margin = float(np.mean([m for _, m in results])) if results else 0.0
        print(f"win rate vs {args.opponent}: {name}: {rate:.1%} ({won}/{len(results)}), "
              f"mean point margin {margin:+.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
