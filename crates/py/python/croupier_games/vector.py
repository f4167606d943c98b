"""A batched environment: N games of one kind stepped together inside Rust (EnvPool's idea), for
self-play at scale. A step is one call for all N games and writes numpy arrays in place; no
Python object is made per game and step.

>>> import numpy as np
>>> from croupier_games.vector import VectorEnv
>>> env = VectorEnv("kul", {"games": 1}, num_envs=256, seed=1, observations=True)
>>> player, mask, obs, rewards, done = env.reset()
>>> for _ in range(1000):
...     # a policy reads obs and mask; here: uniform over the legal actions
...     logits = np.where(mask == 1, np.random.rand(*mask.shape), -1.0)
...     player, mask, obs, rewards, done = env.step(logits.argmax(axis=1))

``VectorEnv(name, options=None, players=None, num_envs=1, seed=0, observations=False)``: ``name``,
``options`` and ``players`` as ``GameDef``. ``reset()``, ``step(actions)`` and ``step_random()``
return the same five arrays every time, owned by the environment and overwritten by the next
call (copy what you keep):

===============  ===========================  ===================================================
array            dtype, shape                 what
===============  ===========================  ===================================================
current_player   int64, (N,)                  the seat to move in each env
legal_mask       int8, (N, A)                 1 where an action is legal for that seat
                                              (A = ``num_distinct_actions()``, as ``GameDef``)
observations     float32, (N, T) or None      the observation tensor of the seat to move
                                              (T = ``observation_tensor_size()``; the layout of
                                              ``State.observation_tensor``); None unless the
                                              environment was made with ``observations=True``
                                              (they cost: every seat's view and lines are kept)
rewards          float64, (N, P)              each seat's score where the game ended in this
                                              step (as ``State.returns()``), else zeros
done             bool, (N,)                   whether env i's game ended in this step
===============  ===========================  ===================================================

They are also attributes (``env.legal_mask``, ...), with ``env.actions`` (int64, (N,)): the
actions of the last step (``step_random``'s draws).

``step(actions)`` takes one integer action per env (an int64 array or anything numpy turns into
one), each legal in its env. Every action is checked before any is played: a wrong length, an
action out of range or not legal raises ``ValueError`` naming the env and the action, and no
game moves.

Auto-reset: when env i's game ends in a step, ``rewards[i]`` holds its scores, ``done[i]`` is
True, and env i has already started its next game: ``current_player[i]``, ``legal_mask[i]`` and
``observations[i]`` are that new game's first decision (no reset call, no wasted step).

Seeds: game ``e`` (episode, from 0) of env ``i`` is dealt from ``env.game_seed(i, e)`` =
``run_game_seed(seed, e * num_envs + i)``: game ``e * num_envs + i`` of ``croupier play --seed
seed``. ``env.seeds`` (the game in play per env), ``env.episodes`` (its episode) and
``env.finished_seeds`` (the last game each env finished: where ``done[i]``, the one that just
ended) give them as arrays, so ``GameDef(...).new_initial_state(seed)`` replays any game with the
same actions. ``step_random()`` plays a uniform legal action in every env, drawn inside Rust from
a seeded ChaCha20 stream (one draw per env, envs in order); ``reset(seed=None)`` starts every env
at episode 0 again (with a new base seed when given) and restarts that stream, so a base seed and
the actions (or the ``step_random`` calls) fix every game.
"""

from ._croupier_games import VectorEnv

__all__ = ["VectorEnv"]
