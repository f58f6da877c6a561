#!/usr/bin/env python3
"""A client of ark's episode API (`deno task serve`), in Python's standard library only.

It starts an episode, plays a list of decisions (tool calls, messages, an end), and prints the
episode's verdict (grade, violations, milestones and record) as JSON on stdout:

    python3 examples/episode_client.py --server http://127.0.0.1:8787 \
        --domain airline --task airline/0 --decisions decisions.json

`decisions.json` is a JSON list of actions, each one of
    {"type": "tool", "name": "get_user_details", "arguments": {"user_id": "..."}}
    {"type": "message", "text": "...", "intent": {...}}     (intent: optional)
    {"type": "end", "confidence": 0.9}                      (confidence: optional)
Without --decisions it plays a small generic strategy: it asks the user what they need and ends.
Use it as a starting point for an agent of your own: replace `decide()` with your model.
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.request


def call(server, path, body=None, token=None):
    """POSTs (or GETs, without a body) JSON and returns the decoded answer; exits on an error."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.rstrip("/") + path, data=data, method="GET" if body is None else "POST")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read().decode())
    except urllib.error.HTTPError as err:
        sys.exit(f"{path}: HTTP {err.code}: {json.loads(err.read().decode()).get('error')}")


def decide(opening, history):
    """A generic strategy for when no decisions are given: ask once, then end."""
    if not history:
        return {"type": "message", "text": "Hello! What can I do for you? Please tell me your user id."}
    return {"type": "end", "confidence": 0.1}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8787")
    parser.add_argument("--domain", required=True)
    parser.add_argument("--task", required=True)
    parser.add_argument("--agent", default="remote")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--condition", default="nominal")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--decisions", default=None)
    args = parser.parse_args()
    token = os.environ.get("ARK_TOKEN")
    start = {"domain": args.domain, "task": args.task, "agent": args.agent, "seed": args.seed, "condition": args.condition}
    if args.variant is not None:
        start["variant"] = args.variant
    opening = call(args.server, "/v1/episodes", start, token)
    episode = opening["id"]
    decisions = None
    if args.decisions:
        with open(args.decisions) as f:
            decisions = json.load(f)
    history = []
    verdict = None
    while verdict is None:
        action = decisions.pop(0) if decisions else (decide(opening, history) if decisions is None else {"type": "end"})
        if action["type"] == "tool":
            out = call(args.server, f"/v1/episodes/{episode}/tool",
                       {"name": action["name"], "arguments": action.get("arguments", {})}, token)
        elif action["type"] == "message":
            body = {"text": action["text"]}
            if action.get("intent"):
                body["intent"] = action["intent"]
            out = call(args.server, f"/v1/episodes/{episode}/message", body, token)
        else:
            body = {} if action.get("confidence") is None else {"confidence": action["confidence"]}
            verdict = call(args.server, f"/v1/episodes/{episode}/end", body, token)
            break
        history.append((action, out))
        if out.get("ended") and not decisions:
            # The user (or the world) ended the episode: give the confidence, get the verdict.
            last = decisions.pop(0) if decisions else {"type": "end"}
            body = {} if last.get("confidence") is None else {"confidence": last["confidence"]}
            verdict = call(args.server, f"/v1/episodes/{episode}/end", body, token)
    json.dump(verdict, sys.stdout)
    print()


if __name__ == "__main__":
    main()
