"""A deliberately broken bot, to see what the host does with one.

    euchre tournament "cmd:python examples/broken_bot.py crash" rule --hands 20

Speaks the bot protocol correctly until its third decision, then does what its argument says:
``crash`` (exits), ``hang`` (never answers), ``illegal`` (answers a card it does not hold),
``garbage`` (a line that is not JSON), ``flood`` (megabytes without a line end), ``twice``
(answers with two lines), ``wordy`` (an explanation of 400 characters) or ``wrong-id`` (echoes
another decision's id). Two break down at once: ``version`` (announces a protocol version the
host does not speak) and ``mute`` (never answers the hello). ``noisy`` plays correctly but
writes a megabyte to stderr at every decision (the host keeps its log to a limit).
"""

import json
import sys
import time

fault = sys.argv[1] if len(sys.argv) > 1 else "crash"
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        if fault == "mute":
            time.sleep(3600)
        version = 99 if fault == "version" else 1
        print(json.dumps({"type": "hello", "protocol": version, "name": f"broken-{fault}"}),
              flush=True)
    elif message["type"] == "decide":
        decisions += 1
        legal = message["view"]["legal_actions"]
        if fault == "noisy":
            sys.stderr.write(("thinking out loud " * 64 + "\n") * 900)
            sys.stderr.flush()
        elif decisions >= 3:
            print(f"breaking down now: {fault}", file=sys.stderr, flush=True)
            if fault == "crash":
                sys.exit(3)
            if fault == "hang":
                time.sleep(3600)
            if fault == "illegal":
                print(json.dumps({"type": "action", "action": "play JOKER"}), flush=True)
                continue
            if fault == "garbage":
                print("I think I will play the jack", flush=True)
                continue
            if fault == "flood":
                sys.stdout.write("x" * 5_000_000)
                sys.stdout.flush()
                time.sleep(3600)
            answer = {"type": "action", "action": legal[0]}
            if fault == "twice":
                print(json.dumps(answer) + "\n" + json.dumps(answer), flush=True)
                continue
            if fault == "wordy":
                print(json.dumps({**answer, "explanation": "because " * 50}), flush=True)
                continue
            if fault == "wrong-id":
                print(json.dumps({**answer, "id": message["id"] + 1}), flush=True)
                continue
        print(json.dumps({"type": "action", "action": legal[0]}), flush=True)
    elif message["type"] == "quit":
        break
