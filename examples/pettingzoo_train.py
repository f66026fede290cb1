"""From training in the PettingZoo environment to the leaderboard (docs/interop.md).

1. Train a linear action-value policy by Monte Carlo control in the Gymnasium wrapper
   of the environment: one seat of Leduc hold'em against the ``call`` bot (about a
   minute, not hours).
2. Save it (``pokerarena.interop.policy_bot.save_policy``): the weights and the
   environment's encoding settings, as JSON.
3. Enter it in a round-robin tournament as a Python-path bot,
   ``pokerarena.interop.policy_bot:LinearPolicyBot?path=...``, against ``call`` and
   ``random``, played in this process (``pokerarena run --local``), and print the
   leaderboard (``pokerarena leaderboard``).

    python examples/pettingzoo_train.py --out /tmp/pz-demo
    python examples/pettingzoo_train.py --episodes 300 --hands 200 --out /tmp/pz-quick

Needs the ``peers`` extra (pettingzoo, gymnasium) for the training only: the tournament's
bot reads its file with numpy.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from pokerarena.cli import main as cli
from pokerarena.env import SeatEnv
from pokerarena.interop.policy_bot import save_policy

VARIANT = "leduc"
BOT = "pokerarena.interop.policy_bot:LinearPolicyBot"


def train(episodes: int, seed: int = 0, lr: float = 0.01,
          explore: float = 0.2) -> tuple[SeatEnv, np.ndarray, np.ndarray, list[float]]:
    """Monte Carlo control with a linear action value ``Q(x, a) = W[a] @ x + b[a]``:
    each hand, moves are the best legal slot (a random legal one with chance
    ``explore``); after the hand each decision's value moves toward the hand's result,
    ``W[a] += lr · (G − Q(x, a)) · x``. The policy is the greedy one, ``argmax`` over
    the legal slots. Returns the environment, the weights, the bias and the mean reward
    of each tenth of the training."""
    env = SeatEnv(VARIANT, opponents="call", seat=0)
    rng = np.random.default_rng(seed)
    size = env.observation_space["observation"].shape[0]
    actions = int(env.action_space.n)
    w = np.zeros((actions, size))
    b = np.zeros(actions)
    rewards = []
    for ep in range(episodes):
        obs, _ = env.reset(seed=seed * 1_000_003 + ep)
        steps, total, done = [], 0.0, False
        while not done:
            x, legal = obs["observation"].astype(np.float64), np.flatnonzero(obs["action_mask"])
            if rng.random() < explore:
                a = int(rng.choice(legal))
            else:
                a = int(legal[np.argmax(w[legal] @ x + b[legal])])
            steps.append((x, a))
            obs, reward, term, trunc, _ = env.step(a)
            total += reward
            done = term or trunc
        for x, a in steps:
            error = total - (w[a] @ x + b[a])
            w[a] += lr * error * x
            b[a] += lr * error
        rewards.append(total)
    tenth = max(1, episodes // 10)
    return env, w, b, [float(np.mean(rewards[i:i + tenth])) for i in range(0, episodes, tenth)]


def tournament(policy: Path, out: Path, hands: int, seed: int = 7) -> str:
    """Play the trained bot, ``call`` and ``random`` round robin; the run's id."""
    spec = out / "tournament.json"
    spec.write_text(json.dumps({
        "kind": "tournament", "name": "pettingzoo-demo", "seed": seed,
        "bots": [f"{BOT}?path={policy.resolve()}", "call", "random"], "seats": 2,
        "hands": hands, "unit_hands": hands, "duplicate": True,
        "games": [{"variant": VARIANT, "betting": "fixed_limit"}]}))
    run_id = f"pettingzoo-demo-{seed}"
    status = cli(["run", str(spec), "--local", "--data", str(out / "data"), "--run-id", run_id])
    if status:
        raise SystemExit(f"the tournament failed (status {status})")
    return run_id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=20_000, help="training hands")
    parser.add_argument("--hands", type=int, default=2_000, help="hands per match")
    parser.add_argument("--out", type=Path, default=Path("pettingzoo-demo"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    env, w, b, curve = train(args.episodes)
    print("mean chips per hand against call, by tenth of the training: "
          + " ".join(f"{x:+.2f}" for x in curve))
    policy = save_policy(args.out / "policy.json", env.aec.codec_settings(), w, b)
    print(f"policy saved to {policy}")
    run_id = tournament(policy, args.out, args.hands)
    return cli(["leaderboard", run_id, "--data", str(args.out / "data")])


if __name__ == "__main__":
    raise SystemExit(main())
