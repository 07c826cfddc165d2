"""A protocol bot for the tests: writes every line it receives to the file named by its first
argument (flushed before it answers) and answers a random legal action, seeded by new_game."""

import json
import random
import sys

log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
rng = random.Random(0)
for line in sys.stdin:
    log.write(line)
    log.flush()
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "recorder",
                          "author": "tests", "deterministic": True}), flush=True)
    elif message["type"] == "new_game":
        rng = random.Random(message["seed"])
    elif message["type"] == "decide":
        action = rng.choice(message["view"]["legal_actions"])
        print(json.dumps({"type": "action", "id": message["id"], "action": action,
                          "explanation": "picked at random"}), flush=True)
    elif message["type"] == "quit":
        break
