"""Reinforcement-learning tools (``pip install 'euchre[rl]'``): a PettingZoo AEC environment
(:mod:`euchre.rl.pettingzoo_env`), a Gymnasium single-agent environment against bots
(:mod:`euchre.rl.gym_env`), an OpenSpiel game (:mod:`euchre.rl.openspiel_game`), the observation
encoding (:mod:`euchre.rl.encoding`) and a numba batch simulator (:mod:`euchre.rl.batch`).

Submodules are imported on demand, so ``import euchre.rl`` costs nothing and each needs only its
own dependencies. ``docs/rl.md`` documents them.
"""
