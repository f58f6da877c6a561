#!/usr/bin/env python3
"""An example agent server for ark's remote-agent protocol (docs/remote_agents.md).

Run it, then point ark at it:

    python3 examples/remote_agent.py --port 8765
    deno task eval --agents http://127.0.0.1:8765/agent --tasks 2 --runs 1

It uses only the standard library and knows nothing about any domain. Its strategy:

1. Read the user's opening message and pick out the values it names for tool parameters
   ("my user id is X" fills a parameter called "user_id").
2. Call each reading tool (get_/find_/search_/list_/lookup_/read_/show_...) whose required
   parameters it can all fill from those values, at most MAX_LOOKUPS of them, those naming the
   person (a user or customer id) first.
3. Tell the user what it looked up, then end with confidence 0.5: it never changes anything.
"""

import argparse
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_LOOKUPS = 3
READ_PREFIXES = ("get", "find", "search", "list", "lookup", "look_up", "read", "show", "check")
# Parameters that name the person: most policies want them identified before their records are read.
PERSON_WORDS = ("user", "customer", "account", "member", "client", "email", "phone", "patient")

# Per-episode state, by the episode id ark sends with every request.
episodes = {}


def reading_tools(tools):
    """The tools that look like reads, by their name, with their required parameters."""
    out = []
    for tool in tools:
        function = tool.get("function") or {}
        name = function.get("name", "")
        if not name.lower().startswith(READ_PREFIXES):
            continue
        schema = function.get("parameters") or {}
        out.append((name, list(schema.get("required") or []), schema.get("properties") or {}))
    return out


def values_in(text, parameter):
    """Values the text gives for a parameter: the token after its name, e.g. "user id is X"."""
    if not re.search(r"[A-Za-z0-9]", parameter):
        return []
    # "user_id", "userId" and "UserID" all read as the words "user id".
    words = r"[\s_-]*".join(re.escape(w) for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", parameter))
    pattern = r"\b" + words + r"\s*(?:is|was|:|=|of)?\s*[\"']?([A-Za-z0-9][A-Za-z0-9_.@-]*[A-Za-z0-9])"
    return [m.group(1) for m in re.finditer(pattern, text, re.IGNORECASE)]


def plan_lookups(tools, text):
    """The read calls whose every required string parameter the opening message fills."""
    calls = []
    for name, required, properties in reading_tools(tools):
        if not required:
            continue
        args = {}
        for parameter in required:
            if (properties.get(parameter) or {}).get("type", "string") != "string":
                break
            found = values_in(text, parameter)
            if not found:
                break
            args[parameter] = found[0]
        if len(args) == len(required):
            calls.append({"type": "tool", "name": name, "arguments": args})
    calls.sort(key=lambda call: not any(w in p.lower() for p in call["arguments"] for w in PERSON_WORDS))
    return calls[:MAX_LOOKUPS]


def decide(state, observation):
    """The next action of an episode, from its state and the newest observation."""
    message = observation.get("message") or {}
    tool = observation.get("tool")
    if state["phase"] == "opening":
        state["phase"] = "looking"
        state["queue"] = plan_lookups(state["tools"], message.get("text") or "")
    if tool is not None:
        state["results"].append((tool.get("name"), bool(tool.get("ok"))))
    if state["phase"] == "looking":
        if state["queue"]:
            return state["queue"].pop(0)
        state["phase"] = "told"
        return {"type": "message", "text": summary(state["results"])}
    # Whatever the user answers to the summary (or anything unexpected): end politely.
    return {"type": "end", "confidence": 0.5}


def summary(results):
    """What the agent tells the user once its look-ups are done."""
    if not results:
        return "Thank you for reaching out. Could you tell me more about what you need?"
    done = ", ".join(f"{name} ({'found' if ok else 'not found'})" for name, ok in results)
    return f"Thank you. I have looked this up for you: {done}. Is there anything else I can do?"


def answer(body):
    """The JSON answer to one protocol request."""
    kind = body.get("type")
    episode = body.get("episode")
    if kind == "start":
        episodes[episode] = {"tools": body.get("tools") or [], "phase": "opening", "queue": [], "results": []}
        return {}
    if kind == "step":
        # A step for an episode never started (e.g. after a restart of this server) starts one.
        state = episodes.setdefault(episode, {"tools": [], "phase": "opening", "queue": [], "results": []})
        return decide(state, body.get("observation") or {})
    if kind == "finish":
        episodes.pop(episode, None)
        return {"confidence": 0.5}
    return {}  # "ping", and anything newer this example does not know


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        try:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            reply, status = answer(body if isinstance(body, dict) else {}), 200
        except Exception as err:  # never crash: a bad request gets a 400 with the reason
            reply, status = {"error": f"{type(err).__name__}: {err}"}, 400
        data = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # keep the output to the one "listening" line


def main():
    parser = argparse.ArgumentParser(description="An example ark remote agent (standard library only).")
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765)")
    port = parser.parse_args().port
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/agent", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
